import type { Knex } from 'knex';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { log } from '../../foundations/log.ts';
import { heldFeeLast4 } from './cards.ts';
import { chargeTransaction, type Charge } from './objects.ts';
import { getObject, insertObject, onAccount, saveObject } from './store.ts';
import { deliverDue, queueEvents, stripeEvent, type StripeEvent } from './webhooks.ts';

// Live Stripe often has no balance transaction on a charge when the payment completes: the fee
// follows with `charge.updated`. The sandbox does the same by default, so the shop's code for a
// late fee runs on every purchase, not only in production.

/** Books the fee of `charge` (locked by the caller) and answers Stripe's event for it. */
export async function bookFee(trx: Knex.Transaction, charge: Charge): Promise<StripeEvent> {
  const txn = chargeTransaction(charge);
  await insertObject(trx, txn);
  charge.balance_transaction = txn.id;
  await saveObject(trx, charge);
  return stripeEvent('charge.updated', charge, { balance_transaction: null });
}

/** Books the fee of the charge unless it already has one, and sends `charge.updated`. */
async function bookFeeNow(db: Db, config: Config, chargeId: string): Promise<void> {
  const booked = await db.transaction(async (trx) => {
    const charge = await getObject<Charge>(trx, 'charge', chargeId, { lock: true });
    if (charge.balance_transaction) return false;
    await queueEvents(trx, [await bookFee(trx, charge)]);
    return true;
  });
  if (booked) deliverDue(db, config);
}

/** After a payment committed: its fee a moment later (SANDBOX_FEE_DELAY_MS), in the background. */
export function bookFeeLater(db: Db, config: Config, chargeId: string): void {
  setTimeout(() => {
    bookFeeNow(db, config, chargeId).catch((error) =>
      log.warn('sandbox fee could not be booked', { charge: chargeId, error: String(error) }),
    );
  }, config.sandboxFeeDelayMs).unref();
}

/** At start: the fees that a stopped process owed (all charges past the delay without one, but the held test card's). */
export async function bookOverdueFees(db: Db, config: Config): Promise<void> {
  const rows = await db('stripe_sandbox_objects')
    .where({ type: 'charge' })
    .whereRaw(`data->>'balance_transaction' is null`)
    .whereRaw(`coalesce(data->'payment_method_details'->'card'->>'last4', '') <> ?`, [heldFeeLast4])
    .where('created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [config.sandboxFeeDelayMs / 1000]))
    .select<{ id: string; account: string | null }[]>('id', 'account');
  for (const { id, account } of rows) await onAccount(account, () => bookFeeNow(db, config, id));
}
