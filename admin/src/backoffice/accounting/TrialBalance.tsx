import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Link as MuiLink,
  List,
  ListItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { Link, useSearchParams } from 'react-router-dom';
import type { TrialBalance as Balance, TrialBalanceLine } from '../../../../api/src/accounting/trial-balance.ts';
import { periodFilename, useDownload } from '../common/download.ts';
import { useFormatMoney } from '../common/money.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { reconciliationPath } from '../reconciliation/index.ts';
import { PeriodPicker, type PeriodChoice } from '../statistics/PeriodPicker.tsx';
import { presetPeriod, presets } from './period.ts';

// The answer of GET /api/accounting/trial-balance (api/src/accounting/trial-balance.ts declares it).
type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; balance: Balance };

const ids = {
  period: 'trial-balance-period',
  preset: 'trial-balance-preset',
  from: 'trial-balance-from',
  to: 'trial-balance-to',
};

const isDay = (text: string | null): text is string => /^\d{4}-\d{2}-\d{2}$/.test(text ?? '');

/**
 * The period the screen opens with: the one the address names (the DATEV export links here with
 * its period), else this month, the one a bookkeeper checks while it runs.
 */
function initialPeriod(search: URLSearchParams): PeriodChoice {
  const from = search.get('from');
  const to = search.get('to');
  if (isDay(from) && isDay(to)) return { preset: 'custom', from, to };
  return { preset: 'this_month', ...presetPeriod('this_month') };
}

const query = (period: PeriodChoice) => `from=${period.from}&to=${period.to}`;

/**
 * "Summen und Salden": each account of the DATEV file over a period as the export books it, beside
 * the product's own figure for the cash desk, the card transit account and the vendors; a difference
 * in red with where it comes from, the sums of debits and credits, and the CSV.
 */
export function TrialBalance() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const [search] = useSearchParams();
  const [period, setPeriod] = useState<PeriodChoice>(() => initialPeriod(search));
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    void (dataProvider.call(`/api/accounting/trial-balance?${query(period)}`) as Promise<Balance>).then(
      (balance) => current && setLoaded({ state: 'done', balance }),
      (error: Error) => current && setLoaded({ state: 'error', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, period]);
  // A new period shows "loading" at once, in the same render as the new period.
  const choosePeriod = (next: PeriodChoice) => {
    setPeriod(next);
    setLoaded({ state: 'loading' });
  };

  return (
    <Box sx={{ mt: 1, mb: 4 }} id="trial-balance">
      <Title title={<PageTitle page="app.page.trial_balance" />} />
      <Typography sx={{ mt: 2 }}>{translate('app.trial_balance.intro')}</Typography>
      <PeriodPicker value={period} onChange={choosePeriod} choices={presets} ids={ids} />
      {loaded.state === 'loading' && (
        <LinearProgress id="trial-balance-loading" aria-label={translate('app.trial_balance.loading')} sx={{ my: 2 }} />
      )}
      {loaded.state === 'error' && (
        <Alert severity="error" id="trial-balance-error">
          {translate('app.trial_balance.failed', { message: loaded.message })}
        </Alert>
      )}
      {loaded.state === 'done' && <Accounts balance={loaded.balance} period={period} />}
    </Box>
  );
}

function Accounts({ balance, period }: { balance: Balance; period: PeriodChoice }) {
  const translate = useTranslate();
  const download = useDownload();
  const headingId = useId();
  const differing = balance.lines.filter((line) => line.difference !== null && line.difference !== 0);
  return (
    <Card>
      <CardContent>
        <Stack
          direction="row"
          sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}
        >
          <Typography variant="h6" component="h2" id={headingId}>
            {translate('app.trial_balance.accounts')}
          </Typography>
          {balance.lines.length > 0 && (
            <Button
              startIcon={<DownloadIcon />}
              id="trial-balance-csv"
              onClick={() =>
                void download(
                  `/api/accounting/trial-balance?format=csv&${query(period)}`,
                  periodFilename('summen-salden', period),
                )
              }
            >
              {translate('app.trial_balance.csv')}
            </Button>
          )}
        </Stack>
        {balance.lines.length === 0 ? (
          <Alert severity="info" id="trial-balance-empty">
            {translate('app.trial_balance.empty')}
          </Alert>
        ) : (
          <Stack spacing={2}>
            <AccountsTable balance={balance} headingId={headingId} />
            <Differences lines={differing} balance={balance} />
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}

/** The account's name as the DATEV settings screen calls it; the vendors' personal accounts as such. */
function useAccountName(): (line: TrialBalanceLine) => string {
  const translate = useTranslate();
  return (line) =>
    line.role === 'vendors' && line.account.endsWith('+')
      ? translate('app.trial_balance.vendors_personal')
      : translate(`resources.datevsettings.fields.accounts.${line.role}`);
}

const explanationId = (line: TrialBalanceLine) => `trial-balance-explanation-${line.role}`;

const columns = ['opening', 'debit', 'credit', 'closing', 'product', 'difference'] as const;

function AccountsTable({ balance, headingId }: { balance: Balance; headingId: string }) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const accountName = useAccountName();
  // Amounts stay on one line; on a phone the table scrolls sideways inside its own box instead.
  const amount = { whiteSpace: 'nowrap' } as const;
  const total = { ...amount, fontWeight: 700, color: 'text.primary', fontSize: '0.875rem' } as const;
  // The account's number stays in view while the amounts scroll past it.
  const pinned = { position: 'sticky', left: 0, zIndex: 1, backgroundColor: 'background.paper' } as const;
  const cell = (line: TrialBalanceLine, column: (typeof columns)[number]) => {
    const value = line[column];
    const differs = column === 'difference' && value !== null && value !== 0;
    return (
      <TableCell
        key={column}
        align="right"
        data-column={column}
        aria-describedby={differs ? explanationId(line) : undefined}
        sx={differs ? { ...amount, color: 'error.main', fontWeight: 700 } : amount}
      >
        {value === null ? '–' : formatMoney(value)}
      </TableCell>
    );
  };
  return (
    // A region of its own, reachable with the keyboard, since it may scroll sideways. Width 0 and at
    // least the card's: the table's own width then does not widen the page on a phone.
    <Box role="region" aria-labelledby={headingId} tabIndex={0} sx={{ overflowX: 'auto', width: 0, minWidth: '100%' }}>
      <Table size="small" id="trial-balance-table">
        <TableHead>
          <TableRow>
            <TableCell sx={pinned}>{translate('app.trial_balance.account')}</TableCell>
            <TableCell>{translate('app.trial_balance.name')}</TableCell>
            {columns.map((column) => (
              <TableCell key={column} align="right">
                {translate(`app.trial_balance.${column}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {balance.lines.map((line) => (
            <TableRow key={line.role} id={`trial-balance-${line.role}`} className="trial-balance-line">
              <TableCell data-column="account" sx={{ ...amount, ...pinned }}>
                {line.account}
              </TableCell>
              <TableCell component="th" scope="row" data-column="name" sx={{ minWidth: 160 }}>
                {accountName(line)}
              </TableCell>
              {columns.map((column) => cell(line, column))}
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow id="trial-balance-total">
            <TableCell component="th" scope="row" colSpan={3} sx={{ ...total, ...pinned }}>
              {translate('app.trial_balance.total')}
            </TableCell>
            <TableCell align="right" data-column="debit" sx={total}>
              {formatMoney(balance.debit)}
            </TableCell>
            <TableCell align="right" data-column="credit" sx={total}>
              {formatMoney(balance.credit)}
            </TableCell>
            <TableCell colSpan={3} />
          </TableRow>
        </TableFooter>
      </Table>
    </Box>
  );
}

/**
 * Where each difference comes from: what the product's own book says the account moved, and what
 * DATEV books on it. Without differences, that the three accounts agree; debits and credits that
 * do not agree (a booking with one side only) are named too.
 */
function Differences({ lines, balance }: { lines: TrialBalanceLine[]; balance: Balance }) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const accountName = useAccountName();
  const unbalanced = balance.debit !== balance.credit && (
    <Alert severity="error" id="trial-balance-unbalanced">
      {translate('app.trial_balance.unbalanced', { amount: formatMoney(balance.debit - balance.credit) })}
    </Alert>
  );
  if (lines.length === 0)
    return (
      <>
        {unbalanced}
        <Alert severity="success" id="trial-balance-no-differences">
          <strong>{translate('app.trial_balance.none')}</strong> – {translate('app.trial_balance.none_detail')}
        </Alert>
      </>
    );
  return (
    <Box>
      {unbalanced}
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
        {translate('app.trial_balance.differences')}
      </Typography>
      <List disablePadding id="trial-balance-differences">
        {lines.map((line) => {
          const datev = line.debit - line.credit;
          const product = line.product ?? 0;
          const values = {
            datev: formatMoney(datev),
            product: formatMoney(product),
            change: formatMoney(-product),
            difference: formatMoney(line.difference ?? 0),
          };
          return (
            <ListItem
              key={line.role}
              id={explanationId(line)}
              className="trial-balance-difference"
              disableGutters
              divider
              sx={{ display: 'block' }}
            >
              <Typography component="p" sx={{ fontWeight: 700, color: 'error.main' }}>
                {line.account} {accountName(line)}: {translate('app.trial_balance.difference')} {values.difference}
              </Typography>
              <Typography component="p" variant="body2">
                {translate(`app.trial_balance.explain_${line.role}`, values)}{' '}
                {line.role === 'customers' && (
                  <MuiLink component={Link} to={reconciliationPath}>
                    {translate('app.menu.reconciliation')}
                  </MuiLink>
                )}
              </Typography>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}
