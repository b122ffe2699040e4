import type { Middleware } from 'koa';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import type { AppDeps, AppState } from './routes.ts';

/** Whether pages of `origin` may call the API (the shop's embed origins, handed over by app.ts). */
export type OriginCheck = (db: Db, origin: string) => Promise<boolean>;

/**
 * CORS by exact origin: the public URL's own origin, and the newspaper's websites that embed the
 * shop (EMBED_ORIGINS and the settings). A prefix or suffix match (the `localhost.evil.com` mistake)
 * never passes. Embedding pages get no credentials: the widget needs none, and a script on the
 * newspaper's site must never ride on a staff member's cookies.
 */
export function cors(config: Config, isEmbedOrigin: OriginCheck): Middleware<AppState, AppDeps> {
  const ownOrigin = new URL(config.publicUrl).origin;
  return async (ctx, next) => {
    // Every answer may differ by Origin, so no cache may hand one caller's answer to another.
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    const own = origin === ownOrigin;
    if (origin && (own || (await isEmbedOrigin(ctx.db, origin)))) {
      ctx.set('Access-Control-Allow-Origin', origin);
      if (own) ctx.set('Access-Control-Allow-Credentials', 'true');
      ctx.set('Access-Control-Expose-Headers', 'Content-Range, X-Request-Id');
      if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
        ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, Range');
        ctx.set('Access-Control-Max-Age', '600');
        ctx.status = 204;
        return;
      }
    }
    await next();
  };
}
