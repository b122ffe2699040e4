import type { Knex } from 'knex';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { log } from '../../log.ts';
import type { CardOutcome } from './cards.ts';
import { openDispute, warnOfFraud } from './lifecycle.ts';
import { newId, unixNow, type Charge } from './objects.ts';
import { deleteObject, getObject, insertObject, listObjects, type StripeObject } from './store.ts';
import { deliverDue, queueEvents, type StripeEvent } from './webhooks.ts';

// What the card's bank does some time after a payment: Stripe's test cards for disputes and early
// fraud warnings (https://docs.stripe.com/testing#disputes) make them after the payment, never with
// it, so their events can reach the shop before `checkout.session.completed` does. The sandbox
// keeps each as a record due on its clock; the running server does what is due every few seconds,
// and tests hurry the clock (POST /stripe-sandbox/clock/advance) instead of waiting.

/** How long after the payment the bank acts. */
export const bankDelaySeconds = 60;

/** How many disputes the multiple-disputes card gets (Stripe says "disputed multiple times"). */
const disputesOfMultipleCard = 2;

type BankAction = Extract<CardOutcome, 'dispute' | 'multiple_disputes' | 'inquiry' | 'early_fraud_warning'>;

interface Scheduled extends StripeObject {
  object: 'sandbox_scheduled';
  due: number;
  charge: string;
  action: BankAction;
}

const isBankAction = (outcome: CardOutcome): outcome is BankAction =>
  ['dispute', 'multiple_disputes', 'inquiry', 'early_fraud_warning'].includes(outcome);

/** Inside the payment's transaction: what the card's bank will do to `charge` later, if anything. */
export async function scheduleBankAction(trx: Knex.Transaction, charge: Charge, outcome: CardOutcome): Promise<void> {
  if (!isBankAction(outcome)) return;
  const scheduled: Scheduled = {
    id: newId('sched_'),
    object: 'sandbox_scheduled',
    due: unixNow() + bankDelaySeconds,
    charge: charge.id,
    action: outcome,
  };
  await insertObject(trx, scheduled);
}

async function act(trx: Knex.Transaction, scheduled: Scheduled): Promise<StripeEvent[]> {
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
 * Does what the banks have due (everything scheduled when `all`, a test's "later"), each in a
 * transaction of its own with its events; answers how many it did. A record another process is
 * doing is skipped (it is gone once that one commits).
 */
export async function doBankActions(db: Db, config: Config, all = false): Promise<number> {
  const now = unixNow();
  const due = (await listObjects<Scheduled>(db, 'sandbox_scheduled'))
    .filter((scheduled) => all || scheduled.due <= now)
    .sort((a, b) => a.due - b.due);
  let done = 0;
  for (const { id } of due) {
    const acted = await db.transaction(async (trx) => {
      const row = await trx('stripe_sandbox_objects')
        .where({ id, type: 'sandbox_scheduled' })
        .forUpdate()
        .skipLocked()
        .first<{ data: Scheduled } | undefined>('data');
      if (!row) return false;
      await queueEvents(trx, await act(trx, row.data));
      await deleteObject(trx, row.data);
      return true;
    });
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
