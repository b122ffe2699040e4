import { respondCsv } from '../http/csv-response.ts';
import { badRequest } from '../http/errors.ts';
import { requestPeriod } from '../http/period-query.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { periodFilename } from '../foundations/csv.ts';
import { reconciliationCsvColumns, reconciliationLines } from './csv.ts';
import { reconcileStripe } from './reconciliation.ts';

// Stripe's balance beside the books, for staff: the figures of a period and every Stripe object that
// differs, as JSON and as CSV. `from` and `to` are local days (a bare `to` includes its day).

/** The CSV's language: `?lang=de|en` (a download link cannot set headers), else Accept-Language. */
function csvLanguage(ctx: AppContext): void {
  const lang = ctx.query.lang;
  if (lang === undefined || lang === '') return;
  if (lang !== 'de' && lang !== 'en') throw badRequest('The language must be de or en.');
  ctx.request.headers['accept-language'] = lang;
}

const reconciliation = (ctx: AppContext) => reconcileStripe(ctx.db, ctx.config, requestPeriod(ctx));

export const stripeBalanceRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/stripe-reconciliation',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await reconciliation(ctx);
    },
  },
  {
    method: 'GET',
    path: '/api/stripe-reconciliation.csv',
    access: 'backoffice',
    handler: async (ctx) => {
      csvLanguage(ctx);
      const result = await reconciliation(ctx);
      const period = { from: new Date(result.from), to: new Date(result.to) };
      respondCsv(ctx, periodFilename('stripe-abgleich', period, ctx.config.timeZone), reconciliationCsvColumns, [
        reconciliationLines(result),
      ]);
    },
  },
];
