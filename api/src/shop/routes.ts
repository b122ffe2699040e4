import { badRequest } from '../http/errors.ts';
import { limitVendorCheck } from '../http/rate-limit.ts';
import type { RouteDef } from '../http/routes.ts';
import { sendCached } from '../web/static.ts';
import { buildBoot } from './boot.ts';

export const shopRoutes: RouteDef[] = [
  {
    // The embedded widget's first call: what the shop page has inlined, in one answer.
    method: 'GET',
    path: '/api/shop/boot',
    access: 'public',
    handler: async (ctx) => {
      const { vendor } = ctx.query;
      if (vendor !== undefined && typeof vendor !== 'string') {
        throw badRequest('Please name one vendor: ?vendor=<licence id>.', { vendor: 'Please name one vendor.' });
      }
      if (vendor) await limitVendorCheck(ctx);
      ctx.type = 'application/json';
      // The items' names come in the language asked for.
      ctx.vary('Accept-Language');
      const language = ctx.acceptsLanguages('de', 'en') === 'en' ? 'en' : 'de';
      const { boot } = await buildBoot(ctx.db, ctx.config, vendor || undefined, language);
      sendCached(ctx, JSON.stringify(boot), 'no-cache');
    },
  },
];
