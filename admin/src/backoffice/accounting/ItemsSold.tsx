import { Alert, Typography } from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import { TotalsTable, usePaymentTotals } from './PaymentTotals.tsx';

/** The vendor profile's items sold: the sales totals of the vendor's whole history, per item. */
export function ItemsSold({ vendor }: { vendor: RaRecord }) {
  const translate = useTranslate();
  const { data, error, isPending } = usePaymentTotals({ vendor: vendor.licenseId, kind: 'sales' });
  if (isPending) return <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>;
  if (error) return <Alert severity="error">{translate('app.books.totals_failed', { message: error.message })}</Alert>;
  if (!data.count) return <Typography id="vendor-no-items-sold">{translate('app.books.no_items_sold')}</Typography>;
  return <TotalsTable totals={data} id="vendor-items-sold" />;
}
