import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { protocol, type AuditSpec } from '../audit/protocol.ts';
import { authorize } from './auth.ts';
import { bodyParser, type BodyKind } from './body.ts';
import { accessLevels, type Access, type AppContext, type AppDeps, type AppState, type Method } from './context.ts';
import { refuseNul } from './nul.ts';

// The context types live in context.ts (so auth.ts and the protocol need not import this file); they
// are exported here too for the routes that import them with RouteDef.
export { accessLevels, type Access, type AppContext, type AppDeps, type AppState, type Method } from './context.ts';

export interface RouteDef {
  method: Method;
  /** Without trailing slash; requests with one are normalised before routing. */
  path: string;
  access: Access;
  body?: BodyKind;
  /** What the protocol records of a change through this route (see audit/protocol.ts). */
  audit?: AuditSpec;
  handler: (ctx: AppContext) => Promise<void> | void;
}

export function mountRoutes(router: Router<AppState, AppDeps>, defs: RouteDef[]): void {
  for (const def of defs) {
    if (!accessLevels.includes(def.access)) {
      throw new Error(`Route ${def.method} ${def.path} declares no access level; refusing to start.`);
    }
    if (def.path !== '/' && def.path.endsWith('/')) throw new Error(`Route ${def.path} must not end with a slash`);
    const chain: Middleware[] = [authorize(def.access) as unknown as Middleware];
    if (def.body) chain.push(bodyParser(def.body));
    chain.push(refuseNul());
    const recording = protocol(def.method, def.path, def.audit);
    if (recording) chain.push(recording as unknown as Middleware);
    chain.push(def.handler as unknown as Middleware);
    router.register(def.path, [def.method], chain as never);
  }
}
