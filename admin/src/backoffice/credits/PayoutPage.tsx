import PaymentsIcon from '@mui/icons-material/Payments';
import { Alert, Box, Card, CardContent, TableCell, TableRow, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  Confirm,
  HttpError,
  ListButton,
  Title,
  TopToolbar,
  useDataProvider,
  useGetOne,
  useLocale,
  useTranslate,
} from 'react-admin';
import { useParams } from 'react-router-dom';
import { useFormatMoney } from '../common/money.tsx';
import { TransactionTable } from '../common/TransactionTable.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { Receipt, ReceiptButton } from '../payouts/Receipt.tsx';
import { formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import type { AccountRow } from '../../shared/ledger.ts';
import type { ShopDataProvider } from '../dataProvider.ts';
import { AfterCloseNotice, type TillDay } from '../counter/CashDay.tsx';
import type { CreditRecord } from './record.ts';

interface ForPayout {
  vendor: { id: number; licenseId: string; firstName: string; lastName: string };
  balance: number;
  payments: AccountRow[];
}

interface Paid {
  id: number;
  voucher: string;
  amount: number;
}

/** The payout that emptied the credit, as the API names it when this page's payout came too late. */
interface LastPayout extends Paid {
  authorisedBy: string;
  createdAt: string;
}

/** Tells the loser of a payout race who paid out, when, how much, with the voucher to look at. */
function PaidMeanwhile({ payout }: { payout: LastPayout }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      id="payout-lost"
      action={<ReceiptButton payoutId={payout.id} voucher={payout.voucher} />}
    >
      {translate('app.books.paid_meanwhile', {
        name: payout.authorisedBy,
        amount: formatMoney(payout.amount),
        date: formatDateTime(payout.createdAt, locale),
        receipt: payout.voucher,
      })}
    </Alert>
  );
}

function OpenRows({ rows, balance }: { rows: AccountRow[]; balance: number }) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  return (
    <TransactionTable id="payout-rows" rows={rows}>
      <TableRow sx={{ '& td': { fontWeight: 700 } }}>
        <TableCell colSpan={3}>{translate('app.books.credit')}</TableCell>
        <TableCell align="right" id="payout-credit" sx={{ whiteSpace: 'nowrap' }}>
          {formatMoney(balance)}
        </TableCell>
      </TableRow>
    </TransactionTable>
  );
}

/**
 * The counter's payout: the open rows and the credit, then a confirmation naming vendor and
 * amount, then the receipt to print. The amount shown travels as `expectedAmount`, so a sale or a
 * refund booked meanwhile makes the API refuse (409) instead of paying a figure nobody saw. The
 * page's one payout travels with one request id, also when it is confirmed again after an answer
 * that did not arrive: the API then answers the payout it booked instead of paying twice.
 */
function Payout({ licenseId }: { licenseId: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const formatMoney = useFormatMoney();
  const queryKey = ['payments', 'forpayout', licenseId];
  const { data, error, isPending, refetch } = useQuery({
    queryKey,
    queryFn: () =>
      dataProvider.call(`/api/payments/forpayout?vendor=${encodeURIComponent(licenseId)}`) as Promise<ForPayout>,
  });
  // A payout without a till named goes through the first one (api/src/ledger/till.ts defaultTillId).
  const { data: tills } = useQuery({
    queryKey: ['tills'],
    queryFn: () => dataProvider.call('/api/tills') as Promise<{ tills: TillDay[] }>,
  });
  const till = tills?.tills[0];
  const [requestId] = useState(() => crypto.randomUUID());
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [paid, setPaid] = useState<Paid>();
  const [problem, setProblem] = useState<string>();
  const [lostTo, setLostTo] = useState<LastPayout>();

  if (isPending) return <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>;
  if (error) return <Alert severity="error">{translate('app.books.load_failed', { message: error.message })}</Alert>;
  const vendor = `${data.vendor.licenseId} ${data.vendor.firstName} ${data.vendor.lastName}`.trim();

  const payOut = async () => {
    setBusy(true);
    setProblem(undefined);
    setLostTo(undefined);
    try {
      const payout = (await dataProvider.call('/api/payments/payout', {
        method: 'POST',
        body: { vendor: licenseId, expectedAmount: data.balance, requestId },
      })) as Paid;
      setPaid(payout);
      // Every list with this vendor's credit is out of date now.
      await queryClient.invalidateQueries();
    } catch (failed) {
      const status = failed instanceof HttpError ? (failed.status as number) : undefined;
      const body =
        failed instanceof HttpError
          ? (failed.body as { currentAmount?: number; lastPayout?: LastPayout } | undefined)
          : undefined;
      if (typeof body?.currentAmount === 'number')
        setProblem(translate('app.books.stale', { amount: formatMoney(body.currentAmount) }));
      else if (body?.lastPayout) setLostTo(body.lastPayout);
      // Any other refusal of the books (a debt meanwhile): the reloaded rows say "No credits to pay out".
      else if (status !== 409) setProblem((failed as Error).message);
      await refetch();
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  if (paid) {
    return (
      <Box id="payout-done">
        <Alert severity="success" sx={{ mb: 2 }}>
          {translate('app.books.paid', { amount: formatMoney(paid.amount), vendor })}
        </Alert>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('app.books.receipt_title', { receipt: paid.voucher })}
        </Typography>
        <Receipt payoutId={paid.id} />
      </Box>
    );
  }

  return (
    <Box>
      <Typography variant="h5" component="h2" id="payout-vendor" sx={{ mb: 2 }}>
        {vendor}
      </Typography>
      {problem && (
        <Alert severity="warning" sx={{ mb: 2 }} id="payout-problem">
          {problem}
        </Alert>
      )}
      {lostTo && <PaidMeanwhile payout={lostTo} />}
      {data.payments.length > 0 && <OpenRows rows={data.payments} balance={data.balance} />}
      {data.balance > 0 && <AfterCloseNotice till={till} id="payout-after-close" />}
      {data.balance > 0 ? (
        <Button
          label="app.books.pay_out"
          variant="contained"
          size="large"
          onClick={() => setConfirming(true)}
          sx={{ mt: 2 }}
          id="payout-button"
        >
          <PaymentsIcon />
        </Button>
      ) : (
        <Alert severity="info" sx={{ mt: 2 }} id="payout-nothing">
          {translate('app.books.no_credit')}
        </Alert>
      )}
      <Confirm
        isOpen={confirming}
        loading={busy}
        title="app.books.confirm_title"
        content={
          <>
            <Typography>
              {translate('app.books.confirm_content', { amount: formatMoney(data.balance), vendor })}
            </Typography>
            <AfterCloseNotice till={till} id="payout-confirm-after-close" />
          </>
        }
        translateOptions={{ amount: formatMoney(data.balance), vendor }}
        confirm="app.books.pay_out"
        onConfirm={() => void payOut()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** /credits/payout/{vendor id}. */
export function PayoutPage() {
  const { id } = useParams();
  const translate = useTranslate();
  const { data: vendor, error, isPending } = useGetOne<CreditRecord>('vendorsummary', { id: id! });
  return (
    <Box sx={{ maxWidth: 900 }}>
      <Title title={<PageTitle page="app.page.payout" />} />
      <TopToolbar sx={{ justifyContent: 'flex-start' }}>
        <ListButton resource="credits" label="app.books.back_to_credits" />
      </TopToolbar>
      <Card>
        <CardContent>
          {isPending ? (
            <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>
          ) : error ? (
            <Alert severity="error">{error.message}</Alert>
          ) : (
            <Payout licenseId={vendor.licenseId} />
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
