import { Typography } from '@mui/material';
import { useGetList, useTranslate, type RaRecord } from 'react-admin';
import { TransactionTable } from '../common/TransactionTable.tsx';
import type { VendorRecord } from './record.ts';

interface LedgerRow extends RaRecord {
  createdAt: string;
  kind: string;
  itemName: string | null;
  quantity: number | null;
  amount: number;
  receiver?: { vendorId: number | null };
}

/** The vendor's newest ledger rows (GET /api/payments/?filter={"vendor":…}); + what the vendor received, − what they gave. */
export function LastTransactions({ vendor }: { vendor: VendorRecord }) {
  const translate = useTranslate();
  const { data, error, isPending } = useGetList<LedgerRow>(
    'payments',
    {
      filter: { vendor: vendor.licenseId },
      sort: { field: 'createdAt', order: 'DESC' },
      pagination: { page: 1, perPage: 10 },
    },
    { retry: false },
  );
  if (isPending) return null;
  if (error) {
    const status = (error as { status?: number }).status;
    return (
      <Typography color="text.secondary">
        {status === 404 ? translate('app.vendor.transactions_unavailable') : error.message}
      </Typography>
    );
  }
  if (!data?.length)
    return <Typography id="vendor-no-transactions">{translate('app.vendor.no_transactions')}</Typography>;
  const rows = data.map((row) => ({
    ...row,
    sign: row.receiver?.vendorId === vendor.id ? (1 as const) : (-1 as const),
  }));
  return <TransactionTable id="vendor-transactions" rows={rows} />;
}
