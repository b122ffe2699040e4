import type { Knex } from 'knex';
import { HttpError } from '../http/errors.ts';

/**
 * Counts a new order of `address` in the current minute and refuses it beyond `limit`. The count
 * lives in the database, so every API process behind a load balancer shares it.
 */
export async function limitOrderRate(db: Knex, address: string, limit: number): Promise<void> {
  const { rows } = (await db.raw(
    `insert into order_rate_limits (address, window_start, requests) values (?, date_trunc('minute', now()), 1)
     on conflict (address, window_start) do update set requests = order_rate_limits.requests + 1
     returning requests, 60 - extract(second from now())::integer as retry_after`,
    [address],
  )) as { rows: { requests: number; retry_after: number }[] };
  const [{ requests, retry_after }] = rows;
  if (requests > limit) {
    throw new HttpError(429, 'Too many orders from this connection. Please wait a minute and try again.', undefined, {
      'Retry-After': String(Math.max(1, retry_after)),
    });
  }
}

/** Old minutes are of no use any more; the reconciliation job clears them. */
export async function forgetOldOrderRates(db: Knex | Knex.Transaction): Promise<void> {
  await db('order_rate_limits').where('window_start', '<', db.raw(`now() - interval '1 hour'`)).delete();
}
