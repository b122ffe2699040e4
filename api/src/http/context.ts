import type { ParameterizedContext } from 'koa';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';

// The request context every route, middleware and the protocol share: in a module of its own, so that
// routes.ts, auth.ts and protocol/middleware.ts can all use it without importing one another.

/**
 * The caller a verified token names, as far as http/ needs to know it: authorize reads the groups.
 * app.ts merges identity's User into it, so the routes read the whole user without http/ knowing it.
 */
export interface Caller {
  groups: string[];
}

/** Who may call a route. Every route states one; the server refuses to mount a route without. */
export const accessLevels = ['public', 'authenticated', 'vendor', 'backoffice'] as const;
export type Access = (typeof accessLevels)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface AppState {
  requestId: string;
  user?: Caller;
  /** The embed origins a shop page was made with, so its frame-ancestors need no second read. */
  embedOrigins?: string[];
  /** The request's body as the route's `input` schema read it (http/validate.ts readInput). */
  input?: { schema: unknown; value: unknown };
}
export interface AppDeps {
  db: Db;
  config: Config;
  /**
   * The currency the books are kept in ("EUR", "CHF", "JPY"), which a CSV's amounts are written in.
   * app.ts hands over the settings' reader, since http/ reads no domain's tables.
   */
  installationCurrency: (db: Db) => Promise<string>;
}
export type AppContext = ParameterizedContext<AppState, AppDeps> & { params: Record<string, string> };

/** The staff member's name as tokens carry it; it is stamped on the rows they authorise. */
export const staffName = (ctx: AppContext): string => ctx.state.user!.username;
