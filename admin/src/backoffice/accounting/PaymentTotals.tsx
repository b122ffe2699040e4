import { Alert, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { ledgerKinds } from '../../../../api/src/ledger/kinds.ts';
import { useFormatMoney } from '../common/money.tsx';
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

type TotalsLine = PaymentTotals['byItem'][number];

/**
 * The lines grouped by kind of booking, in the ledger's order of kinds: sales, tips, fees and
 * payouts are different money, so each kind has its own sum and nothing adds them into one.
 */
function byKind(lines: TotalsLine[]): { kind: string; lines: TotalsLine[]; quantity: number; amount: number }[] {
  const order = (kind: string) => {
    const index = (ledgerKinds as readonly string[]).indexOf(kind);
    return index < 0 ? ledgerKinds.length : index;
  };
  const groups = new Map<string, TotalsLine[]>();
  for (const line of lines) groups.set(line.kind, [...(groups.get(line.kind) ?? []), line]);
  return [...groups]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([kind, group]) => ({
      kind,
      lines: group,
      quantity: group.reduce((sum, line) => sum + line.quantity, 0),
      amount: group.reduce((sum, line) => sum + line.amount, 0),
    }));
}

/** Per item, with a sum per kind of booking, for the list's whole filtered period. */
export function TotalsTable({ totals, id }: { totals: PaymentTotals; id?: string }) {
  const translate = useTranslate();
  const formatMoney = useFormatMoney();
  const lineName = useLineName();
  const kindName = (kind: string) => translate(`app.vendor.kind_${kind}`, { _: kind });
  return (
    <>
      <Table size="small" id={id}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.payments.fields.itemName')}</TableCell>
            <TableCell align="right">{translate('resources.payments.fields.quantity')}</TableCell>
            <TableCell align="right">{translate('resources.payments.fields.amount')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {byKind(totals.byItem).map((group) => (
            <Fragment key={group.kind}>
              {/* A kind without items (a tip, a fee) is its own sum: one line says it. */}
              {group.lines.some((line) => line.itemName !== null) &&
                group.lines.map((line) => (
                  <TableRow key={`${line.kind}-${line.itemId}`}>
                    <TableCell sx={{ pl: 4 }}>{lineName(line)}</TableCell>
                    <TableCell align="right">{line.quantity || ''}</TableCell>
                    <TableCell align="right">{formatMoney(line.amount)}</TableCell>
                  </TableRow>
                ))}
              <TableRow className="books-total" data-kind={group.kind} sx={{ '& td': { fontWeight: 700 } }}>
                <TableCell>{translate('app.books.kind_total', { kind: kindName(group.kind) })}</TableCell>
                <TableCell align="right">{group.quantity || ''}</TableCell>
                <TableCell align="right">{formatMoney(group.amount)}</TableCell>
              </TableRow>
            </Fragment>
          ))}
        </TableBody>
      </Table>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} className="books-count">
        {translate('app.books.count', { smart_count: totals.count })}
      </Typography>
    </>
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
