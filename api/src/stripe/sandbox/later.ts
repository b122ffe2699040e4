import type { Knex } from 'knex';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { log } from '../../foundations/log.ts';
import { payoutArrives, payoutInTransit } from './balance.ts';
import { openDispute, warnOfFraud } from './lifecycle.ts';
import { unixNow, type Charge } from './objects.ts';
import type { PayoutStep, Scheduled } from './scheduled.ts';
import { deleteObject, getObject, onAccount } from './store.ts';
import { deliverDue, queueEvents, type StripeEvent } from './webhooks.ts';

// What the banks do some time later: Stripe's test cards for disputes and early fraud warnings
// (https://docs.stripe.com/testing#disputes) make them after the payment, never with it, so their
// events can reach the shop before `checkout.session.completed` does; and a payout goes to the
// newspaper's bank and arrives (or fails) days after Stripe created it (balance.ts). The sandbox
// keeps each as a record due on its clock; the running server does what is due every few seconds,
// and tests hurry the clock (POST /stripe-sandbox/clock/advance) instead of waiting.

/** How many disputes the multiple-disputes card gets (Stripe says "disputed multiple times"). */
const disputesOfMultipleCard = 2;

type ScheduledPayoutStep = Scheduled & { payout: string } & PayoutStep;

const isPayoutStep = (scheduled: Scheduled): scheduled is ScheduledPayoutStep =>
  scheduled.action === 'payout_in_transit' || scheduled.action === 'payout_arrives';

async function act(trx: Knex.Transaction, scheduled: Scheduled): Promise<StripeEvent[]> {
  if (isPayoutStep(scheduled))
    return scheduled.action === 'payout_in_transit'
      ? payoutInTransit(trx, scheduled.payout)
      : payoutArrives(trx, scheduled.payout, scheduled.failureCode);
  const charge = await getObject<Charge>(trx, 'charge', scheduled.charge, { lock: true });
  switch (scheduled.action) {
    case 'dispute':
    case 'inquiry':
      return (await openDispute(trx, charge, { inquiry: scheduled.action === 'inquiry' })).events;
    case 'multiple_disputes': {
      const reasons = ['fraudulent', 'product_not_received'];
      const events: StripeEvent[] = [];
      for (let i = 0; i < disputesOfMultipleCard; i++)
        events.push(...(await openDispute(trx, charge, { reason: reasons[i % reasons.length]! })).events);
      return events;
    }
    case 'early_fraud_warning':
      return warnOfFraud(trx, charge);
  }
}

/**
 * Does what the banks have due (everything scheduled when `all`, a test's "later"; only the steps
 * of one payout when `payout` is given), each in a transaction of its own with its events, oldest
 * due first; answers how many it did. A record another process is doing is skipped (it is gone
 * once that one commits).
 */
export async function doBankActions(db: Db, config: Config, all = false, payout?: string): Promise<number> {
  const now = unixNow();
  // The banks of every account: each record is done on the account it was made on.
  const records = await db('stripe_sandbox_objects')
    .where({ type: 'sandbox_scheduled' })
    .select<{ data: Scheduled; account: string | null }[]>('data', 'account');
  const due = records
    .filter(({ data }) => all || data.due <= now)
    .filter(({ data }) => !payout || (isPayoutStep(data) && data.payout === payout))
    .sort((a, b) => a.data.due - b.data.due);
  let done = 0;
  for (const { data, account } of due) {
    const acted = await onAccount(account, () =>
      db.transaction(async (trx) => {
        const row = await trx('stripe_sandbox_objects')
          .where({ id: data.id, type: 'sandbox_scheduled' })
          .forUpdate()
          .skipLocked()
          .first<{ data: Scheduled } | undefined>('data');
        if (!row) return false;
        await queueEvents(trx, await act(trx, row.data));
        await deleteObject(trx, row.data);
        return true;
      }),
    );
    if (acted) done++;
  }
  if (done) deliverDue(db, config);
  return done;
}

const roundMs = 5_000;

/** The running server's clock for the banks: what is due is done every few seconds. */
export function startBankActions(db: Db, config: Config): { stop(): void } {
  const timer = setInterval(() => {
    doBankActions(db, config).catch((error) =>
      log.warn('sandbox bank actions could not be done', { error: String(error) }),
    );
  }, roundMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
