import type { Knex } from 'knex';
import { orderKinds } from './kinds.ts';

/**
 * Books a refunded order, inside the caller's transaction (which holds the order's lock): each of
 * its sale, tip and licence rows reversed by a 'refund' row that runs the other way and names it.
 * The card fee and its cover stay booked: Stripe keeps its fee on a refund, so that money is gone
 * either way. When the vendor was already paid out, the refund makes the credit negative (a debt
 * that the next sales pay off). The database allows one refund row per order entry.
 */
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
