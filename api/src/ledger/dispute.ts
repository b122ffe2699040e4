import type { Knex } from 'knex';
import { accountIds } from './accounts.ts';
import type { BookedOrder } from './book.ts';

// A dispute (chargeback): Stripe takes the disputed amount back from the newspaper's balance and
// gives it to the customer's bank, and returns it when the newspaper wins. Until staff decide, the
// newspaper bears it; when they decide the vendor bears it, the vendor's credit pays the newspaper
// back. A dispute won returns the money to whoever bore it. The database allows each kind once per
// order (Stripe allows one dispute per charge), so a repeated or reordered event cannot book twice.

/**
 * Stripe withdrew `amount` and its dispute fee: newspaper → customers, and the fee newspaper →
 * provider (Stripe keeps it whatever the outcome; the newspaper bears it, like the card fee it covers).
 */
export async function bookDisputeWithdrawal(
  trx: Knex.Transaction,
  order: BookedOrder,
  amount: number,
  fee: number,
): Promise<void> {
  const accounts = await accountIds(trx, order.vendor_id);
  const row = { order_id: order.id, authorised_by: 'Stripe' };
  const rows = [{ ...row, sender_id: accounts.orga, receiver_id: accounts.customers, amount, kind: 'dispute' }];
  if (fee > 0) {
    rows.push({ ...row, sender_id: accounts.orga, receiver_id: accounts.provider, amount: fee, kind: 'dispute_fee' });
  }
  await trx('ledger_rows').insert(rows);
}

/** Staff decided the vendor bears the dispute: vendor → newspaper, off the vendor's credit. */
export async function bookDisputeOnVendor(
  trx: Knex.Transaction,
  order: BookedOrder,
  amount: number,
  staff: string,
): Promise<void> {
  const accounts = await accountIds(trx, order.vendor_id);
  await trx('ledger_rows').insert({
    sender_id: accounts.vendor,
    receiver_id: accounts.orga,
    amount,
    kind: 'dispute_vendor',
    order_id: order.id,
    authorised_by: staff,
  });
}

/** The dispute was won and Stripe returned `amount`: customers → whoever bore it. */
export async function bookDisputeWon(
  trx: Knex.Transaction,
  order: BookedOrder,
  amount: number,
  borneByVendor: boolean,
): Promise<void> {
  const accounts = await accountIds(trx, order.vendor_id);
  await trx('ledger_rows').insert({
    sender_id: accounts.customers,
    receiver_id: borneByVendor ? accounts.vendor : accounts.orga,
    amount,
    kind: 'dispute_won',
    order_id: order.id,
    authorised_by: 'Stripe',
  });
}
