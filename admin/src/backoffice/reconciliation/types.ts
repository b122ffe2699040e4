// The answer of GET /api/stripe-reconciliation, as the API declares it (api/src/stripe-balance/answer.ts,
// free of Node imports); and a period's days as the screen asks for them.
export {
  figures,
  type Difference,
  type Figure,
  type Reconciliation,
  type Totals,
} from '../../../../api/src/stripe-balance/answer.ts';

import type { Days } from '../statistics/period.ts';

export type { Days };

export const query = (days: Days) => `from=${days.from}&to=${days.to}`;
