import type { Middleware } from 'koa';

/**
 * CORS by exact origin: the public URL's own origin and the configured embed origins. A prefix or
 * suffix match (the `localhost.evil.com` mistake) never passes.
 */
export function cors(allowedOrigins: string[]): Middleware {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, '')));
  return async (ctx, next) => {
    const origin = ctx.get('Origin');
    if (origin && allowed.has(origin)) {
      ctx.vary('Origin');
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
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
