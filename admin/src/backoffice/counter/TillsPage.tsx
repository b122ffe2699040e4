import { Alert, Box, Card, CardContent, Tab, Tabs, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { formatDate } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import type { ShopDataProvider } from '../dataProvider.ts';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { Dep7Export } from './Dep7Export.tsx';
import { FiscalExport, onFirstTry, TillFiscal, useFiscalOverview } from './TillFiscal.tsx';
import { TillBook } from './TillBook.tsx';
import { TillMovementForm } from './TillMovementForm.tsx';
import { TillCloseForm } from './TillCloseForm.tsx';
import { TillCloses } from './TillCloses.tsx';
import { NewTill } from './NewTill.tsx';
import { TillLocation } from './TillLocation.tsx';
import type { Till } from './CashDay.tsx';

/** /tills: each till's balance, signing, cash book, movements by hand, the daily close and the closes with their reports. */
export function TillsPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatMoney = useFormatMoney();
  const [locale] = useLocaleState();
  const [selected, setSelected] = useState(0);
  const tills = useQuery({
    queryKey: ['tills'],
    queryFn: () => dataProvider.call('/api/tills') as Promise<{ tills: Till[]; today: string }>,
  });
  // A till's signing and its DEP7 export stand above its other forms: drawn with them (onFirstTry).
  const fiscal = useFiscalOverview();
  const data = onFirstTry(fiscal) ? undefined : tills.data;
  const till = data?.tills[selected] ?? data?.tills[0];
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Title title={<PageTitle page="app.page.tills" />} />
      <Card sx={{ mt: 2 }}>
        <CardContent>
          {tills.error ? (
            <Alert severity="error">{tills.error.message}</Alert>
          ) : (
            !data && (
              <Typography id="tills-loading" color="text.secondary">
                {translate('ra.page.loading')}
              </Typography>
            )
          )}
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
                {till.name}: <span id="till-balance">{formatMoney(till.balance)}</span>
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {translate('app.tills.closed_until')}:{' '}
                {till.closedUntil
                  ? formatDate(till.closedUntil, locale as Locale)
                  : translate('app.tills.never_closed')}
              </Typography>
              <TillFiscal tillId={till.id} tillName={till.name} />
              <Dep7Export tillId={till.id} today={data.today} />
              <TillLocation till={till} />
              <TillBook till={till} today={data.today} />
              <TillMovementForm till={till} />
              <TillCloseForm till={till} today={data.today} />
              <TillCloses till={till} />
            </Box>
          )}
          {data && data.tills.length > 0 && <FiscalExport today={data.today} />}
          <NewTill />
        </CardContent>
      </Card>
    </Box>
  );
}
