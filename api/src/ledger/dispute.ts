import type { Knex } from 'knex';
import { accountIds } from './accounts.ts';
import type { BookedOrder } from './book.ts';
import { DisputeDecided, NothingToBear } from './errors.ts';
import type { Bearer } from './kinds.ts';

// A dispute (chargeback): Stripe takes the disputed amount back from the newspaper's balance and
// gives it to the customer's bank, and returns it when the newspaper wins. A charge may have several
// disputes, and each moves its money by balance transactions: the withdrawal with Stripe's dispute
// fee, a fee for countering it, the reinstatement of a dispute won, a fee returned with it
// (https://docs.stripe.com/disputes/how-disputes-work: "If the dispute is resolved in your favor …
// the disputed amount and any related fees are returned"). Every balance transaction is booked as it
// is, once (the database allows each once per kind), whatever order Stripe's events come in: its
// amount newspaper ↔ customers, its fee newspaper ↔ provider. An inquiry has none, so it books nothing.
//
// Until staff decide, the newspaper bears a dispute; when they decide the vendor bears it, the
// vendor's credit pays the newspaper back, but never more than the vendor still holds of the sale:
// what was refunded or borne in another dispute of the order was taken from the credit once already.
// A dispute won returns the vendor's part to the vendor.

/** What the books know of a dispute. */
export interface DisputeBooking {
  id: string;
  amount: number;
  /** Null until staff decide. */
  bearer: Bearer | null;
  /** What the vendor bore of it (staff decided the vendor bears it). */
  vendor_amount: number;
  withdrawn_at: Date | null;
  reinstated_at: Date | null;
  /** Booked before balance transactions named their rows: its withdrawal (and return) count as booked. */
  booked_unnamed: boolean;
}

/** A balance transaction of a dispute: its amount (negative: taken) and Stripe's fee (negative: returned). */
export interface DisputeTransaction {
  id: string;
  amount: number;
  fee: number;
}

/** A dispute as Stripe states it now: the balance transactions that moved its money. */
export interface StripeDisputeState {
  balanceTransactions: readonly DisputeTransaction[];
}

/** Stripe's dispute fees among the balance transactions (the fees it took, less those it returned). */
export const disputeFee = (balanceTransactions: readonly DisputeTransaction[]) =>
  balanceTransactions.reduce((sum, bt) => sum + bt.fee, 0);

/** What a call booked, for the caller to stamp on the dispute and protocol. */
export interface DisputeBooked {
  /** Money was taken (first time): with the fees of this call. */
  withdrawal: { fee: number } | null;
  /** Money came back (first time). */
  won: boolean;
}

/**
 * Books what Stripe did to a dispute that the books have not booked yet, inside the caller's
 * transaction (which holds the order's lock).
 */
export async function bookDisputeState(
  trx: Knex.Transaction,
  order: BookedOrder,
  dispute: DisputeBooking,
  stripe: StripeDisputeState,
): Promise<DisputeBooked> {
  const unbooked = stripe.balanceTransactions.filter(
    (bt) =>
      !(
        dispute.booked_unnamed &&
        ((bt.amount < 0 && dispute.withdrawn_at) || (bt.amount > 0 && dispute.reinstated_at))
      ),
  );
  if (!unbooked.length) return { withdrawal: null, won: false };
  const known = new Set<string>(
    await trx('ledger_rows')
      .whereIn(
        'stripe_ref',
        unbooked.map((bt) => bt.id),
      )
      .pluck('stripe_ref'),
  );
  const fresh = unbooked.filter((bt) => !known.has(bt.id));
  if (!fresh.length) return { withdrawal: null, won: false };
  const accounts = await accountIds(trx, order.vendor_id);
  const rows: Record<string, unknown>[] = [];
  const row = (kind: string, stripeRef: string, sender: number, receiver: number, amount: number) =>
    rows.push({
      sender_id: sender,
      receiver_id: receiver,
      amount,
      kind,
      order_id: order.id,
      stripe_ref: stripeRef,
      authorised_by: 'Stripe',
    });
  let taken = false;
  let returned = false;
  for (const bt of fresh) {
    if (bt.amount < 0) row('dispute', bt.id, accounts.orga, accounts.customers, -bt.amount);
    if (bt.amount > 0) row('dispute_won', bt.id, accounts.customers, accounts.orga, bt.amount);
    if (bt.fee > 0) row('dispute_fee', bt.id, accounts.orga, accounts.provider, bt.fee);
    if (bt.fee < 0) row('dispute_fee_returned', bt.id, accounts.provider, accounts.orga, -bt.fee);
    taken ||= bt.amount < 0;
    returned ||= bt.amount > 0;
  }
  // What the vendor bore goes back to the vendor, once, when the money comes back.
  if (returned && dispute.vendor_amount > 0)
    row('dispute_won', dispute.id, accounts.orga, accounts.vendor, dispute.vendor_amount);
  await trx('ledger_rows').insert(rows);
  return {
    withdrawal: taken && !dispute.withdrawn_at ? { fee: disputeFee(fresh) } : null,
    won: returned && !dispute.reinstated_at,
  };
}

/**
 * Staff decide who bears a dispute's money, once, inside the caller's transaction (which holds the
 * dispute's and the order's locks): the vendor's credit pays the newspaper back what the vendor still
 * holds of the sale (at most the dispute), or the newspaper keeps bearing it (nothing more to book).
 * Answers what the vendor bears (0 for the newspaper), or null when that decision stands already;
 * refuses the other decision once one stands, and a dispute without money for that bearer to bear.
 */
export async function decideDisputeBearer(
  trx: Knex.Transaction,
  order: BookedOrder,
  dispute: DisputeBooking,
  bearer: Bearer,
  staff: string,
): Promise<number | null> {
  if (dispute.bearer === bearer) return null;
  if (dispute.bearer) throw new DisputeDecided(dispute.bearer);
  if (!dispute.withdrawn_at) throw new NothingToBear('not_withdrawn');
  if (dispute.reinstated_at) throw new NothingToBear('won');
  if (bearer === 'newspaper') return 0;
  const held = await heldByVendor(trx, order.id, dispute.id);
  const amount = Math.min(dispute.amount, held);
  if (amount <= 0) throw new NothingToBear('refunded');
  const accounts = await accountIds(trx, order.vendor_id);
  await trx('ledger_rows').insert({
    sender_id: accounts.vendor,
    receiver_id: accounts.orga,
    amount,
    kind: 'dispute_vendor',
    order_id: order.id,
    stripe_ref: dispute.id,
    authorised_by: staff,
  });
  return amount;
}

/**
 * What the vendor still holds of an order's payment: what the customer paid less what refunds that
 * stand gave back and what the vendor bore in the order's other disputes.
 */
async function heldByVendor(trx: Knex.Transaction, orderId: number, disputeId: string): Promise<number> {
  const { rows } = await trx.raw<{ rows: { held: string | number }[] }>(
    `select o.amount_total - o.amount_refunded
       - coalesce((select sum(d.vendor_amount) from stripe_disputes d where d.order_id = o.id and d.id <> ?), 0) as held
     from orders o where o.id = ?`,
    [disputeId, orderId],
  );
  return Number(rows[0]?.held ?? 0);
}
