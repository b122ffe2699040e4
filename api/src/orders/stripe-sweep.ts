import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { log } from '../log.ts';
import { recentDisputes, recentRefunds, retrieveDispute, retrieveRefund } from '../stripe/adapter.ts';
import { applyDispute, applyRefund } from './lifecycle.ts';

// The safety net under Stripe's refund and dispute events: an event lost, refused while no server
// listened, or never sent must not leave money moved at Stripe that the books do not show. The job
// asks Stripe for the refunds and disputes of the last days and applies each as its event would
// (keyed by Stripe's ids, so what is booked stays booked once); older refunds still pending and
// disputes still open are asked about one by one until they end.

/** How far back each sweep lists Stripe's refunds and disputes. */
const windowMs = 3 * 24 * 60 * 60 * 1000;
/** Dispute statuses after which Stripe moves no more money for it. */
const closedDisputes = ['won', 'lost', 'warning_closed'];

async function each<T>(what: string, objects: readonly T[], apply: (object: T) => Promise<void>): Promise<number> {
  let failed = 0;
  for (const object of objects) {
    try {
      await apply(object);
    } catch (error) {
      failed++;
      log.warn(`applying a ${what} from Stripe failed`, { error: String((error as Error)?.message ?? error) });
    }
  }
  return failed;
}

/** One sweep; answers how many of Stripe's objects it applied and how many failed (logged). */
export async function sweepStripeChanges(
  db: Knex,
  config: Config,
  now = new Date(),
): Promise<{ applied: number; failed: number }> {
  const since = new Date(now.getTime() - windowMs);
  const refunds = await recentRefunds(db, config, since);
  const disputes = await recentDisputes(db, config, since);
  const olderPending = await db('stripe_refunds')
    .where({ status: 'pending' })
    .where('created_at', '<', since)
    .pluck<string[]>('id');
  const olderOpen = await db('stripe_disputes')
    .whereNotIn('status', closedDisputes)
    .where('created_at', '<', since)
    .pluck<string[]>('id');
  const failed =
    (await each('refund', refunds, (refund) => applyRefund(db, refund))) +
    (await each('dispute', disputes, (dispute) => applyDispute(db, dispute))) +
    (await each('refund', olderPending, async (id) => applyRefund(db, await retrieveRefund(db, config, id)))) +
    (await each('dispute', olderOpen, async (id) => applyDispute(db, await retrieveDispute(db, config, id))));
  const applied = refunds.length + disputes.length + olderPending.length + olderOpen.length - failed;
  return { applied, failed };
}
