import AddIcon from '@mui/icons-material/Add';
import DownloadIcon from '@mui/icons-material/Download';
import LockIcon from '@mui/icons-material/Lock';
import SaveIcon from '@mui/icons-material/Save';
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, Title, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { formatDate, formatDateTime } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { parseEuros } from '../../shared/money.ts';
import { DayInput } from '../common/DayInput.tsx';
import { useDownload } from '../common/download.ts';
import { useFormatCents } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { PrintFrame } from '../common/PrintFrame.tsx';
import { ScrollRegion } from '../common/ScrollRegion.tsx';
import { AfterCloseNotice, OpenDays, type TillDay } from './CashDay.tsx';
import { FiscalExport, TillFiscal } from './TillFiscal.tsx';

type Till = TillDay & { openingBalance: number };

interface Movement {
  id: number;
  voucher: string;
  day: string;
  createdAt: string;
  kind: string;
  counterpart: string;
  vendor: { licenseId: string; name: string } | null;
  reason: string;
  staff: string;
  amountIn: number;
  amountOut: number;
  balance: number;
}

interface Close {
  id: number;
  day: string;
  expected: number;
  counted: number;
  difference: number;
  staff: string;
}

const pieceValues = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1];
const manualKinds = ['bank_deposit', 'bank_withdrawal', 'expense', 'income'] as const;

function CashBook({ till, today }: { till: Till; today: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatCents = useFormatCents();
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const download = useDownload();
  const { data } = useQuery({
    queryKey: ['tills', till.id, 'book', from, to],
    queryFn: () =>
      dataProvider.call(`/api/tills/${till.id}/book?from=${from}&to=${to}`) as Promise<{ movements: Movement[] }>,
  });
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2">
        {translate('app.tills.book')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, my: 1 }}>
        <DayInput id="till-book-from" label={translate('app.tills.from')} value={from} onChange={setFrom} />
        <DayInput id="till-book-to" label={translate('app.tills.to')} value={to} onChange={setTo} />
        <Button
          label="app.books.csv"
          id="till-book-csv"
          onClick={() =>
            void download(`/api/tills/${till.id}/book?format=csv&from=${from}&to=${to}`, `kassenbuch-${from}-${to}.csv`)
          }
        >
          <DownloadIcon />
        </Button>
      </Box>
      {data && data.movements.length === 0 ? (
        <Typography color="text.secondary" id="till-book-empty">
          {translate('app.tills.empty')}
        </Typography>
      ) : (
        <ScrollRegion label="app.tills.book" pinFirstColumn>
          <Table size="small" id="till-book">
            <TableHead>
              <TableRow>
                {['voucher', 'date', 'kind', 'counterpart', 'reason', 'staff', 'in', 'out', 'running'].map((key) => (
                  <TableCell key={key} align={['in', 'out', 'running'].includes(key) ? 'right' : 'left'}>
                    {translate(`app.tills.${key}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data?.movements.map((m) => (
                <TableRow key={m.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.voucher}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.createdAt, locale as Locale)}</TableCell>
                  <TableCell>{translate(`app.tills.kind_${m.kind}`)}</TableCell>
                  <TableCell>
                    {m.vendor
                      ? `${m.vendor.name} (${m.vendor.licenseId})`
                      : translate(`app.tills.counterpart_${m.counterpart}`)}
                  </TableCell>
                  <TableCell>{m.reason}</TableCell>
                  <TableCell>{m.staff}</TableCell>
                  <TableCell align="right">{m.amountIn ? formatCents(m.amountIn) : ''}</TableCell>
                  <TableCell align="right">{m.amountOut ? formatCents(m.amountOut) : ''}</TableCell>
                  <TableCell align="right">{formatCents(m.balance)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
    </Box>
  );
}

function MovementForm({ till }: { till: Till }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<(typeof manualKinds)[number]>('bank_deposit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  // One id per movement until it is booked: sent again after an answer that did not arrive, the API
  // answers the movement it booked instead of booking it twice.
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const cents = parseEuros(amount);
  const submit = async () => {
    try {
      const done = (await dataProvider.call(`/api/tills/${till.id}/movements`, {
        method: 'POST',
        body: { kind, amount: cents, reason, requestId },
      })) as { voucher: string };
      setRequestId(crypto.randomUUID());
      setMessage({ ok: true, text: translate('app.tills.booked', { voucher: done.voucher }) });
      setAmount('');
      setReason('');
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setMessage({ ok: false, text: (failed as Error).message });
    }
  };
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2">
        {translate('app.tills.movement')}
      </Typography>
      <AfterCloseNotice till={till} id="till-movement-after-close" />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', my: 1 }}>
        <TextField
          select
          size="small"
          label={translate('app.tills.kind')}
          value={kind}
          onChange={(e) => setKind(e.target.value as typeof kind)}
          slotProps={{ select: { id: 'till-movement-kind' } }}
        >
          {manualKinds.map((k) => (
            <MenuItem key={k} value={k}>
              {translate(`app.tills.kind_${k}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={translate('app.tills.amount')}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          id="till-movement-amount"
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        />
        <TextField
          size="small"
          label={translate('app.tills.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          id="till-movement-reason"
        />
        <Button
          label="app.tills.book_movement"
          variant="contained"
          id="till-movement-book"
          disabled={!cents}
          aria-label={translate('app.tills.book_movement')}
          onClick={() => void submit()}
        >
          <SaveIcon />
        </Button>
      </Box>
      {message && (
        <Alert severity={message.ok ? 'success' : 'error'} id="till-movement-message">
          {message.text}
        </Alert>
      )}
    </Box>
  );
}

function CloseForm({ till, today }: { till: Till; today: string }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const formatCents = useFormatCents();
  const [byPieces, setByPieces] = useState(true);
  const [pieces, setPieces] = useState<Record<number, string>>({});
  const [countedText, setCountedText] = useState('');
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [report, setReport] = useState<number>();
  // One close per till and day: after it, the movements wait for the next day's close.
  if (till.closedToday && report === undefined)
    return (
      <Box sx={{ mb: 3 }}>
        <Alert severity="info" id="till-closed">
          {translate('app.tills.closed')}
        </Alert>
        {till.openDays.length > 0 && (
          <>
            <Typography sx={{ mt: 1 }}>{translate('app.tills.waiting')}</Typography>
            <OpenDays days={till.openDays} today={today} id="till-open-days" />
          </>
        )}
      </Box>
    );
  // What this close will count, on the form and again in its confirmation.
  const covers = (id: string) =>
    till.openDays.length > 0 ? (
      <>
        <Typography sx={{ mt: 1 }}>{translate('app.tills.covers')}</Typography>
        <OpenDays days={till.openDays} today={today} id={id} />
      </>
    ) : (
      <Typography sx={{ mt: 1 }}>{translate('app.tills.covers_nothing')}</Typography>
    );
  const counts = Object.fromEntries(
    pieceValues.map((value) => [value, Math.max(0, Math.floor(Number(pieces[value] || 0)))]),
  );
  const counted = byPieces
    ? pieceValues.reduce((sum, value) => sum + value * counts[value], 0)
    : parseEuros(countedText);
  const difference = counted === undefined ? 0 : counted - till.balance;
  const close = async () => {
    setProblem(undefined);
    try {
      const done = (await dataProvider.call(`/api/tills/${till.id}/closes`, {
        method: 'POST',
        body: {
          counted,
          expected: till.balance,
          reason,
          ...(byPieces ? { denominations: Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)) } : {}),
        },
      })) as Close;
      setReport(done.id);
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setProblem((failed as Error).message);
    } finally {
      setConfirming(false);
    }
  };
  if (report !== undefined) {
    return (
      <Box id="till-close-done">
        <Alert severity="success" sx={{ mb: 2 }}>
          {translate('app.tills.closed')}
        </Alert>
        <PrintFrame path={`/api/closes/${report}/report`} id="till-report" title={translate('app.tills.report')} />
      </Box>
    );
  }
  return (
    <Box sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2">
        {translate('app.tills.close')}
      </Typography>
      {covers('till-open-days')}
      <Typography sx={{ my: 1 }}>
        {translate('app.tills.expected')}: <strong id="till-expected">{formatCents(till.balance)}</strong>
      </Typography>
      <FormControlLabel
        control={<Checkbox checked={byPieces} onChange={(e) => setByPieces(e.target.checked)} id="till-by-pieces" />}
        label={translate('app.tills.by_pieces')}
      />
      {byPieces ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 1, my: 1 }}>
          {pieceValues.map((value) => (
            <TextField
              key={value}
              type="number"
              size="small"
              label={formatCents(value)}
              value={pieces[value] ?? ''}
              onChange={(e) => setPieces({ ...pieces, [value]: e.target.value })}
              id={`till-piece-${value}`}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
          ))}
        </Box>
      ) : (
        <TextField
          size="small"
          label={translate('app.tills.counted')}
          value={countedText}
          onChange={(e) => setCountedText(e.target.value)}
          id="till-counted"
          sx={{ my: 1 }}
        />
      )}
      <Typography sx={{ my: 1 }}>
        {translate('app.tills.counted')}:{' '}
        <strong id="till-counted-sum">{counted === undefined ? '–' : formatCents(counted)}</strong> ·{' '}
        {translate('app.tills.difference')}: <strong id="till-difference">{formatCents(difference)}</strong>
      </Typography>
      {difference !== 0 && (
        <TextField
          size="small"
          fullWidth
          label={translate('app.tills.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          id="till-close-reason"
          sx={{ mb: 1 }}
        />
      )}
      {problem && (
        <Alert severity="error" sx={{ mb: 1 }} id="till-close-problem">
          {problem}
        </Alert>
      )}
      <Button
        label="app.tills.close_day"
        variant="contained"
        id="till-close"
        disabled={counted === undefined || (difference !== 0 && !reason.trim())}
        aria-label={translate('app.tills.close_day')}
        onClick={() => setConfirming(true)}
      >
        <LockIcon />
      </Button>
      <Confirm
        isOpen={confirming}
        title="app.tills.close_confirm_title"
        content={
          <Box id="till-close-confirm">
            <Typography>
              {translate('app.tills.close_confirm_content', {
                expected: formatCents(till.balance),
                counted: formatCents(counted ?? 0),
                difference: formatCents(difference),
              })}
            </Typography>
            {covers('till-close-confirm-days')}
          </Box>
        }
        confirm="app.tills.close_day"
        onConfirm={() => void close()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

function Closes({ till }: { till: Till }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatCents = useFormatCents();
  const download = useDownload();
  const [open, setOpen] = useState<Close>();
  const [locale] = useLocaleState();
  const { data } = useQuery({
    queryKey: ['tills', till.id, 'closes'],
    queryFn: () => dataProvider.call(`/api/tills/${till.id}/closes`) as Promise<{ closes: Close[] }>,
  });
  if (!data?.closes.length) return null;
  return (
    <Box>
      <Typography variant="h6" component="h2">
        {translate('app.tills.closes')}
      </Typography>
      <Button
        label="app.books.csv"
        id="till-closes-csv"
        onClick={() => void download(`/api/tills/${till.id}/closes?format=csv`, 'kassenabschluesse.csv')}
      >
        <DownloadIcon />
      </Button>
      <Table size="small" id="till-closes">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.tills.day')}</TableCell>
            <TableCell align="right">{translate('app.tills.expected')}</TableCell>
            <TableCell align="right">{translate('app.tills.counted')}</TableCell>
            <TableCell align="right">{translate('app.tills.difference')}</TableCell>
            <TableCell>{translate('app.tills.staff')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {data.closes.map((c) => (
            <TableRow key={c.id}>
              <TableCell>{formatDate(c.day, locale as Locale)}</TableCell>
              <TableCell align="right">{formatCents(c.expected)}</TableCell>
              <TableCell align="right">{formatCents(c.counted)}</TableCell>
              <TableCell align="right">{formatCents(c.difference)}</TableCell>
              <TableCell>{c.staff}</TableCell>
              <TableCell>
                <Button label="app.tills.report" className="till-report-open" onClick={() => setOpen(c)}>
                  <ReceiptIcon />
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Dialog open={Boolean(open)} onClose={() => setOpen(undefined)} fullWidth maxWidth="md">
        <DialogTitle>
          {translate('app.tills.report')} {open?.day}
        </DialogTitle>
        <DialogContent>
          {open && (
            <PrintFrame path={`/api/closes/${open.id}/report`} id="till-report" title={translate('app.tills.report')} />
          )}
        </DialogContent>
        <DialogActions>
          <Button label="ra.action.close" onClick={() => setOpen(undefined)} />
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function NewTill() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [opening, setOpening] = useState('0');
  const [problem, setProblem] = useState<string>();
  const cents = parseEuros(opening);
  const create = async () => {
    try {
      await dataProvider.call('/api/tills', { method: 'POST', body: { name, openingBalance: cents } });
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['tills'] });
    } catch (failed) {
      setProblem((failed as Error).message);
    }
  };
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 2 }}>
      <TextField
        size="small"
        label={translate('app.tills.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        id="till-new-name"
      />
      <TextField
        size="small"
        label={translate('app.tills.opening_balance')}
        value={opening}
        onChange={(e) => setOpening(e.target.value)}
      />
      <Button
        label="app.tills.create"
        id="till-create"
        disabled={!name.trim() || cents === undefined}
        aria-label={translate('app.tills.create')}
        onClick={() => void create()}
      >
        <AddIcon />
      </Button>
      {problem && <Alert severity="error">{problem}</Alert>}
    </Box>
  );
}

/** /tills: each till's balance, signing, cash book, movements by hand, the daily close and the closes with their reports. */
export function TillsPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatCents = useFormatCents();
  const [selected, setSelected] = useState(0);
  const { data } = useQuery({
    queryKey: ['tills'],
    queryFn: () => dataProvider.call('/api/tills') as Promise<{ tills: Till[]; today: string }>,
  });
  const till = data?.tills[selected] ?? data?.tills[0];
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={<PageTitle page="app.page.tills" />} />
      <Card sx={{ mt: 2 }}>
        <CardContent>
          {data && data.tills.length === 0 && <Alert severity="info">{translate('app.tills.none')}</Alert>}
          {data && data.tills.length > 1 && (
            <Tabs value={selected} onChange={(_e, n: number) => setSelected(n)} sx={{ mb: 2 }}>
              {data.tills.map((x) => (
                <Tab key={x.id} label={x.name} />
              ))}
            </Tabs>
          )}
          {till && data && (
            <Box key={till.id}>
              <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
                {till.name}: <span id="till-balance">{formatCents(till.balance)}</span>
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {translate('app.tills.closed_until')}: {till.closedUntil ?? translate('app.tills.never_closed')}
              </Typography>
              <TillFiscal tillId={till.id} tillName={till.name} />
              <CashBook till={till} today={data.today} />
              <MovementForm till={till} />
              <CloseForm till={till} today={data.today} />
              <Closes till={till} />
            </Box>
          )}
          {data && data.tills.length > 0 && <FiscalExport today={data.today} />}
          <NewTill />
        </CardContent>
      </Card>
    </Box>
  );
}
