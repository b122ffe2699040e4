import type { Context } from 'koa';
import type { Config } from '../foundations/config.ts';
import { clientBucket } from './client-address.ts';
import { HttpError } from './errors.ts';
import { type Text } from '../language/messages.ts';

// Requests per client address and minute. (New orders are counted in the database by the statement
// that stores them: orders/rate-limit.ts.) Look-ups of a licence id are the hot path
// of every badge scan and are counted in this process, without a write: each of the PROCESS_COUNT
// processes allows a client its share of the minute's limit, so a balancer spreading one client over
// all of them gives it the limit in all.

/** What a refused client reads; the limit comes from the configuration. */
const refusal: Text = 'Too many vendor IDs were looked up from this connection. Please wait a minute and try again.';

const tooMany = (retryAfterSeconds: number) =>
  new HttpError(429, refusal, undefined, { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets per client address: full at `capacity`, refilled evenly over a minute. A full bucket
 * is as good as none, so those are forgotten now and then and memory stays bounded by recent clients.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private sweptAt: number;

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = capacity / 60_000;
    this.sweptAt = now();
  }

  /** Takes one token of `address`; answers 0, or the seconds until it would have one. */
  take(address: string): number {
    const now = this.now();
    if (now - this.sweptAt > 60_000) this.sweep(now);
    const bucket = this.buckets.get(address) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(address, bucket);
    if (bucket.tokens < 1) return Math.ceil((1 - bucket.tokens) / this.perMs / 1000);
    bucket.tokens -= 1;
    return 0;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [address, bucket] of this.buckets)
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.capacity) this.buckets.delete(address);
  }
}

// One set per running app (each has its own configuration object): a process's own count.
const vendorChecks = new WeakMap<Config, TokenBuckets>();

/** A client's share of the limit in one of `processCount` processes; at least one look-up a minute. */
export const perProcess = (limit: number, processCount: number) => Math.max(1, Math.floor(limit / processCount));

/**
 * A look-up of a licence id by this request's client: the vendor check, the shop page of a vendor and
 * the widget's boot call all answer whether an id is a vendor, so they share one allowance.
 */
export function limitVendorCheck(ctx: Pick<Context, 'req' | 'get'> & { config: Config }): Promise<void> {
  const { config } = ctx;
  let buckets = vendorChecks.get(config);
  if (!buckets) {
    buckets = new TokenBuckets(perProcess(config.vendorCheckRateLimit, config.processCount));
    vendorChecks.set(config, buckets);
  }
  const wait = buckets.take(clientBucket(ctx, config));
  return wait ? Promise.reject(tooMany(wait)) : Promise.resolve();
}
