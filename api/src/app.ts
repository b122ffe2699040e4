import path from 'node:path';
import Koa from 'koa';
import { protocol } from './protocol/middleware.ts';
import { isLocalStart, type Config } from './foundations/config.ts';
import type { Db } from './db/connection.ts';
import { authenticate } from './http/auth.ts';
import { compress } from './http/compress.ts';
import { cors } from './http/cors.ts';
import { errorHandler } from './http/errors.ts';
import { fiscalSandbox } from './fiscal/sandbox/index.ts';
import { usesSimulator } from './fiscal/settings.ts';
import { installationCurrency } from './settings/currency.ts';
import { routeTable, type AppDeps, type AppState, type RouteDef } from './http/routes.ts';
import { localOnly } from './http/local-only.ts';
import { securityHeaders } from './http/security.ts';
import { requestDeadline } from './http/timeouts.ts';
import { embeddedIdentity } from './identity/provider/index.ts';
import type { User } from './identity/user.ts';
import { createVerifier, tokenRefusal, type Verifier } from './identity/verifier.ts';
import { creditIsTestMoney, showsTestRibbon, usesSandbox } from './stripe/mode.ts';
import { stripeSandbox } from './stripe/sandbox/index.ts';
import { routes as allRoutes } from './routes.ts';
import { embedOrigins, isEmbedOrigin } from './shop/origins.ts';
import { currentShopData } from './shop/cache.ts';
import { shopPage } from './shop/page.ts';
import { loaderSource } from './shop/script-after-paint.ts';
import { testModeRibbon } from './web/ribbon.ts';
import { vendorPage } from './web/me-page.ts';
import { serveApp, serveFiles, type AnyContext } from './web/static.ts';

declare module './http/context.ts' {
  /** The caller http/ knows by the groups is identity's User: the routes read all of it. */
  interface Caller extends User {
    groups: string[];
  }
}

export interface AppOptions {
  db: Db;
  config: Config;
  verifier?: Verifier;
  routes?: RouteDef[];
  /** Folder holding the built `shop-widget/` and `admin/` (vite output). */
  distDir?: string;
}

export function buildApp({ db, config, verifier, routes = allRoutes, distDir = path.resolve('dist') }: AppOptions) {
  const app = new Koa<AppState, AppDeps>({ proxy: false });
  app.context.db = db;
  app.context.config = config;
  app.context.installationCurrency = installationCurrency;

  // Without an external issuer the embedded OpenID provider at /oidc issues the tokens.
  const embedded = config.oidc.issuer ? undefined : embeddedIdentity(db, config);

  app.use(errorHandler());
  // Inside the error handler, so error answers carry the headers and a hung request its 503.
  app.use(securityHeaders(config, { inlineScripts: [loaderSource], embedOrigins: (db) => embedOrigins(db, config) }));
  app.use(requestDeadline(config.requestTimeoutSeconds));
  if (isLocalStart(config)) app.use(localOnly(config));
  // Around everything else, so pages, scripts and API answers all leave compressed.
  app.use(compress());
  if (showsTestRibbon(config)) app.use(testModeRibbon({ creditIsTestMoney: creditIsTestMoney(config) }));
  app.use(async (ctx, next) => {
    // Trailing slashes are optional everywhere (the specification writes them, clients may not).
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) ctx.path = ctx.path.replace(/\/+$/, '') || '/';
    await next();
  });
  // Without a Stripe key the local sandbox answers the SDK at /v1 and shows the test checkout page.
  // It checks Stripe's own bearer key, so it sits in front of the API's token authentication.
  if (usesSandbox(config)) app.use(stripeSandbox(db, config, (trx, origin) => isEmbedOrigin(trx, config, origin)));
  // Without a signing service's key the local TSE simulator answers this machine at /fiscal-sandbox.
  if (usesSimulator(config)) app.use(fiscalSandbox(db));
  if (embedded) app.use(embedded.middleware);
  app.use(cors(config, (db, origin) => isEmbedOrigin(db, config, origin)));
  app.use(authenticate(verifier ?? embedded?.verify ?? createVerifier(config.oidc), tokenRefusal));
  app.use(routeTable(routes, (def) => protocol(def.method, def.path, def.protocol, def.handler)));
  app.use(serveApp('/backoffice', path.join(distDir, 'admin')));
  const newspaperName = async () => (await currentShopData(db)).settings.newspaper_name;
  const withDescription = (html: string, ctx: AnyContext) => vendorPage(newspaperName, html, ctx);
  app.use(serveApp('/me', path.join(distDir, 'admin'), 'me.html', withDescription));
  app.use(serveApp('/dashboard', path.join(distDir, 'admin'), 'me.html', withDescription));
  // From the working directory, as `distDir`: the server runs as a bundle in dist/server/, away from api/src.
  app.use(serveFiles('/img', path.resolve('api/public/img')));
  // The shop last: its own files (scripts, widget.js), then its page for every path of the shop.
  app.use(serveFiles('/', path.join(distDir, 'shop-widget')));
  app.use(shopPage(path.join(distDir, 'shop-widget'), path.join(distDir, 'shop-widget-server', 'server.js')));
  return app;
}
