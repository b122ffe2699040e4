import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import { isTransactionConflict, pgCode } from '../db/connection.ts';
import type { AppContext, AppDeps, AppState, Method } from '../http/context.ts';
import type { ProtocolSpec } from '../http/routes.ts';
import { log } from '../foundations/log.ts';
import { writeEntry, type ProtocolEntry } from './record.ts';

type RecordId = string | number;

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
  await trx.raw('select pg_advisory_xact_lock(hashtext(current_schema()), hashtext(?))', [
    `protocol:${recordType}:${id}`,
  ]);
}

const succeeded = (ctx: AppContext) => ctx.status < 400;

export type Handler = (ctx: AppContext) => Promise<void> | void;

/**
 * Runs a state-changing route's handler and records the request of a logged-in user: with the
 * record's changed fields when the route declares a `protocol`, else as the bare request. Anonymous
 * calls (the shop's customers) are not staff changes and stay out. Undefined for reading methods.
 */
export function protocol(
  method: Method,
  path: string,
  spec: ProtocolSpec | undefined,
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
