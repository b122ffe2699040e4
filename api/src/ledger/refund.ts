import type { Knex } from 'knex';
import { NotRefundable } from './errors.ts';
import { orderKinds } from './kinds.ts';

// A refund reverses an order in the books as a whole: each of its sale, tip and licence rows by a
// 'refund' row that runs the other way and names it. Only a whole refund does: the books have no rule
// for which part of which sale a part of the money would take back, so a partial refund (possible
// only in Stripe's Dashboard) is shown for staff to settle, not booked. The card fee and its cover
// stay booked: Stripe keeps its fee on a refund, so that money is gone either way. When the vendor
// was already paid out, the refund makes the credit negative (a debt that the next sales pay off).

/** An order as the refund rules read it. */
interface RefundedOrder {
  id: number;
  status: string;
  amount_total: number;
}

/** A refund as Stripe reports it. */
interface StripeRefundState {
  status: string | null;
  amount: number;
}

/** Refuses a refund of an order that is not paid by card: there is no payment to give back. */
export function assertRefundable(order: { status: string; stripe_payment_intent_id: string | null }): void {
  if (order.status !== 'paid' || !order.stripe_payment_intent_id) throw new NotRefundable(order.status);
}

interface BookedRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  amount: number;
  order_entry_id: number | null;
  item_id: number | null;
  quantity: number | null;
  unit_price: number | null;
}

/**
 * Reverses each sale, tip and licence row of an order by a refund row, inside the caller's transaction
 * (which holds the order's lock). The database allows one refund row per order entry.
 */
export async function bookRefund(trx: Knex.Transaction, orderId: number, authorisedBy: string): Promise<void> {
  const booked = await trx('ledger_rows')
    .select<BookedRow[]>('*')
    .where({ order_id: orderId })
    .whereIn('kind', orderKinds)
    .orderBy('id');
  if (!booked.length) return;
  await trx('ledger_rows').insert(
    booked.map((row) => ({
      sender_id: row.receiver_id,
      receiver_id: row.sender_id,
      amount: row.amount,
      kind: 'refund',
      order_id: orderId,
      order_entry_id: row.order_entry_id,
      item_id: row.item_id,
      quantity: row.quantity,
      unit_price: row.unit_price,
      reversal_of: row.id,
      authorised_by: authorisedBy,
    })),
  );
}

/**
 * Books a refund Stripe reports, inside the caller's transaction (which holds the order's lock), when
 * it reverses the order: it succeeded, and gave back the whole payment of an order still paid. Answers
 * whether it booked; a pending, failed or partial refund, or one of an order refunded already, books
 * nothing.
 */
export async function bookStripeRefund(
  trx: Knex.Transaction,
  order: RefundedOrder,
  refund: StripeRefundState,
  authorisedBy: string,
): Promise<boolean> {
  if (refund.status !== 'succeeded' || order.status !== 'paid' || refund.amount !== order.amount_total) return false;
  await bookRefund(trx, order.id, authorisedBy);
  return true;
}

// How refunds count in the sales statistics, as SQL over a ledger row aliased `r` (a trusted alias,
// never input). In a payout's lines a refund takes back its sale's pieces (ledger/payout-lines.ts).

/**
 * The rows that are sales: sales and tips (customers → vendor), and their refunds, which subtract
 * (vendor → customers). The refund of a licence share (orga → vendor) is no sale.
 */
export const salesAndTheirRefundsSql = (r: string) =>
  `${r}.kind in ('sale', 'tip', 'refund')
   and (${r}.kind <> 'refund'
        or ${r}.receiver_id = (select id from ledger_accounts where kind = 'customers' and vendor_id is null))`;

/** Whether a row of `salesAndTheirRefundsSql` subtracts. */
export const isRefundSql = (r: string) => `${r}.kind = 'refund'`;
