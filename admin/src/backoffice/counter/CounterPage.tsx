import StorefrontIcon from '@mui/icons-material/Storefront';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Confirm, HttpError, Title, useTranslate, useDataProvider } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { useNavigate, useParams } from 'react-router-dom';
import type { AccountRow } from '../../shared/ledger.ts';
import { AmountField, useAmount, useFormatMoney } from '../common/money.tsx';
import { TransactionTable } from '../common/TransactionTable.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { counterPaths } from './paths.ts';
import { PrintFrame } from '../common/PrintFrame.tsx';
import { AfterCloseNotice, type TillDay } from './CashDay.tsx';
import { FiscalOffNotice, onFirstTry, useFiscalOverview } from './TillFiscal.tsx';

interface AtCounter {
  vendor: { id: number; licenseId: string; firstName: string; lastName: string };
  credit: number;
  /** The open rows the credit is made of. */
  rows: AccountRow[];
  items: { id: number; name: string; counterPrice: number }[];
  tills: TillDay[];
}

interface Visit {
  id: string;
  payout: { amount: number } | null;
}

/** A visit's id, made when the screen opens: the same confirmation sent twice books once. */
function newVisitId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The search: a licence ID typed or scanned from a badge (a scanner types it and presses Enter). */
function Search() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A badge's QR code holds the shop's address ending in the licence ID.
    const licenseId = text.trim().split('/').filter(Boolean).pop();
    if (licenseId) void navigate(counterPaths.visit(licenseId));
  };
  return (
    <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <TextField
        id="counter-search"
        label={translate('app.counter.search_label')}
        helperText={translate('app.counter.search_hint')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        autoFocus
        size="small"
      />
      <Button label="app.counter.open" type="submit" variant="contained" id="counter-open">
        <StorefrontIcon />
      </Button>
    </Box>
  );
}

function VisitForm({ licenseId }: { licenseId: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const formatMoney = useFormatMoney();
  const amount = useAmount();
  const navigate = useNavigate();
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ['counter', licenseId],
    queryFn: () =>
      dataProvider.call(`/api/counter/vendor?vendor=${encodeURIComponent(licenseId)}`) as Promise<AtCounter>,
    retry: false,
  });
  // The notice that a till does not sign stands above the button: drawn with the form (onFirstTry).
  const fiscal = useFiscalOverview();
  const [visitId, setVisitId] = useState(newVisitId);
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [cashText, setCashText] = useState('');
  const [payOut, setPayOut] = useState(true);
  const [tillId, setTillId] = useState<number>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [booked, setBooked] = useState<Visit>();
  // A refusal speaks of the form as it was sent: once staff change it, the message no longer holds.
  const edit = (apply: () => void) => {
    setProblem(undefined);
    apply();
  };

  if (isPending || onFirstTry(fiscal))
    return <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>;
  if (error) {
    const status = error instanceof HttpError ? (error.status as number) : 0;
    return (
      <Alert severity="error" id="counter-error">
        {status === 404 ? translate('app.counter.not_found') : error.message}
      </Alert>
    );
  }
  const vendor = `${data.vendor.firstName} ${data.vendor.lastName}`.trim() + ` (${data.vendor.licenseId})`;
  const till = data.tills.find((x) => x.id === tillId) ?? data.tills[0];
  const lines = data.items
    .map((item) => ({ item, quantity: Math.max(0, Math.floor(Number(quantities[item.id] || 0))) }))
    .filter((line) => line.quantity > 0);
  const total = lines.reduce((sum, line) => sum + line.quantity * line.item.counterPrice, 0);
  // What the vendor hands over: the copies take what they cost, the rest goes back as change.
  const tendered = cashText.trim() === '' ? 0 : amount.parse(cashText);
  const cash = tendered === undefined ? undefined : Math.min(tendered, total);
  const change = tendered === undefined || cash === undefined ? 0 : tendered - cash;
  const fromCredit = total - (cash ?? 0);
  const available = Math.max(data.credit, 0);
  const payout = payOut ? Math.max(data.credit - fromCredit, 0) : 0;
  // Cash that moves after today's close belongs to the next one: said before the visit is confirmed.
  const movesCash = payout > 0 || (cash ?? 0) > 0;
  const invalid =
    cash === undefined
      ? amount.refusal()
      : fromCredit > available
        ? translate('app.counter.too_much_credit', { amount: formatMoney(fromCredit - available) })
        : total === 0 && payout === 0
          ? translate('app.counter.nothing')
          : undefined;

  const book = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const visit = (await dataProvider.call('/api/counter/visits', {
        method: 'POST',
        body: {
          visitId,
          vendor: data.vendor.licenseId,
          tillId: till.id,
          cash,
          tendered,
          payOut,
          expectedCredit: data.credit,
          items: lines.map((line) => ({ itemId: line.item.id, quantity: line.quantity })),
        },
      })) as Visit;
      setBooked(visit);
      await queryClient.invalidateQueries();
    } catch (failed) {
      const body = failed instanceof HttpError ? (failed.body as { currentCredit?: number } | undefined) : undefined;
      if (typeof body?.currentCredit === 'number')
        setProblem(translate('app.counter.stale', { amount: formatMoney(body.currentCredit) }));
      else setProblem((failed as Error).message);
      await refetch();
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  if (booked) {
    return (
      <Box id="counter-done">
        <Alert severity="success" sx={{ mb: 2 }}>
          {translate('app.counter.booked')}
        </Alert>
        <Button
          label="app.counter.new_visit"
          id="counter-next"
          sx={{ mb: 2 }}
          onClick={() => {
            setBooked(undefined);
            setVisitId(newVisitId());
            void navigate(counterPaths.search);
          }}
        />
        <PrintFrame
          path={`/api/counter/visits/${booked.id}/receipt`}
          id="counter-receipt"
          title={translate('app.counter.receipt')}
        />
      </Box>
    );
  }

  return (
    <Box>
      <Typography variant="h5" component="h2" id="counter-vendor" sx={{ mb: 1 }}>
        {vendor}
      </Typography>
      <Typography sx={{ mb: 2 }}>
        {translate('app.counter.credit')}: <strong id="counter-credit">{formatMoney(data.credit)}</strong>
      </Typography>
      {problem && (
        <Alert severity="warning" sx={{ mb: 2 }} id="counter-problem">
          {problem}
        </Alert>
      )}
      {data.rows.length > 0 && (
        <TransactionTable id="counter-open-rows" rows={data.rows} sx={{ mb: 2, maxHeight: 240 }} />
      )}
      {data.items.length === 0 ? (
        <Alert severity="info">{translate('app.counter.no_items')}</Alert>
      ) : (
        <Table size="small" id="counter-items" sx={{ mb: 2, maxWidth: 600 }}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.counter.item')}</TableCell>
              <TableCell align="right">{translate('app.counter.counter_price')}</TableCell>
              <TableCell align="right">{translate('app.counter.quantity')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.items.map((item) => (
              <TableRow key={item.id}>
                <TableCell>{item.name}</TableCell>
                <TableCell align="right">{formatMoney(item.counterPrice)}</TableCell>
                <TableCell align="right">
                  <TextField
                    type="number"
                    size="small"
                    slotProps={{
                      htmlInput: {
                        min: 0,
                        step: 1,
                        id: `counter-qty-${item.id}`,
                        'aria-label': `${item.name} ${translate('app.counter.quantity')}`,
                      },
                    }}
                    value={quantities[item.id] ?? ''}
                    onChange={(event) => edit(() => setQuantities({ ...quantities, [item.id]: event.target.value }))}
                    sx={{ width: 100 }}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <FiscalOffNotice tillId={till?.id} />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
        <TextField
          select
          size="small"
          label={translate('app.counter.till')}
          value={till?.id ?? ''}
          onChange={(event) => edit(() => setTillId(Number(event.target.value)))}
          slotProps={{ select: { id: 'counter-till' } }}
          helperText={till ? translate('app.counter.till_balance', { amount: formatMoney(till.balance) }) : ''}
        >
          {data.tills.map((x) => (
            <MenuItem key={x.id} value={x.id}>
              {x.name}
            </MenuItem>
          ))}
        </TextField>
        <AmountField
          size="small"
          label={translate('app.counter.cash')}
          value={cashText}
          onChange={(event) => edit(() => setCashText(event.target.value))}
          id="counter-cash"
        />
        <Button
          label="app.counter.all_cash"
          id="counter-all-cash"
          onClick={() => edit(() => setCashText(amount.toInput(total)))}
        />
        <FormControlLabel
          control={
            <Checkbox
              id="counter-payout"
              checked={payOut}
              onChange={(event) => edit(() => setPayOut(event.target.checked))}
            />
          }
          label={translate('app.counter.pay_out_rest')}
        />
      </Box>
      <Table size="small" id="counter-summary" sx={{ maxWidth: 600, mb: 2 }}>
        <TableBody>
          <TableRow>
            <TableCell>{translate('app.counter.credit')}</TableCell>
            <TableCell align="right">{formatMoney(data.credit)}</TableCell>
          </TableRow>
          <TableRow>
            <TableCell>{translate('app.counter.copies_total')}</TableCell>
            <TableCell align="right" id="counter-total">
              {formatMoney(total)}
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell>{translate('app.counter.from_credit')}</TableCell>
            <TableCell align="right" id="counter-from-credit">
              {formatMoney(Math.max(fromCredit, 0))}
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell>{translate('app.counter.cash_in')}</TableCell>
            <TableCell align="right" id="counter-cash-in">
              {formatMoney(cash ?? 0)}
            </TableCell>
          </TableRow>
          {change > 0 && (
            <TableRow sx={{ '& td': { fontWeight: 700 } }}>
              <TableCell>{translate('app.counter.change')}</TableCell>
              <TableCell align="right" id="counter-change">
                {formatMoney(change)}
              </TableCell>
            </TableRow>
          )}
          <TableRow sx={{ '& td': { fontWeight: 700 } }}>
            <TableCell>{translate('app.counter.payout')}</TableCell>
            <TableCell align="right" id="counter-payout-amount">
              {formatMoney(payout)}
            </TableCell>
          </TableRow>
          <TableRow>
            <TableCell>{translate('app.counter.credit_after')}</TableCell>
            <TableCell align="right" id="counter-credit-after">
              {formatMoney(data.credit - Math.max(fromCredit, 0) - payout)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      {invalid && (
        <Alert severity="info" sx={{ mb: 2 }} id="counter-invalid">
          {invalid}
        </Alert>
      )}
      {movesCash && <AfterCloseNotice till={till} id="counter-after-close" />}
      <Button
        label="app.counter.confirm"
        variant="contained"
        size="large"
        id="counter-confirm"
        // on a phone react-admin draws a disabled button as an icon with no name of its own
        aria-label={translate('app.counter.confirm')}
        disabled={Boolean(invalid) || !till}
        onClick={() => setConfirming(true)}
      >
        <StorefrontIcon />
      </Button>
      <Confirm
        isOpen={confirming}
        loading={busy}
        title="app.counter.confirm_title"
        content={
          <>
            <Typography>
              {translate('app.counter.confirm_content', {
                vendor,
                credit: formatMoney(data.credit),
                fromCredit: formatMoney(Math.max(fromCredit, 0)),
                cash: formatMoney(cash ?? 0),
                payout: formatMoney(payout),
              })}
            </Typography>
            {change > 0 && (
              <Typography sx={{ fontWeight: 700 }} id="counter-confirm-change">
                {translate('app.counter.confirm_change', { amount: formatMoney(change) })}
              </Typography>
            )}
            {movesCash && <AfterCloseNotice till={till} id="counter-confirm-after-close" />}
          </>
        }
        confirm="app.counter.confirm"
        onConfirm={() => void book()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** /counter: find the vendor; /counter/{licence ID}: their visit. */
export function CounterPage() {
  const { licenseId } = useParams();
  return (
    <Box sx={{ maxWidth: 900 }}>
      <Title title={<PageTitle page="app.page.counter" />} />
      <Card sx={{ mt: 2 }}>
        <CardContent>{licenseId ? <VisitForm key={licenseId} licenseId={licenseId} /> : <Search />}</CardContent>
      </Card>
    </Box>
  );
}
