import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import { formatDate } from '../../shared/dates.ts';
import type { Locale } from '../../shared/locale.ts';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { Columns, HorizontalBars } from './charts.tsx';
import { presetDays } from './period.ts';
import { PeriodPicker, type PeriodChoice } from './PeriodPicker.tsx';
import type { ShopDataProvider } from '../dataProvider.ts';

interface Statistics {
  granularity: 'day' | 'week' | 'month';
  items: { itemId: number | null; itemName: string | null; quantity: number; amount: number }[];
  /** Copies sold to vendors at the counter. */
  counterItems: { itemId: number; itemName: string; quantity: number; amount: number }[];
  series: { period: string; amount: number; quantity: number; orders: number }[];
  vendors: { active: number; total: number; percent: number };
}

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; statistics: Statistics };

const query = (period: PeriodChoice) => `from=${period.from}&to=${period.to}`;

/**
 * Sales of a period: per item (table and bars), over time, and how many vendors sold. Loaded only
 * when opened (see LazyStatistics.tsx); the period starts as the last 30 days, so it is never empty
 * on a newspaper that sells at all.
 */
export default function StatisticsPage() {
  const translate = useTranslate();
  const locale = useLocale() as Locale;
  const formatMoney = useFormatMoney();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const notify = useNotify();
  const [period, setPeriod] = useState<PeriodChoice>(() => ({ preset: 'last30', ...presetDays('last30') }));
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    void (dataProvider.call(`/api/payments/statistics?${query(period)}`) as Promise<Statistics>).then(
      (statistics) => current && setLoaded({ state: 'done', statistics }),
      (error: Error) => current && setLoaded({ state: 'error', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, period]);
  // A new period shows "loading" at once, in the same render as the new period (not from the effect).
  const choosePeriod = (next: PeriodChoice) => {
    setPeriod(next);
    setLoaded({ state: 'loading' });
  };

  const download = async (table: 'items' | 'series') => {
    try {
      const url = await dataProvider.fileUrl(`/api/payments/statistics?${query(period)}&format=csv&table=${table}`);
      const link = Object.assign(document.createElement('a'), {
        href: url,
        download: `statistik_${table}_${period.from}_${period.to}.csv`,
      });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };

  const itemName = (item: Statistics['items'][number]) =>
    item.itemName ?? (item.itemId === null ? translate('app.statistics.tips') : `#${item.itemId}`);

  return (
    <Box sx={{ mt: 1, mb: 4 }}>
      <Title title={<PageTitle page="app.page.statistics" />} />
      <PeriodPicker value={period} onChange={choosePeriod} />
      {loaded.state === 'loading' && <LinearProgress id="statistics-loading" sx={{ my: 2 }} />}
      {loaded.state === 'error' && (
        <Alert severity="error" id="statistics-error">
          {translate('app.statistics.failed', { message: loaded.message })}
        </Alert>
      )}
      {loaded.state === 'done' && (
        <Stack spacing={2}>
          <Card>
            <CardContent>
              <Typography variant="h6" component="h2" id="statistics-vendors">
                {translate('app.statistics.vendor_activity', {
                  active: loaded.statistics.vendors.active,
                  total: loaded.statistics.vendors.total,
                  percent: loaded.statistics.vendors.percent.toLocaleString(locale),
                })}
              </Typography>
            </CardContent>
          </Card>
          <Card>
            <CardContent>
              <Stack
                direction="row"
                sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}
              >
                <Typography variant="h6" component="h2">
                  {translate('app.statistics.per_item')}
                </Typography>
                <Button startIcon={<DownloadIcon />} onClick={() => void download('items')} id="statistics-csv">
                  {translate('app.statistics.csv')}
                </Button>
              </Stack>
              {loaded.statistics.items.length === 0 ? (
                <Typography id="statistics-empty" sx={{ my: 2 }}>
                  {translate('app.statistics.empty')}
                </Typography>
              ) : (
                <>
                  <Box sx={{ overflowX: 'auto' }}>
                    <Table size="small" id="statistics-items">
                      <TableHead>
                        <TableRow>
                          <TableCell>{translate('app.statistics.item')}</TableCell>
                          <TableCell align="right">{translate('app.statistics.quantity')}</TableCell>
                          <TableCell align="right">{translate('app.statistics.amount')}</TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {loaded.statistics.items.map((item) => (
                          <TableRow key={item.itemId ?? 'tips'}>
                            <TableCell>{itemName(item)}</TableCell>
                            {/* Tips have no quantity. */}
                            <TableCell align="right">{item.itemId === null ? '' : item.quantity}</TableCell>
                            <TableCell align="right">{formatMoney(item.amount)}</TableCell>
                          </TableRow>
                        ))}
                        <TableRow>
                          <TableCell sx={{ fontWeight: 700 }}>{translate('app.statistics.total')}</TableCell>
                          <TableCell />
                          <TableCell align="right" sx={{ fontWeight: 700 }} id="statistics-total">
                            {formatMoney(loaded.statistics.items.reduce((sum, item) => sum + item.amount, 0))}
                          </TableCell>
                        </TableRow>
                      </TableBody>
                    </Table>
                  </Box>
                  <Box sx={{ mt: 2 }}>
                    <HorizontalBars
                      title={translate('app.statistics.per_item')}
                      bars={loaded.statistics.items.map((item) => ({
                        label: itemName(item),
                        value: item.amount,
                        text: formatMoney(item.amount),
                      }))}
                    />
                  </Box>
                </>
              )}
              {loaded.statistics.counterItems.length > 0 && (
                <Box sx={{ mt: 3 }}>
                  <Typography variant="h6" component="h2">
                    {translate('app.counter.sold_to_vendors')}
                  </Typography>
                  <Table size="small" id="statistics-counter-items">
                    <TableBody>
                      {loaded.statistics.counterItems.map((item) => (
                        <TableRow key={item.itemId}>
                          <TableCell>{item.itemName}</TableCell>
                          <TableCell align="right">{item.quantity}</TableCell>
                          <TableCell align="right">{formatMoney(item.amount)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardContent>
              <Stack
                direction="row"
                sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}
              >
                <Typography variant="h6" component="h2">
                  {translate(`app.statistics.over_time_${loaded.statistics.granularity}`)}
                </Typography>
                <Button startIcon={<DownloadIcon />} onClick={() => void download('series')}>
                  {translate('app.statistics.csv')}
                </Button>
              </Stack>
              <Columns
                title={translate(`app.statistics.over_time_${loaded.statistics.granularity}`)}
                bars={loaded.statistics.series.map((point) => ({
                  label: formatDate(point.period, locale),
                  value: point.amount,
                  text: formatMoney(point.amount),
                  detail: `${formatMoney(point.amount)} · ${translate('app.statistics.orders', { smart_count: point.orders })}`,
                }))}
              />
            </CardContent>
          </Card>
        </Stack>
      )}
    </Box>
  );
}
