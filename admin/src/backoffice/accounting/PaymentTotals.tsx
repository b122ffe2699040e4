import { Alert, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { useFormatCents } from '../common/money.tsx';
import { filterParam } from '../common/download.ts';
import type { ShopDataProvider } from '../dataProvider.ts';
import { usePeriodFilter } from './PeriodFilter.tsx';

export interface PaymentTotals {
  count: number;
  amount: number;
  quantity: number;
  byItem: { kind: string; itemId: number | null; itemName: string | null; quantity: number; amount: number }[];
}

/** GET /api/payments/totals for a filter: the sums of every row of the period, not only of one page. */
export function usePaymentTotals(filter: Record<string, unknown>) {
  const dataProvider = useDataProvider<ShopDataProvider>();
  return useQuery({
    queryKey: ['payments', 'totals', filter],
    queryFn: () => dataProvider.call(`/api/payments/totals?${filterParam(filter)}`) as Promise<PaymentTotals>,
  });
}

/** A line of the totals: the item, or for rows without one (tips, fees) their kind. */
export function useLineName(): (line: PaymentTotals['byItem'][number]) => string {
  const translate = useTranslate();
  return (line) => line.itemName ?? translate(`app.vendor.kind_${line.kind}`, { _: line.kind });
}

/** Per item and in all, for the list's whole filtered period. */
export function TotalsTable({ totals, id }: { totals: PaymentTotals; id?: string }) {
  const translate = useTranslate();
  const formatCents = useFormatCents();
  const lineName = useLineName();
  return (
    <Table size="small" id={id}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.payments.fields.itemName')}</TableCell>
          <TableCell align="right">{translate('resources.payments.fields.quantity')}</TableCell>
          <TableCell align="right">{translate('resources.payments.fields.amount')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {totals.byItem.map((line) => (
          <TableRow key={`${line.kind}-${line.itemId}`}>
            <TableCell>{lineName(line)}</TableCell>
            <TableCell align="right">{line.quantity || ''}</TableCell>
            <TableCell align="right">{formatCents(line.amount)}</TableCell>
          </TableRow>
        ))}
        <TableRow className="books-total" sx={{ '& td': { fontWeight: 700 } }}>
          <TableCell>
            {translate('app.books.total')} ({translate('app.books.count', { smart_count: totals.count })})
          </TableCell>
          <TableCell align="right">{totals.quantity || ''}</TableCell>
          <TableCell align="right">{formatCents(totals.amount)}</TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

/** Below a list of bookings: the totals of its filter and of the list's fixed filter (`permanent`). */
export function ListTotals({ permanent }: { permanent?: Record<string, unknown> }) {
  const translate = useTranslate();
  const filterValues = usePeriodFilter();
  const { data, error, isPending } = usePaymentTotals({ ...filterValues, ...permanent });
  return (
    <Card sx={{ mt: 2 }} id="books-totals">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('app.books.totals')}
        </Typography>
        {error ? (
          <Alert severity="error">{translate('app.books.totals_failed', { message: error.message })}</Alert>
        ) : isPending ? (
          <Typography color="text.secondary">{translate('ra.page.loading')}</Typography>
        ) : (
          <TotalsTable totals={data} />
        )}
      </CardContent>
    </Card>
  );
}
