import { accountingRoutes } from './accounting/routes.ts';
import { counterRoutes } from './counter/routes.ts';
import { eventRoutes } from './webhooks-out/routes.ts';
import { protocolRoutes } from './protocol/routes.ts';
import { fileRoutes } from './files/routes.ts';
import { fiscalRoutes } from './fiscal/routes.ts';
import { healthRoutes } from './health/routes.ts';
import type { RouteDef } from './http/routes.ts';
import { identityRoutes } from './identity/routes.ts';
import { itemRoutes } from './items/routes.ts';
import { mailRoutes } from './mail/routes.ts';
import { mapRoutes } from './map/routes.ts';
import { orderRoutes } from './orders/routes.ts';
import { payoutRoutes } from './payouts/routes.ts';
import { pdfRoutes } from './pdf/routes.ts';
import { privacyRoutes } from './privacy/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { shopRoutes } from './shop/routes.ts';
import { statementRoutes } from './statements/routes.ts';
import { benefitRoutes } from './statements/benefit-routes.ts';
import { statisticsRoutes } from './statistics/routes.ts';
import { stripeBalanceRoutes } from './stripe-balance/routes.ts';
import { vendorRoutes } from './vendors/routes.ts';
import { webhookRoutes } from './orders/stripe-webhook-routes.ts';

/** Every HTTP route of the API, each with its declared access level. */
export const routes: RouteDef[] = [
  ...healthRoutes,
  // The shop's public reads (GET /api/settings, /api/items, /api/vendors/check/…) before the office's
  // routes of the same paths.
  ...shopRoutes,
  ...settingsRoutes,
  ...fileRoutes,
  ...itemRoutes,
  ...vendorRoutes,
  ...statementRoutes,
  ...benefitRoutes,
  ...privacyRoutes,
  ...mapRoutes,
  ...orderRoutes,
  ...payoutRoutes,
  ...counterRoutes,
  ...fiscalRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...protocolRoutes,
  ...identityRoutes,
  ...pdfRoutes,
  ...mailRoutes,
  ...accountingRoutes,
  ...statisticsRoutes,
  ...stripeBalanceRoutes,
];
