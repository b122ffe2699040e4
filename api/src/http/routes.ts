import type Router from '@koa/router';
import type { Middleware, ParameterizedContext } from 'koa';
import { protocol, type AuditSpec } from '../audit/protocol.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db.ts';
import type { User } from '../identity/user.ts';
import { authorize } from './auth.ts';
import { bodyParser, type BodyKind } from './body.ts';
import { refuseNul } from './nul.ts';

/** Who may call a route. Every route states one; the server refuses to mount a route without. */
export const accessLevels = ['public', 'authenticated', 'vendor', 'backoffice'] as const;
export type Access = (typeof accessLevels)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AppState {
  requestId: string;
  user?: User;
}
export interface AppDeps {
  db: Db;
  config: Config;
}
export type AppContext = ParameterizedContext<AppState, AppDeps> & { params: Record<string, string> };

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
