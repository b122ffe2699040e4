import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { log } from '../../foundations/log.ts';
import { mountApi, unknownRoute, type IsEmbedOrigin } from './api.ts';
import { bookOverdueFees } from './fees.ts';
import { startBankActions } from './later.ts';
import { mountPage } from './page.ts';
import { startSandboxDeliveries } from './webhooks.ts';

/**
 * The local Stripe sandbox: Stripe's REST API under /v1 (as the official SDK calls it) and the hosted
 * checkout page under /stripe-sandbox. It is not part of our API (no RouteDef, no OIDC tokens: it
 * checks Stripe's bearer key itself), so the app mounts it in front of the API's authentication.
 */
export function stripeSandbox(db: Db, config: Config, isEmbedOrigin: IsEmbedOrigin): Middleware {
  const router = new Router();
  mountApi(router, db, config, isEmbedOrigin);
  mountPage(router, db, config);
  const routes = router.routes() as unknown as Middleware;
  return async (ctx, next) => {
    const ours = ctx.path === '/v1' || ctx.path.startsWith('/v1/') || ctx.path.startsWith('/stripe-sandbox/');
    if (!ours) {
      await next();
      return;
    }
    await routes(ctx, () => {
      if (ctx.path.startsWith('/stripe-sandbox/')) {
        ctx.status = 404;
        ctx.body = 'Not found';
      } else unknownRoute(ctx);
      return Promise.resolve();
    });
  };
}

/**
 * At start: what a stopped process left undone goes out now (pending webhook deliveries, fees it
 * still owed), and deliveries a sibling process claimed and never finished are picked up; what the
 * card's banks have due is done every few seconds.
 */
export function resumeSandbox(db: Db, config: Config): { stop(): void } {
  const deliveries = startSandboxDeliveries(db, config);
  const banks = startBankActions(db, config);
  bookOverdueFees(db, config).catch((error) => log.warn('sandbox fees could not be booked', { error: String(error) }));
  return {
    stop: () => {
      banks.stop();
      deliveries.stop();
    },
  };
}
