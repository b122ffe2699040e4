import { readPeriod, type Period } from '../foundations/period.ts';
import { badRequest } from './errors.ts';
import { readListFilter } from './list-query.ts';
import type { AppContext } from './routes.ts';
import { tr } from '../language/messages.ts';

// The periods of requests, by the rule of api/src/foundations/period.ts.

/** The period of a request that takes nothing else: `?from=&to=` or `filter={"from":…,"to":…}`. */
export function requestPeriod(ctx: AppContext): Period {
  const filter = readListFilter(ctx, { queryFilters: ['from', 'to'] });
  const other = Object.keys(filter).find((name) => name !== 'from' && name !== 'to');
  if (other) throw badRequest(tr('Only "from" and "to" can be given here, not "{name}".', { name: other }));
  return readPeriod(filter, ctx.config.timeZone);
}
