import { respondList } from '../http/list-query.ts';
import type { RouteDef } from '../http/routes.ts';
import { protocolEntries, protocolList } from './queries.ts';

export const protocolRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/protocol',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, protocolEntries(ctx.db), protocolList),
  },
];
