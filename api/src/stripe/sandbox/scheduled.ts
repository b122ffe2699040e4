import type { Knex } from 'knex';
import type { CardOutcome } from './cards.ts';
import { newId, unixNow, type Charge } from './objects.ts';
import { insertObject, type StripeObject } from './store.ts';

// What the banks will do some time later, written down inside the transaction of what causes it
// (a payment, a payout); later.ts does it when it is due.

/** How long after the payment the bank acts. */
export const bankDelaySeconds = 60;

export type BankAction = Extract<CardOutcome, 'dispute' | 'multiple_disputes' | 'inquiry' | 'early_fraud_warning'>;

/** What the newspaper's bank does with a payout: it leaves for the bank, then arrives or fails with a code. */
export type PayoutStep = { action: 'payout_in_transit' } | { action: 'payout_arrives'; failureCode: string | null };

export type Scheduled = StripeObject & {
  object: 'sandbox_scheduled';
  due: number;
} & ({ charge: string; action: BankAction } | ({ payout: string } & PayoutStep));

/** Inside the payout's transaction: a step of `payout` due at `due`. */
export async function schedulePayoutStep(
  trx: Knex.Transaction,
  payout: string,
  due: number,
  step: PayoutStep,
): Promise<void> {
  await insertObject(trx, { id: newId('sched_'), object: 'sandbox_scheduled', due, payout, ...step });
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
