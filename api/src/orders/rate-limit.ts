import type { Knex } from 'knex';
import { TooManyRequests } from '../foundations/errors.ts';
import { type Text } from '../language/messages.ts';

// New orders per client address and minute, counted in the database (table rate_limits) by the
// statement that stores the order: an order writes rows anyway, and every process behind a load
// balancer shares one exact count. (Look-ups of a licence id are counted in each process, by
// http/rate-limit.ts.) The same table holds the claims of windows in which something may happen once
// (claimWindow: the verify call's look-up of an order at Stripe).

/** What a refused client reads, by bucket; the limits come from the configuration. */
const refusals = {
  order: 'Too many orders from this connection. Please wait a minute and try again.',
} satisfies Record<string, Text>;

export type RateBucket = keyof typeof refusals;

/**
 * Counts one request of `address` in the current minute, as a CTE of the statement that does what is
 * counted, so the count and the deed commit together: it answers `requests`, this one included, and
 * `retry_after`.
 */
export function countRequest(bucket: RateBucket, address: string): { sql: string; bindings: Knex.Value[] } {
  return {
    sql: `insert into rate_limits (bucket, address, window_start, requests) values (?, ?, date_trunc('minute', now()), 1)
     on conflict (bucket, address, window_start) do update set requests = rate_limits.requests + 1
     returning requests, 60 - extract(second from now())::integer as retry_after`,
    bindings: [bucket, address],
  };
}

/** Refuses, as too many, a request that countRequest counted beyond `limit`. */
export function refuseBeyond(
  bucket: RateBucket,
  limit: number,
  counted: { requests: number; retry_after: number },
): void {
  if (counted.requests > limit) throw new TooManyRequests(refusals[bucket], counted.retry_after);
}

/**
 * Claims the current `seconds`-long window of the database's clock (windows start at whole multiples of
 * it) for `key` in `bucket`: true for the one caller, in any process, whose row went in; false for
 * every other caller in the same window. The primary key decides, so concurrent claims need no lock.
 */
export async function claimWindow(
  db: Knex | Knex.Transaction,
  bucket: string,
  key: string,
  seconds: number,
): Promise<boolean> {
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`a window is whole seconds, not ${seconds}`);
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `insert into rate_limits (bucket, address, window_start, requests)
     values (?, ?, date_bin(interval '${seconds} seconds', now(), timestamptz '2000-01-01 00:00:00+00'), 1)
     on conflict (bucket, address, window_start) do nothing
     returning requests`,
    [bucket, key],
  );
  return rows.length === 1;
}

/** Old minutes are of no use any more; the reconciliation job clears them. */
export async function forgetOldRates(db: Knex | Knex.Transaction): Promise<void> {
  await db('rate_limits').where('window_start', '<', db.raw(`now() - interval '1 hour'`)).delete();
}
