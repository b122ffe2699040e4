import { Alert, Box, Card, CardContent, Link as MuiLink, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Title, useTranslate, useDataProvider } from 'react-admin';
import type { ShopDataProvider } from '../dataProvider.ts';
import { Link } from 'react-router-dom';
import { useFormatMoney } from '../common/money.tsx';
import { PageTitle } from '../layout/PageTitle.tsx';
import { counterPaths } from './paths.ts';
import { OpenDays, type OpenDay, type TillDay } from './CashDay.tsx';

interface OfficeToday {
  day: string;
  cardSales: { orders: number; amount: number };
  payouts: { count: number; amount: number };
  counterCopies: { itemId: number; itemName: string; quantity: number; amount: number }[];
  /** `unclosedDays`: days before today with cash no close has counted yet. */
  tills: (TillDay & { unclosedDays: OpenDay[] })[];
  openCredit: { vendors: number; amount: number };
  warnings: { id: number; vendorId: number; licenseId: string; comment: string }[];
  ordersToCheck: { flagged: number; pending: number };
}

function Tile({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card id={id} variant="outlined">
      <CardContent>
        <Typography variant="overline" component="h2">
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** /today: the office's start screen. */
export function TodayPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ShopDataProvider>();
  const formatMoney = useFormatMoney();
  const { data, error } = useQuery({
    queryKey: ['office', 'today'],
    queryFn: () => dataProvider.call('/api/office/today') as Promise<OfficeToday>,
  });
  // Cash movements the TSE has not signed (it could not be reached): staff must know, and document the outage.
  const { data: unsigned } = useQuery({
    queryKey: ['fiscal', 'failures'],
    queryFn: () => dataProvider.call('/api/fiscal/failures') as Promise<{ transactions: unknown[] }>,
  });
  return (
    <Box sx={{ maxWidth: 1100, mt: 2 }}>
      <Title title={<PageTitle page="app.page.today" />} />
      {error && <Alert severity="error">{error.message}</Alert>}
      {unsigned && unsigned.transactions.length > 0 && (
        <Alert id="today-tse-failed" severity="warning" sx={{ mb: 2 }}>
          {translate('app.today.tse_failed', { smart_count: unsigned.transactions.length })}
        </Alert>
      )}
      {data && (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(250px, 1fr))', gap: 2 }}>
          <Tile id="today-card-sales" title={translate('app.today.card_sales')}>
            <Typography variant="h5" component="p">
              {formatMoney(data.cardSales.amount)}
            </Typography>
            <Typography color="text.secondary">
              {translate('app.today.orders', { smart_count: data.cardSales.orders })}
            </Typography>
          </Tile>
          <Tile id="today-payouts" title={translate('app.today.payouts')}>
            <Typography variant="h5" component="p">
              {formatMoney(data.payouts.amount)}
            </Typography>
            <Typography color="text.secondary">
              {translate('app.today.payout_count', { smart_count: data.payouts.count })}
            </Typography>
          </Tile>
          <Tile id="today-copies" title={translate('app.today.counter_copies')}>
            {data.counterCopies.length === 0 && <Typography color="text.secondary">–</Typography>}
            {data.counterCopies.map((c) => (
              <Typography key={c.itemId}>
                {c.quantity} × {c.itemName}: {formatMoney(c.amount)}
              </Typography>
            ))}
          </Tile>
          <Tile id="today-tills" title={translate('app.today.tills')}>
            {data.tills.map((till) => (
              <Box key={till.id} sx={{ mb: 1 }}>
                <Typography>
                  {till.name}: <strong>{formatMoney(till.balance)}</strong>
                </Typography>
                {till.closedToday && (
                  <Typography color="text.secondary" variant="body2">
                    {translate('app.today.today_closed')}
                  </Typography>
                )}
                {till.unclosedDays.length === 0 ? (
                  <Typography color="text.secondary" variant="body2">
                    {translate('app.today.earlier_closed')}
                  </Typography>
                ) : (
                  <Box id={`today-unclosed-${till.id}`}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {translate('app.today.earlier_open')}
                    </Typography>
                    <OpenDays days={till.unclosedDays} today={data.day} id={`today-unclosed-days-${till.id}`} plain />
                  </Box>
                )}
              </Box>
            ))}
            <MuiLink component={Link} to={counterPaths.tills}>
              {translate('app.menu.tills')}
            </MuiLink>
          </Tile>
          <Tile id="today-open-credit" title={translate('app.today.open_credit')}>
            <Typography variant="h5" component="p">
              {formatMoney(data.openCredit.amount)}
            </Typography>
            <Typography color="text.secondary">
              {translate('app.today.vendors', { smart_count: data.openCredit.vendors })}
            </Typography>
            <MuiLink component={Link} to={counterPaths.search}>
              {translate('app.menu.counter')}
            </MuiLink>
          </Tile>
          <Tile id="today-orders" title={translate('app.today.orders_to_check')}>
            <Typography>{translate('app.today.flagged', { smart_count: data.ordersToCheck.flagged })}</Typography>
            <Typography>{translate('app.today.pending', { smart_count: data.ordersToCheck.pending })}</Typography>
            <MuiLink component={Link} to="/orders">
              {translate('app.menu.orders')}
            </MuiLink>
          </Tile>
          <Box sx={{ gridColumn: '1 / -1' }}>
            <Tile id="today-warnings" title={translate('app.today.warnings')}>
              {data.warnings.length === 0 && <Typography color="text.secondary">–</Typography>}
              {data.warnings.map((w) => (
                <Typography key={w.id} sx={{ mb: 0.5 }}>
                  <MuiLink component={Link} to={`/userprofile/${w.vendorId}`}>
                    {w.licenseId}
                  </MuiLink>
                  : {w.comment}
                </Typography>
              ))}
            </Tile>
          </Box>
        </Box>
      )}
    </Box>
  );
}
