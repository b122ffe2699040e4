import { respondCsv, wantsCsv } from '../http/csv-response.ts';
import { badRequest } from '../http/errors.ts';
import { requestPeriod } from '../http/period-query.ts';
import type { RouteDef } from '../http/routes.ts';
import { defaultPeriod, itemCsvColumns, salesStatistics, seriesCsvColumns } from './queries.ts';
import { periodFilename } from '../foundations/csv.ts';

export const statisticsRoutes: RouteDef[] = [
  {
    // Without `to` the period ends with today, without `from` it spans the 30 days before its end.
    // `?format=csv` answers the item table, `&table=series` the series.
    method: 'GET',
    path: '/api/payments/statistics',
    access: 'backoffice',
    handler: async (ctx) => {
      const { timeZone } = ctx.config;
      const table = ctx.query.table ?? 'items';
      if (table !== 'items' && table !== 'series')
        throw badRequest('"table" must be items or series.', { table: 'Please choose items or series.' });
      const asked = requestPeriod(ctx);
      const to = asked.to ?? defaultPeriod(new Date(), timeZone).to;
      const period = { from: asked.from ?? defaultPeriod(new Date(to.getTime() - 1), timeZone).from, to };
      if (period.to <= period.from)
        throw badRequest('The period ends before it starts.', { to: 'Please choose an end after the start.' });
      const statistics = await salesStatistics(ctx.db, period, timeZone);
      if (!wantsCsv(ctx)) {
        ctx.body = statistics;
      } else if (table === 'series') {
        respondCsv(ctx, periodFilename(`statistik_${statistics.granularity}`, period, timeZone), seriesCsvColumns, [
          statistics.series,
        ]);
      } else {
        respondCsv(ctx, periodFilename('statistik_artikel', period, timeZone), itemCsvColumns, [statistics.items]);
      }
    },
  },
];
