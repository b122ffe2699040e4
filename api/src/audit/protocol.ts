import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import { isTransactionConflict, pgCode } from '../db.ts';
import type { AppContext, AppDeps, AppState, Method } from '../http/context.ts';
import { log } from '../log.ts';
import { writeEntry, type ProtocolEntry } from './record.ts';

type RecordId = string | number;

/**
 * How the protocol records a route's change. The route's handler then runs inside one transaction
 * with the protocol entry, and `ctx.db` is that transaction: a change is never stored without its
 * entry, and nothing may use another connection meanwhile (PGlite has only one). The handler may run
 * twice: when PostgreSQL undoes the transaction to break a deadlock, it runs once more.
 */
export interface AuditSpec {
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

const verbs: Record<Exclude<Method, 'GET'>, string> = {
  POST: 'create',
  PUT: 'update',
  PATCH: 'update',
  DELETE: 'delete',
};

/** Fields that change on every save and would only hide the real change. */
const ignoredFields = new Set(['updatedAt']);

/** The fields that differ, each with its value before and after (null for absent). */
export function changedFields(
  before: object | undefined,
  after: object | undefined,
): NonNullable<ProtocolEntry['changes']> {
  const old = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  const changes: NonNullable<ProtocolEntry['changes']> = {};
  for (const field of new Set([...Object.keys(old), ...Object.keys(now)])) {
    if (ignoredFields.has(field)) continue;
    const [b, a] = [old[field] ?? null, now[field] ?? null];
    if (!isDeepStrictEqual(b, a)) changes[field] = { before: b, after: a };
  }
  return changes;
}

/**
 * Concurrent changes of one record queue here, so each entry's "before" is what the previous change
 * left. Taken first in the transaction, before any row lock, so it cannot join a lock cycle.
 */
async function lockRecord(trx: Knex.Transaction, recordType: string, id: RecordId): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`protocol:${recordType}:${id}`]);
}

const succeeded = (ctx: AppContext) => ctx.status < 400;

export type Handler = (ctx: AppContext) => Promise<void> | void;

/**
 * Runs a state-changing route's handler and records the request of a logged-in user: with the
 * record's changed fields when the route declares an `audit`, else as the bare request. Anonymous
 * calls (the shop's customers) are not staff changes and stay out. Undefined for reading methods.
 */
export function protocol(
  method: Method,
  path: string,
  spec: AuditSpec | undefined,
  handler: Handler,
): Middleware<AppState, AppDeps> | undefined {
  if (method === 'GET') return undefined;
  // A route without a declaration may do anything (reconcile, pay out, …): it is named as it is.
  const action = spec ? (spec.action ?? verbs[method]) : `${method} ${path}`;
  return async (koaCtx) => {
    const ctx = koaCtx as unknown as AppContext;
    const user = ctx.state.user;
    if (!user) {
      await handler(ctx);
      return;
    }
    const actor = { actorSub: user.sub, actorName: user.username };
    if (!spec) {
      await handler(ctx);
      if (succeeded(ctx)) await writeEntry(ctx.db, { ...actor, action, details: { path: ctx.path } });
      return;
    }
    const outer = ctx.db;
    const recorded = () =>
      outer.transaction(async (trx) => {
        ctx.db = trx;
        const knownId = spec.id?.(ctx);
        let before: object | undefined;
        if (knownId !== undefined) {
          await lockRecord(trx, spec.recordType, knownId);
          before = await spec.load(ctx, knownId);
        }
        await handler(ctx);
        if (!succeeded(ctx)) return;
        const recordId = knownId ?? (ctx.body as { id?: RecordId } | null)?.id;
        const after = recordId === undefined ? undefined : await spec.load(ctx, recordId);
        await writeEntry(trx, {
          ...actor,
          action,
          recordType: spec.recordType,
          recordId,
          changes: changedFields(before, after),
          details: spec.details?.(ctx),
        });
      });
    try {
      await recorded();
    } catch (error) {
      // The transaction is the whole request's, so it can run again from its start; a second
      // conflict is answered 409 "try again" (http/errors.ts). The log keeps the first: a
      // deadlock is a sign of locks taken in different orders.
      if (!isTransactionConflict(error)) throw error;
      log.warn('transaction run again', { requestId: ctx.state.requestId, method, path, code: pgCode(error) });
      await recorded();
    } finally {
      ctx.db = outer;
    }
  };
}
