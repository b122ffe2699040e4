import type { RouteDef } from '../http/routes.ts';
import { getSettingsRow } from '../settings/queries.ts';
import { mapVendors } from './queries.ts';

export const mapRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/map',
    access: 'backoffice',
    handler: async (ctx) => {
      const settings = await getSettingsRow(ctx.db);
      ctx.body = {
        center: { lat: settings.map_center_lat, long: settings.map_center_long },
        vendors: await mapVendors(ctx.db),
      };
    },
  },
];
