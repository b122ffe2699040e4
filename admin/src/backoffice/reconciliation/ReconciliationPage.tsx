import { Alert, Box, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import { presetPeriod } from '../accounting/period.ts';
import type { ShopDataProvider } from '../dataProvider.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { CsvDownload } from './CsvDownload.tsx';
import { DifferenceList } from './DifferenceList.tsx';
import { FiguresTable } from './FiguresTable.tsx';
import { PeriodPicker, type PeriodChoice } from '../statistics/PeriodPicker.tsx';
import { query, type Reconciliation } from './types.ts';

type Loaded =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; reconciliation: Reconciliation };

/** The money screens' presets up to a month: the API compares a quarter at most. */
const choices = ['today', 'this_week', 'this_month', 'last_month'] as const;
const ids = {
  period: 'reconciliation-period',
  preset: 'reconciliation-preset',
  from: 'reconciliation-from',
  to: 'reconciliation-to',
};

/**
 * "Abgleich mit Stripe": Stripe's balance transactions of a period beside the books, and every
 * Stripe object that differs. Starts with last month, the period a bookkeeper closes.
 */
export default function ReconciliationPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const [period, setPeriod] = useState<PeriodChoice>(() => ({ preset: 'last_month', ...presetPeriod('last_month') }));
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    void (dataProvider.call(`/api/stripe-reconciliation?${query(period)}`) as Promise<Reconciliation>).then(
      (reconciliation) => current && setLoaded({ state: 'done', reconciliation }),
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
    <Box sx={{ mt: 1, mb: 4 }} id="reconciliation">
      <Title title={<PageTitle page="app.page.reconciliation" />} />
      <Typography sx={{ mt: 2 }}>{translate('app.reconciliation.intro')}</Typography>
      <PeriodPicker value={period} onChange={choosePeriod} choices={choices} ids={ids} />
      {loaded.state === 'loading' && (
        <LinearProgress
          id="reconciliation-loading"
          aria-label={translate('app.reconciliation.loading')}
          sx={{ my: 2 }}
        />
      )}
      {loaded.state === 'error' && (
        <Alert severity="error" id="reconciliation-error">
          {translate('app.reconciliation.failed', { message: loaded.message })}
        </Alert>
      )}
      {loaded.state === 'done' && (
        <Stack spacing={2}>
          <Card>
            <CardContent>
              <Stack
                direction="row"
                sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}
              >
                <Typography variant="h6" component="h2">
                  {translate('app.reconciliation.figures')}
                </Typography>
                <CsvDownload days={period} />
              </Stack>
              <FiguresTable reconciliation={loaded.reconciliation} />
            </CardContent>
          </Card>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                {translate('app.reconciliation.differences')}
                {loaded.reconciliation.differences.length > 0 &&
                  ` (${translate('app.reconciliation.count', { smart_count: loaded.reconciliation.differences.length })})`}
              </Typography>
              <DifferenceList differences={loaded.reconciliation.differences} />
            </CardContent>
          </Card>
        </Stack>
      )}
    </Box>
  );
}
