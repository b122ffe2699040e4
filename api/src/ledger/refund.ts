import type { Knex } from 'knex';
import { NotRefundable, RefundExceedsOrder } from './errors.ts';
import { orderKinds } from './kinds.ts';

// A refund gives the customer back a part of what they paid, or all of it, and Stripe may make
// several for one payment (ours, or in its Dashboard). The split, as docs/books.md states it for the
// bookkeeper: a refund of R cents takes back from each sale and the tip of the order the share of R
// that the row holds of what is still unrefunded of the order (to the cent, the remainder cents to
// the rows with the largest fractions, earlier rows first), and the newspaper gives back the same
// share of each licence share that is still unrefunded; the card fee and its cover stay booked
// (Stripe keeps its fee on a refund). A refund of everything that is left therefore reverses every
// row exactly. Each part is a 'refund' row that names the row it takes back and the Stripe refund.
// A refund that Stripe reports failed or cancelled after it succeeded gives back what its rows took,
// by a 'refund_failed' row for each. When the vendor was already paid out, a refund makes the credit
// negative (a debt that the next sales pay off).

/** An order as the refund rules read it. */
export interface RefundedOrder {
  id: number;
  status: string;
  amount_total: number;
  amount_refunded: number;
}

/** A refund as Stripe reports it. */
export interface StripeRefundState {
  id: string;
  status: string | null;
  amount: number;
}

/**
 * Refuses a refund of an order that is not paid by card (there is no payment to give back), and of a
 * payment that a dispute keeps from being refunded (a chargeback, or an inquiry Stripe no longer
 * reports refundable): Stripe refuses those (`charge_disputed`), the dispute decides.
 */
export function assertRefundable(
  order: { status: string; stripe_payment_intent_id: string | null },
  disputed = false,
): void {
  if (order.status !== 'paid' || !order.stripe_payment_intent_id) throw new NotRefundable(order.status);
  if (disputed) throw new NotRefundable('disputed');
}

/** A row of the order that a refund takes a part of, with what of it is not refunded yet. */
export interface RefundableRow {
  id: number;
  kind: 'sale' | 'tip' | 'licence';
  amount: number;
  remaining: number;
}

/**
 * The split of a refund of `amount` over the order's rows (the rule above): the cents each row gives
 * back, by row id. Rows the customer paid (sales, tip) give back `amount` exactly; licence shares
 * their share of it, rounded down, and all that is left of them with the last refund.
 */
export function splitRefund(rows: readonly RefundableRow[], amount: number): Map<number, number> {
  const paid = rows.filter((row) => row.kind !== 'licence' && row.remaining > 0);
  const open = paid.reduce((sum, row) => sum + row.remaining, 0);
  if (amount > open) throw new RefundExceedsOrder(amount, open);
  const parts = new Map<number, number>();
  if (amount <= 0) return parts;
  const exact = paid.map((row) => ({ row, share: (row.remaining * amount) / open }));
  for (const { row, share } of exact) parts.set(row.id, Math.floor(share));
  let left = amount - [...parts.values()].reduce((sum, cents) => sum + cents, 0);
  const byFraction = [...exact].sort(
    (a, b) => b.share - Math.floor(b.share) - (a.share - Math.floor(a.share)) || a.row.id - b.row.id,
  );
  for (const { row } of byFraction) {
    if (left === 0) break;
    parts.set(row.id, parts.get(row.id)! + 1);
    left--;
  }
  for (const row of rows) {
    if (row.kind !== 'licence' || row.remaining <= 0) continue;
    parts.set(row.id, amount === open ? row.remaining : Math.floor((row.remaining * amount) / open));
  }
  for (const [id, cents] of parts) if (cents === 0) parts.delete(id);
  return parts;
}

interface BookedRow {
  id: number;
  kind: RefundableRow['kind'];
  sender_id: number;
  receiver_id: number;
  amount: number;
  remaining: number;
  order_entry_id: number;
  item_id: number | null;
  quantity: number | null;
  unit_price: number | null;
}

/**
 * Books a refund of `refund.amount` (all that is unrefunded when left out) by the split rule, inside
 * the caller's transaction (which holds the order's lock). The database allows one refund row per
 * Stripe refund and order entry. Answers the amount booked.
 */
export async function bookRefund(
  trx: Knex.Transaction,
  orderId: number,
  refund: { id: string; amount?: number },
  authorisedBy: string,
): Promise<number> {
  const booked = await trx.raw<{ rows: BookedRow[] }>(
    `select r.id, r.kind, r.sender_id, r.receiver_id, r.amount, r.order_entry_id, r.item_id, r.quantity, r.unit_price,
       (r.amount - coalesce((
         select sum(f.amount) from ledger_rows f
         where f.reversal_of = r.id and f.kind = 'refund'
           and not exists (select 1 from ledger_rows g where g.reversal_of = f.id and g.kind = 'refund_failed')
       ), 0))::bigint as remaining
     from ledger_rows r where r.order_id = ? and r.kind in (${orderKinds.map(() => '?').join(', ')})
     order by r.id`,
    [orderId, ...orderKinds],
  );
  const rows = booked.rows.map((row) => ({ ...row, amount: Number(row.amount), remaining: Number(row.remaining) }));
  const open = rows.filter((row) => row.kind !== 'licence').reduce((sum, row) => sum + row.remaining, 0);
  const amount = refund.amount ?? open;
  const parts = splitRefund(rows, amount);
  if (!parts.size) return 0;
  await trx('ledger_rows').insert(
    rows
      .filter((row) => parts.has(row.id))
      .map((row) => {
        const cents = parts.get(row.id)!;
        // The pieces go back with a whole row only: a part of a sale takes back money, not copies.
        const whole = cents === row.amount;
        return {
          sender_id: row.receiver_id,
          receiver_id: row.sender_id,
          amount: cents,
          kind: 'refund',
          order_id: orderId,
          order_entry_id: row.order_entry_id,
          item_id: row.item_id,
          quantity: whole ? row.quantity : null,
          unit_price: whole ? row.unit_price : null,
          reversal_of: row.id,
          stripe_ref: refund.id,
          authorised_by: authorisedBy,
        };
      }),
  );
  return amount;
}

/** Gives back what a refund's rows took, once each: the refund failed or was cancelled after it succeeded. */
async function bookRefundFailed(trx: Knex.Transaction, orderId: number, refundId: string): Promise<void> {
  await trx.raw(
    `insert into ledger_rows (sender_id, receiver_id, amount, kind, order_id, order_entry_id, item_id, quantity,
       unit_price, reversal_of, stripe_ref, authorised_by)
     select receiver_id, sender_id, amount, 'refund_failed', order_id, order_entry_id, item_id, quantity, unit_price,
       id, stripe_ref, 'Stripe'
     from ledger_rows r where r.order_id = ? and r.kind = 'refund' and r.stripe_ref = ?
       and not exists (select 1 from ledger_rows g where g.reversal_of = r.id and g.kind = 'refund_failed')
     order by r.id`,
    [orderId, refundId],
  );
}

/** Stripe's refund states after which the money did not reach the customer. */
const undone = new Set(['failed', 'canceled']);

/**
 * Brings the books in line with a refund as Stripe reports it, inside the caller's transaction (which
 * holds the order's lock): a refund that succeeded is booked once (`bookedAmount` is what the books
 * hold of it); one that failed or was cancelled after it was booked is given back. Pending refunds
 * book nothing yet. Answers the change of the order's refunded amount (0: nothing booked).
 */
export async function bookStripeRefund(
  trx: Knex.Transaction,
  order: RefundedOrder,
  refund: StripeRefundState,
  bookedAmount: number,
  authorisedBy: string,
): Promise<number> {
  if (refund.status === 'succeeded' && bookedAmount === 0) {
    if (order.status !== 'paid') return 0;
    return bookRefund(trx, order.id, { id: refund.id, amount: refund.amount }, authorisedBy);
  }
  if (refund.status !== null && undone.has(refund.status) && bookedAmount > 0) {
    await bookRefundFailed(trx, order.id, refund.id);
    return -bookedAmount;
  }
  return 0;
}

/** The order's status once `amountRefunded` of it stands refunded: refunded when it is all, else paid. */
export const statusAfterRefunds = (order: { amount_total: number }, amountRefunded: number) =>
  amountRefunded >= order.amount_total ? ('refunded' as const) : ('paid' as const);

// How refunds count in the sales statistics, as SQL over a ledger row aliased `r` (a trusted alias,
// never input). In a payout's lines a refund takes back its sale's pieces (ledger/payout-lines.ts).

/**
 * The rows that are sales: sales and tips (customers → vendor), and their refunds, which subtract
 * (vendor → customers), and the refunds that failed, which add again. The refund of a licence share
 * (orga → vendor) is no sale.
 */
export const salesAndTheirRefundsSql = (r: string) =>
  `${r}.kind in ('sale', 'tip', 'refund', 'refund_failed')
   and (${r}.kind in ('sale', 'tip')
        or (select id from ledger_accounts where kind = 'customers' and vendor_id is null)
           = case ${r}.kind when 'refund' then ${r}.receiver_id else ${r}.sender_id end)`;

/** Whether a row of `salesAndTheirRefundsSql` subtracts. */
export const isRefundSql = (r: string) => `${r}.kind = 'refund'`;
