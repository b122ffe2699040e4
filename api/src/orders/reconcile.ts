import type { Knex } from 'knex';
import { tryJobLock } from '../db/connection.ts';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import { expireCheckoutSession } from '../stripe/adapter.ts';
import { forgetOldRates } from './rate-limit.ts';
import { applySession, settleOrder } from './settle.ts';
import { sweepStripePayouts } from '../stripe-balance/bank-transfers.ts';
import { sweepStripeChanges } from './stripe-sweep.ts';

// The safety net under the webhook: a lost or refused event must not leave a paid order pending.
// Every minute the job asks Stripe about orders pending for a few minutes and about paid orders
// whose fee is still unknown, and closes the sessions of orders past their time; then it sweeps
// Stripe's recent refunds, disputes and fraud warnings, and its payouts (stripe-sweep.ts,
// stripe-balance/bank-transfers.ts), each sweep on its own, so one that fails does not skip the other.

/** Identifies this job's advisory lock among all of the database's. */
const lockKey = 4_004_001;
/** A webhook normally arrives within seconds; after this the job asks Stripe itself. */
const pendingGrace = `interval '3 minutes'`;
/** How long the job keeps asking for a fee that has not arrived. */
const feeWindow = `interval '3 days'`;
/**
 * An order asked about is left alone at least this long, so overlapping runs never ask twice; then
 * for a tenth of its age, so an order Stripe keeps giving the same answer about (a session that will
 * not expire, a fee that does not come) is asked about ever more rarely instead of every minute.
 */
const recheckAfter = `greatest(interval '50 seconds', (now() - coalesce(paid_at, created_at)) / 10)`;
/** The run at start waits this long for the server to listen (the local sandbox answers there). */
const startDelayMs = 1000;
const batchSize = 200;
/** The longest a Stripe Checkout Session stays open: an older pending order cannot have been paid just now. */
const sessionLifetime = `interval '24 hours'`;

/**
 * Claims the orders due for a check: under the advisory lock one instance at a time picks them and
 * stamps `checked_at`, so another instance (or an overlapping run) finds them taken. The lock is
 * held only for the claim: Stripe is asked outside any transaction (PGlite has one connection, and
 * the sandbox answering Stripe's calls needs it).
 */
async function claimDueOrders(db: Knex, { startedAt }: { startedAt?: Date } = {}): Promise<number[]> {
  return db.transaction(async (trx) => {
    if (!(await tryJobLock(trx, lockKey))) return [];
    // At start no webhook may be on its way for an order paid before the stop (or crash): the orders
    // placed before this process started are asked about at once, the newest first, not after the grace.
    const due = trx('orders')
      .select('id')
      .where((q) => {
        void q
          .where((pending) => {
            void pending
              .where('status', 'pending')
              .where('created_at', '<', startedAt ?? trx.raw(`now() - ${pendingGrace}`))
              .where('created_at', '>', trx.raw(startedAt ? `now() - ${sessionLifetime}` : `'-infinity'`));
          })
          .orWhere((paid) => {
            // Refunded ones too: Stripe keeps its fee on a refund.
            void paid
              .whereIn('status', ['paid', 'refunded'])
              .whereNull('fee')
              .where('paid_at', '<', trx.raw(`now() - ${pendingGrace}`))
              .where('paid_at', '>', trx.raw(`now() - ${feeWindow}`));
          });
      })
      .where((q) => {
        void q.whereNull('checked_at').orWhere('checked_at', '<', trx.raw(`now() - ${recheckAfter}`));
      })
      .orderBy('id', startedAt ? 'desc' : 'asc')
      .limit(batchSize);
    const claimed = await trx('orders')
      .whereIn('id', due)
      .update({ checked_at: trx.fn.now() })
      .returning<{ id: number }[]>('id');
    await forgetOldRates(trx);
    return claimed.map((row) => row.id);
  });
}

/** Settles one order from Stripe's answer, and closes its session when its time is up. */
async function reconcileOrder(db: Knex, config: Config, orderId: number): Promise<void> {
  const order = await settleOrder(db, config, orderId);
  if (!order || order.status !== 'pending' || new Date(order.expires_at).getTime() > Date.now()) return;
  if (!order.stripe_session_id) {
    // Stripe never gave this order a session (the process stopped in between): nothing can be paid.
    await db('orders').where({ id: orderId, status: 'pending' }).update({ status: 'expired', updated_at: db.fn.now() });
    return;
  }
  let session;
  try {
    session = await expireCheckoutSession(db, config, order.stripe_session_id);
  } catch {
    // Stripe refuses to expire a session that completed meanwhile; its fresh state decides.
    await settleOrder(db, config, orderId);
    return;
  }
  await applySession(db, config, orderId, session);
}

/**
 * One run of the job; answers the ids of the orders it asked Stripe about. `startedAt`: the run at a
 * process's start, which asks about every order placed before it, however recent.
 */
export async function reconcilePending(
  db: Knex,
  config: Config,
  { startedAt }: { startedAt?: Date } = {},
): Promise<number[]> {
  const claimed = await claimDueOrders(db, { startedAt });
  for (const id of claimed) {
    try {
      await reconcileOrder(db, config, id);
    } catch (error) {
      log.warn('reconciling an order failed', { order: id, error: String((error as Error)?.message ?? error) });
    }
  }
  return claimed;
}

/**
 * One run of the job: the orders due (`startedAt`: as at a process's start), then the sweeps of
 * Stripe's changes and of its payouts, each on its own. Failures are logged, never thrown.
 */
export async function runReconciliation(
  db: Knex,
  config: Config,
  { startedAt }: { startedAt?: Date } = {},
): Promise<void> {
  const steps = [
    ['orders', () => reconcilePending(db, config, { startedAt })],
    ['refunds, disputes and fraud warnings', () => sweepStripeChanges(db, config)],
    ['payouts', () => sweepStripePayouts(db, config)],
  ] as const;
  for (const [what, step] of steps) {
    try {
      await step();
    } catch (error) {
      log.error(`reconciliation of ${what} failed`, { error: String((error as Error)?.message ?? error) });
    }
  }
}

/**
 * Runs the job every RECONCILE_INTERVAL_SECONDS (a minute) in the background, for as long as the
 * process runs. Every API process may run it: the claim hands each due order to one of them.
 */
export function startReconciliation(db: Knex, config: Config): { stop(): void } {
  let running = false;
  const startedAt = new Date();
  const runOnce = async (options: { startedAt?: Date } = {}) => {
    if (running) return;
    running = true;
    try {
      await runReconciliation(db, config, options);
    } finally {
      running = false;
    }
  };
  // A webhook lost to a crash (or sent while no process listened) is not repeated soon: the first
  // run comes right after the start (once the server listens, as the sandbox needs it), not a minute later.
  const first = setTimeout(() => void runOnce({ startedAt }), startDelayMs).unref();
  const timer = setInterval(() => void runOnce(), config.reconcileIntervalSeconds * 1000);
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
