import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import {
  recentDisputes,
  recentEarlyFraudWarnings,
  recentRefunds,
  retrieveDispute,
  retrieveRefund,
  withRateLimitBackoff,
} from '../stripe/adapter.ts';
import { applyDispute, applyEarlyFraudWarning, applyRefund } from './lifecycle.ts';

// The safety net under Stripe's refund, dispute and fraud warning events: an event lost, refused
// while no server listened, or never sent must not leave money moved at Stripe that the books do not
// show, nor a warned payment unflagged. Every run of the reconciliation job asks Stripe for the
// refunds, disputes and early fraud warnings of the last days and applies each as its event would
// (keyed by Stripe's ids, so what is booked stays booked once; an order not settled yet is settled
// first); older refunds still pending and disputes still open are asked about one by one until they
// end. Stripe's 429 holds the sweep back a little (withRateLimitBackoff) instead of ending it, and
// each list is swept on its own: one that fails leaves the others to do their work.

/** How far back each sweep lists Stripe's refunds, disputes and fraud warnings. */
const windowMs = 3 * 24 * 60 * 60 * 1000;
/** Dispute statuses after which Stripe moves no more money for it. */
const closedDisputes = ['won', 'lost', 'warning_closed'];

/** Lists `what` from Stripe and applies each; answers how many it applied and how many failed (logged). */
async function sweep<T>(
  what: string,
  list: () => Promise<readonly T[]>,
  apply: (object: T) => Promise<void>,
): Promise<{ applied: number; failed: number }> {
  let objects: readonly T[];
  try {
    objects = await withRateLimitBackoff(list);
  } catch (error) {
    log.warn(`listing ${what} at Stripe failed`, { error: String((error as Error)?.message ?? error) });
    return { applied: 0, failed: 1 };
  }
  let failed = 0;
  for (const object of objects) {
    try {
      await withRateLimitBackoff(() => apply(object));
    } catch (error) {
      failed++;
      log.warn(`applying one of the ${what} from Stripe failed`, { error: String((error as Error)?.message ?? error) });
    }
  }
  return { applied: objects.length - failed, failed };
}

/** One sweep; answers how many of Stripe's objects it applied and how many failed (a list that failed counts one). */
export async function sweepStripeChanges(
  db: Knex,
  config: Config,
  now = new Date(),
): Promise<{ applied: number; failed: number }> {
  const since = new Date(now.getTime() - windowMs);
  const outcomes = [
    await sweep(
      'refunds',
      () => recentRefunds(db, config, since),
      (refund) => applyRefund(db, config, refund),
    ),
    await sweep(
      'disputes',
      () => recentDisputes(db, config, since),
      (dispute) => applyDispute(db, config, dispute),
    ),
    await sweep(
      'early fraud warnings',
      () => recentEarlyFraudWarnings(db, config, since),
      (warning) => applyEarlyFraudWarning(db, config, warning),
    ),
    await sweep(
      'older pending refunds',
      () => db('stripe_refunds').where({ status: 'pending' }).where('created_at', '<', since).pluck<string[]>('id'),
      async (id) => applyRefund(db, config, await retrieveRefund(db, config, id)),
    ),
    await sweep(
      'older open disputes',
      () =>
        db('stripe_disputes')
          .whereNotIn('status', closedDisputes)
          .where('created_at', '<', since)
          .pluck<string[]>('id'),
      async (id) => applyDispute(db, config, await retrieveDispute(db, config, id)),
    ),
  ];
  return {
    applied: outcomes.reduce((sum, outcome) => sum + outcome.applied, 0),
    failed: outcomes.reduce((sum, outcome) => sum + outcome.failed, 0),
  };
}
