import {
  Alert,
  Box,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useDataProvider, useLocale, useTranslate } from 'react-admin';
import { formatMonth, localDay } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { PrintFrame } from '../common/PrintFrame.tsx';
import { useFormatMoney } from '../common/money.tsx';
import { BenefitSchemeButton } from './BenefitScheme.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

// A vendor's statement of earnings for the job centre: a month, six months (the Anlage EKS window)
// or a year; the month table with each month's gauge under the installation's benefit scheme, and
// the printable page for one vendor or every vendor.

type Span = 'month' | 'half' | 'year';
const spanMonths: Record<Span, number> = { month: 1, half: 6, year: 12 };

interface Gauge {
  level: 'ok' | 'near' | 'over';
  edge: number | null;
  tips: 'ok' | 'near' | 'over';
}

interface Month {
  month: string;
  sales: number;
  licences: number;
  feesBorne: number;
  copiesBought: number;
  other: number;
  net: number;
  tips: number;
  payouts: number;
  gauge: Gauge;
}

interface Answer {
  months: Month[];
  totals: Omit<Month, 'month' | 'gauge'>;
  averageNet: number;
  averageGauge: Gauge;
  scheme: { scheme: string };
}

/** "2026-05" moved by `by` months. */
function addMonths(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + number - 1 + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

// Payouts are on the printed page; the screen keeps room for the gauge.
const columns = ['sales', 'licences', 'feesBorne', 'copiesBought', 'net', 'tips'] as const;

export function BenefitView({ vendorId }: { vendorId: number }) {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const lastMonth = addMonths(localDay().slice(0, 7), -1);
  const [span, setSpan] = useState<Span>('half');
  const [start, setStart] = useState(() => addMonths(lastMonth, -5));
  const [batch, setBatch] = useState(false);
  const [loaded, setLoaded] = useState<{ answer?: Answer; error?: string }>({});
  // Raised when the office saves the scheme: the gauges are read again.
  const [schemeVersion, setSchemeVersion] = useState(0);
  const end = addMonths(start, spanMonths[span] - 1);
  const query = `from=${start}&to=${end}`;

  useEffect(() => {
    let current = true;
    void (dataProvider.call(`/api/vendors/${vendorId}/benefit-statement?${query}`) as Promise<Answer>).then(
      (answer) => current && setLoaded({ answer }),
      (error: Error) => current && setLoaded({ error: error.message }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, vendorId, query, schemeVersion]);

  const chooseSpan = (next: Span) => {
    setSpan(next);
    setStart(addMonths(lastMonth, 1 - spanMonths[next]));
  };
  // This month and the three years before it to start from, newest first.
  const starts = Array.from({ length: 37 }, (_, index) => addMonths(lastMonth, 1 - index));
  const gaugeText = (gauge: Gauge) =>
    gauge.level === 'ok'
      ? translate('app.statements.benefit.ok')
      : translate(`app.statements.benefit.${gauge.level}`, { edge: formatMoney(gauge.edge ?? 0) });
  const answer = loaded.answer;
  const warned = answer?.months.filter((m) => m.gauge.level !== 'ok' || m.gauge.tips !== 'ok') ?? [];

  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', my: 1 }}>
        <TextField
          select
          id="benefit-span"
          label={translate('app.statements.benefit.span')}
          value={span}
          onChange={(event) => chooseSpan(event.target.value as Span)}
          size="small"
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="month">{translate('app.statements.benefit.month')}</MenuItem>
          <MenuItem value="half">{translate('app.statements.benefit.half')}</MenuItem>
          <MenuItem value="year">{translate('app.statements.benefit.year')}</MenuItem>
        </TextField>
        <TextField
          select
          id="benefit-start"
          label={translate('app.statements.benefit.start')}
          value={start}
          onChange={(event) => setStart(event.target.value)}
          size="small"
          sx={{ minWidth: 180 }}
        >
          {(starts.includes(start) ? starts : [start, ...starts]).map((month) => (
            <MenuItem key={month} value={month}>
              {formatMonth(month, locale)}
            </MenuItem>
          ))}
        </TextField>
        <Typography variant="body2" id="benefit-period">
          {formatMonth(start, locale)} – {formatMonth(end, locale)}
        </Typography>
        <BenefitSchemeButton onSaved={() => setSchemeVersion((version) => version + 1)} />
      </Box>
      {loaded.error && <Alert severity="error">{loaded.error}</Alert>}
      {answer && (
        <>
          {warned.length > 0 && (
            <Alert severity="warning" id="benefit-warning" sx={{ mb: 1 }}>
              {translate('app.statements.benefit.warning', {
                months: warned.map((m) => formatMonth(m.month, locale)).join(', '),
              })}
            </Alert>
          )}
          <TableContainer
            tabIndex={0}
            role="region"
            aria-label={translate('app.statements.benefit.table')}
            sx={{ mb: 2 }}
          >
            <Table size="small" id="benefit-months">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('app.statements.benefit.month')}</TableCell>
                  {columns.map((column) => (
                    <TableCell key={column} align="right">
                      {translate(`app.statements.benefit.${column}`)}
                    </TableCell>
                  ))}
                  <TableCell>{translate('app.statements.benefit.gauge')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {answer.months.map((month) => (
                  <TableRow key={month.month} data-month={month.month} data-gauge={month.gauge.level}>
                    <TableCell component="th" scope="row">
                      {formatMonth(month.month, locale)}
                    </TableCell>
                    {columns.map((column) => (
                      <TableCell
                        key={column}
                        align="right"
                        sx={{ whiteSpace: 'nowrap', fontWeight: column === 'net' ? 700 : undefined }}
                      >
                        {formatMoney(month[column])}
                      </TableCell>
                    ))}
                    <TableCell sx={{ fontWeight: month.gauge.level === 'ok' ? undefined : 700 }}>
                      {gaugeText(month.gauge)}
                      {month.gauge.tips !== 'ok' &&
                        ` · ${translate(`app.statements.benefit.tips_${month.gauge.tips}`)}`}
                    </TableCell>
                  </TableRow>
                ))}
                <TableRow>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 700 }}>
                    {translate('app.statements.benefit.total')}
                  </TableCell>
                  {columns.map((column) => (
                    <TableCell key={column} align="right" sx={{ whiteSpace: 'nowrap', fontWeight: 700 }}>
                      {formatMoney(answer.totals[column])}
                    </TableCell>
                  ))}
                  <TableCell />
                </TableRow>
                <TableRow>
                  <TableCell component="th" scope="row">
                    {translate('app.statements.benefit.average')}
                  </TableCell>
                  {columns.map((column) => (
                    <TableCell key={column} align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {column === 'net' ? formatMoney(answer.averageNet) : ''}
                    </TableCell>
                  ))}
                  <TableCell id="benefit-average-gauge">{gaugeText(answer.averageGauge)}</TableCell>
                </TableRow>
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
      <TextField
        select
        id="benefit-print-who"
        label={translate('app.statements.benefit.print_who')}
        value={batch ? 'all' : 'one'}
        onChange={(event) => setBatch(event.target.value === 'all')}
        size="small"
        sx={{ minWidth: 220, mb: 1 }}
      >
        <MenuItem value="one">{translate('app.statements.benefit.print_one')}</MenuItem>
        <MenuItem value="all">{translate('app.statements.benefit.print_all')}</MenuItem>
      </TextField>
      <PrintFrame
        path={
          batch
            ? `/api/benefit-statements?${query}&format=html`
            : `/api/vendors/${vendorId}/benefit-statement?${query}&format=html`
        }
        id="benefit-page"
        title={translate('app.statements.benefit.page')}
        printLabel="app.statements.print"
        lang={null}
      />
    </>
  );
}
