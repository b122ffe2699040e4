import type { Knex } from 'knex';
import { accountIds } from './accounts.ts';
import type { BookedOrder } from './book.ts';
import { DisputeDecided, NothingToBear } from './errors.ts';

// A dispute (chargeback): Stripe takes the disputed amount back from the newspaper's balance and
// gives it to the customer's bank, and returns it when the newspaper wins. Until staff decide, the
// newspaper bears it; when they decide the vendor bears it, the vendor's credit pays the newspaper
// back. A dispute won returns the money to whoever bore it. The database allows each kind once per
// order (Stripe allows one dispute per charge), so a repeated or reordered event cannot book twice.

export type Bearer = 'vendor' | 'newspaper';

/** What the books know of a dispute: its amount, who bears it, when Stripe took it and gave it back. */
export interface DisputeBooking {
  amount: number;
  /** Null until staff decide. */
  bearer: Bearer | null;
  withdrawn_at: Date | null;
  reinstated_at: Date | null;
}

/** A dispute as Stripe states it now: its status and the balance transactions that moved its money. */
export interface StripeDisputeState {
  status: string;
  balanceTransactions: readonly { amount: number; fee: number }[];
}

/** An inquiry (Stripe's `warning_…` statuses) is a dispute Stripe has taken no money for: nothing to book. */
const isInquiry = (status: string) => status.startsWith('warning_');

/** Stripe's dispute fee: the fees of the withdrawals among the dispute's balance transactions. */
export const disputeFee = (balanceTransactions: StripeDisputeState['balanceTransactions']) =>
  balanceTransactions.filter((bt) => bt.amount < 0).reduce((sum, bt) => sum + bt.fee, 0);

/**
 * Books what Stripe did to a dispute, from its state now, inside the caller's transaction (which holds
 * the order's lock): the withdrawal once, unless it is an inquiry, and the return once when it is won.
 * Answers what this call booked, for the caller to stamp on the dispute and protocol.
 */
export async function bookDisputeState(
  trx: Knex.Transaction,
  order: BookedOrder,
  dispute: DisputeBooking,
  stripe: StripeDisputeState,
): Promise<{ withdrawal: { fee: number } | null; won: boolean }> {
  let withdrawal: { fee: number } | null = null;
  if (!dispute.withdrawn_at && !isInquiry(stripe.status)) {
    withdrawal = { fee: disputeFee(stripe.balanceTransactions) };
    await bookDisputeWithdrawal(trx, order, dispute.amount, withdrawal.fee);
  }
  const withdrawn = dispute.withdrawn_at !== null || withdrawal !== null;
  const won = stripe.status === 'won' && withdrawn && !dispute.reinstated_at;
  if (won) await bookDisputeWon(trx, order, dispute.amount, dispute.bearer === 'vendor');
  return { withdrawal, won };
}

/**
 * Staff decide who bears a dispute's money, once, inside the caller's transaction (which holds the
 * dispute's and the order's locks): the vendor's credit pays the newspaper back, or the newspaper
 * keeps bearing it (nothing more to book). Answers false when that decision stands already; refuses
 * the other decision once one stands, and a dispute without money to bear.
 */
export async function decideDisputeBearer(
  trx: Knex.Transaction,
  order: BookedOrder,
  dispute: DisputeBooking,
  bearer: Bearer,
  staff: string,
): Promise<boolean> {
  if (dispute.bearer === bearer) return false;
  if (dispute.bearer) throw new DisputeDecided(dispute.bearer);
  if (!dispute.withdrawn_at) throw new NothingToBear('not_withdrawn');
  if (dispute.reinstated_at) throw new NothingToBear('won');
  if (bearer === 'vendor') await bookDisputeOnVendor(trx, order, dispute.amount, staff);
  return true;
}

/**
 * Stripe withdrew `amount` and its dispute fee: newspaper → customers, and the fee newspaper →
 * provider (Stripe keeps it whatever the outcome; the newspaper bears it, like the card fee it covers).
 */
async function bookDisputeWithdrawal(
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

/** The vendor bears the dispute: vendor → newspaper, off the vendor's credit. */
async function bookDisputeOnVendor(
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
async function bookDisputeWon(
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
