import { badRequest, notFound } from '../http/errors.ts';
import { limitVendorCheck } from '../http/rate-limit.ts';
import type { RouteDef } from '../http/routes.ts';
import { pathParam } from '../http/params.ts';
import { publicItemsIn } from '../items/queries.ts';
import { publicSettings } from '../settings/queries.ts';
import { sendCached } from '../web/static.ts';
import { buildBoot } from './boot.ts';
import { currentShopData } from './cache.ts';
import { checkVendor } from './vendor-check.ts';

// The shop's public reads, all answered from this process's copy of the settings and items
// (cache.ts): the widget's boot, the settings, the items and the vendor behind a scanned badge.

export const shopRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/settings',
    access: 'public',
    handler: async (ctx) => {
      const { settings, mainItem } = await currentShopData(ctx.db);
      ctx.body = publicSettings(settings, mainItem, ctx.config);
    },
  },
  {
    method: 'GET',
    path: '/api/items',
    access: 'public',
    handler: async (ctx) => {
      // As the shop's page: German unless the browser asks for English.
      ctx.vary('Accept-Language');
      const language = ctx.acceptsLanguages('de', 'en') === 'en' ? 'en' : 'de';
      ctx.body = publicItemsIn((await currentShopData(ctx.db)).items, language);
    },
  },
  {
    // The shop's first call after a badge scan; it answers only what the shop may show.
    method: 'GET',
    path: '/api/vendors/check/:licenseId',
    access: 'public',
    handler: async (ctx) => {
      await limitVendorCheck(ctx);
      const vendor = await checkVendor(ctx.db, pathParam(ctx, 'licenseId'));
      if (!vendor) throw notFound('This ID is invalid');
      ctx.body = vendor;
    },
  },
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
