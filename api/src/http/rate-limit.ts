import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Config } from '../config.ts';
import { clientBucket } from './client-address.ts';
import { HttpError } from './errors.ts';
import { oneRow } from '../one-row.ts';

// Requests per client address and minute, counted in the database (table rate_limits), so every API
// process behind a load balancer shares one count: a client cannot multiply its allowance by the
// number of processes.

/** What a refused client reads, by bucket; the limits come from the configuration. */
const refusals = {
  order: 'Too many orders from this connection. Please wait a minute and try again.',
  vendorCheck: 'Too many vendor IDs were looked up from this connection. Please wait a minute and try again.',
} as const;

export type RateBucket = keyof typeof refusals;

/** Counts one request of `address` in the current minute and refuses it with 429 beyond `limit`. */
export async function limitRate(db: Knex, bucket: RateBucket, address: string, limit: number): Promise<void> {
  const { rows } = await db.raw<{ rows: { requests: number; retry_after: number }[] }>(
    `insert into rate_limits (bucket, address, window_start, requests) values (?, ?, date_trunc('minute', now()), 1)
     on conflict (bucket, address, window_start) do update set requests = rate_limits.requests + 1
     returning requests, 60 - extract(second from now())::integer as retry_after`,
    [bucket, address],
  );
  const { requests, retry_after } = oneRow(rows);
  if (requests > limit) {
    throw new HttpError(429, refusals[bucket], undefined, { 'Retry-After': String(Math.max(1, retry_after)) });
  }
}

/**
 * A look-up of a licence id by this request's client: the vendor check, the shop page of a vendor and
 * the widget's boot call all answer whether an id is a vendor, so they share one allowance.
 */
export function limitVendorCheck(ctx: Pick<Context, 'req' | 'get'> & { db: Knex; config: Config }): Promise<void> {
  return limitRate(ctx.db, 'vendorCheck', clientBucket(ctx, ctx.config), ctx.config.vendorCheckRateLimit);
}

/** Old minutes are of no use any more; the reconciliation job clears them. */
export async function forgetOldRates(db: Knex | Knex.Transaction): Promise<void> {
  await db('rate_limits').where('window_start', '<', db.raw(`now() - interval '1 hour'`)).delete();
}
