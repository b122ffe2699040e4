import { fileRoutes } from './files/routes.ts';
import { healthRoutes } from './health/routes.ts';
import type { RouteDef } from './http/routes.ts';
import { itemRoutes } from './items/routes.ts';
import { mapRoutes } from './map/routes.ts';
import { settingsRoutes } from './settings/routes.ts';
import { vendorRoutes } from './vendors/routes.ts';

/** Every HTTP route of the API, each with its declared access level. */
export const routes: RouteDef[] = [
  ...healthRoutes,
  ...settingsRoutes,
  ...fileRoutes,
  ...itemRoutes,
  ...vendorRoutes,
  ...mapRoutes,
];
