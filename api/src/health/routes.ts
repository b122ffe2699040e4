import { diskIsFull } from '../db/space.ts';
import type { RouteDef } from '../http/routes.ts';

export const healthRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/healthz',
    access: 'public',
    handler: (ctx) => {
      ctx.body = { status: 'ok' };
    },
  },
  {
    method: 'GET',
    path: '/readyz',
    access: 'public',
    handler: async (ctx) => {
      if (diskIsFull()) {
        // Reads would still work, but no order or payout can be saved: the balancer should know.
        ctx.status = 503;
        ctx.body = { status: 'unavailable', message: "The database's disk is full." };
        return;
      }
      try {
        await ctx.db.raw('select 1');
        ctx.body = { status: 'ready' };
      } catch {
        ctx.status = 503;
        ctx.body = { status: 'unavailable', message: 'The database cannot be reached.' };
      }
    },
  },
];
