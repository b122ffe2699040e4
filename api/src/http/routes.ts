import Router from '@koa/router';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { z } from 'zod';
import { authorize } from './auth.ts';
import { bodyParser, type BodyKind } from './body.ts';
import { accessLevels, type Access, type AppContext, type AppDeps, type AppState, type Method } from './context.ts';
import { refuseNul } from './nul.ts';
import { readBody } from './validate.ts';

// The context types live in context.ts (so auth.ts and the protocol need not import this file); they
// are exported here too for the routes that import them with RouteDef.
export { accessLevels, type Access, type AppContext, type AppDeps, type AppState, type Method } from './context.ts';

type RecordId = string | number;

/**
 * How the protocol records a route's change (protocol/middleware.ts, which app.ts hands to routeTable).
 * The route's handler then runs inside one transaction with the protocol entry, and `ctx.db` is that
 * transaction: a change is never stored without its entry, and nothing may use another connection
 * meanwhile (PGlite has only one). The handler may run twice: when PostgreSQL undoes the transaction
 * to break a deadlock, it runs once more.
 */
export interface ProtocolSpec {
  /** The kind of record the route changes: 'vendor', 'item', 'settings', … */
  recordType: string;
  /** The record's id from the request; leave it out for a creation: the answer's `id` is taken then. */
  id?: (ctx: AppContext) => RecordId;
  /** The record as the API shows it, undefined when there is none; compared before and after. */
  load: (ctx: AppContext, id: RecordId) => Promise<object | undefined>;
  /** Defaults to 'create', 'update' or 'delete' after the method. */
  action?: string;
  /** Context a reader needs beside the record, e.g. the vendor a location belongs to. */
  details?: (ctx: AppContext) => Record<string, unknown>;
}

export interface RouteDef {
  method: Method;
  /** Without trailing slash; requests with one are normalised before routing. */
  path: string;
  access: Access;
  body?: BodyKind;
  /**
   * The schema the body is read with (the handler takes it with `readInput`). The record's id and the
   * body are refused before the route does any database work or calls out (the protocol's
   * transaction and lock, `around`): a flood of malformed requests opens no transaction.
   */
  input?: z.ZodType;
  /** What the protocol records of a change through this route. */
  protocol?: ProtocolSpec;
  /**
   * What runs around the handler and outside the protocol's transaction (`ctx.db` the database
   * itself): work that must not wait inside a transaction, such as a call to a signing service
   * before a booking and its undoing when the booking fails. `run` throws what the handler threw.
   */
  around?: (ctx: AppContext, run: () => Promise<void>) => Promise<void>;
  handler: (ctx: AppContext) => Promise<void> | void;
}

/**
 * The part of a path that picks its group of routes: `/api/<resource>`, or the first segment
 * elsewhere (`/healthz`, `/files`). Answers undefined where that part is a parameter.
 */
function groupOf(path: string): string | undefined {
  const [, first = '', second = ''] = path.split('/', 3);
  const key = first === 'api' ? `/api/${second}` : `/${first}`;
  return key.includes(':') || key.includes('(') ? undefined : key;
}

/** What runs instead of a route's handler (the protocol around a change), or undefined for the handler itself. */
export type RouteWrap = (def: RouteDef) => Middleware<AppState, AppDeps> | undefined;

/**
 * The routes as one middleware. Each group of routes (see groupOf) has a router of its own, found by
 * the request's path in a map: @koa/router tries every route's pattern in turn, and with all of them
 * in one router that search was the largest share of a public request's time. A path
 * outside every group goes on, as it did past the one router.
 */
export function routeTable(defs: RouteDef[], wrap: RouteWrap): Middleware<AppState, AppDeps> {
  const routers = new Map<string, Router<AppState, AppDeps>>();
  for (const def of defs) {
    if (!accessLevels.includes(def.access)) {
      throw new Error(`Route ${def.method} ${def.path} declares no access level; refusing to start.`);
    }
    if (def.path !== '/' && def.path.endsWith('/')) throw new Error(`Route ${def.path} must not end with a slash`);
    const group = groupOf(def.path);
    if (group === undefined)
      throw new Error(`Route ${def.path} must begin with a fixed segment (/api/<name> or /<name>)`);
    const chain: Middleware[] = [authorize(def.access) as unknown as Middleware];
    if (def.body) chain.push(bodyParser(def.body));
    chain.push(refuseNul());
    const { input, protocol } = def;
    if (input || protocol?.id)
      chain.push(((ctx: AppContext, next: () => Promise<void>) => {
        // In the order the handler met them: the record's id, then the body.
        protocol?.id?.(ctx);
        if (input) readBody(ctx, input);
        return next();
      }) as unknown as Middleware);
    const around = def.around;
    if (around)
      chain.push(((ctx: AppContext, next: () => Promise<void>) => around(ctx, next)) as unknown as Middleware);
    chain.push((wrap(def) ?? def.handler) as unknown as Middleware);
    let router = routers.get(group);
    if (!router) routers.set(group, (router = new Router<AppState, AppDeps>()));
    router.register(def.path, [def.method], chain as never);
  }
  type Handler = (ctx: ParameterizedContext<AppState, AppDeps>, next: Next) => Promise<void>;
  const handlers = new Map<string, Handler>();
  for (const [group, router] of routers) {
    // The router's context adds its params to the app's; each request is given them on the way.
    const routes = router.routes() as unknown as Handler;
    const allowed = router.allowedMethods() as unknown as Handler;
    handlers.set(group, (ctx, next) => routes(ctx, () => allowed(ctx, next)));
  }
  return async (ctx, next) => {
    const group = groupOf(ctx.path);
    const handler = group === undefined ? undefined : handlers.get(group);
    await (handler ? handler(ctx, next) : next());
  };
}
