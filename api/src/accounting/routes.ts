import { periodFilename, respondCsv, wantsCsv } from '../http/csv.ts';
import { applyFilters, readListFilter, respondList, type ListSpec } from '../http/list.ts';
import { readPeriod, requestPeriod } from '../http/period.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { accountStatements, statementCsvColumns } from './accounts.ts';
import { paymentBatches, paymentCsvColumns, paymentList, payments, paymentTotals } from './queries.ts';

const spec = paymentList as ListSpec<never, unknown>;

/**
 * The ledger rows (`ledger_rows as r`) the request's filters select, as a fresh query per call,
 * and the period they name. A filter that cannot be read is a 400 here, before any answer starts.
 */
function filtered(ctx: AppContext) {
  const filter = readListFilter(ctx, paymentList);
  const query = () => {
    const rows = ctx.db('ledger_rows as r');
    applyFilters(ctx, rows, filter, spec);
    return rows;
  };
  query();
  return { query, period: readPeriod(filter, ctx.config.timeZone) };
}

export const accountingRoutes: RouteDef[] = [
  {
    // Every ledger row; `?format=csv` streams all rows of the filtered period, oldest first.
    method: 'GET',
    path: '/api/payments',
    access: 'backoffice',
    handler: async (ctx) => {
      if (!wantsCsv(ctx)) return respondList(ctx, payments(ctx.db), paymentList);
      const { query, period } = filtered(ctx);
      respondCsv(
        ctx,
        periodFilename('buchungen', period, ctx.config.timeZone),
        paymentCsvColumns,
        paymentBatches(ctx.db, query),
      );
    },
  },
  {
    method: 'GET',
    path: '/api/payments/totals',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await paymentTotals(ctx.db, filtered(ctx).query());
    },
  },
  {
    // The bookkeeper's view: each account's opening balance, movements and closing balance.
    method: 'GET',
    path: '/api/payments/accounts',
    access: 'backoffice',
    handler: async (ctx) => {
      const period = requestPeriod(ctx);
      const accounts = await accountStatements(ctx.db, period);
      if (wantsCsv(ctx))
        return respondCsv(ctx, periodFilename('konten', period, ctx.config.timeZone), statementCsvColumns, [accounts]);
      const sum = (field: 'opening' | 'received' | 'sent' | 'closing') =>
        accounts.reduce((total, a) => total + a[field], 0);
      ctx.body = {
        from: period.from?.toISOString() ?? null,
        to: period.to?.toISOString() ?? null,
        accounts,
        totals: { opening: sum('opening'), received: sum('received'), sent: sum('sent'), closing: sum('closing') },
      };
    },
  },
];
