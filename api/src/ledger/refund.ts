import type { Knex } from 'knex';

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
  const booked = (await trx('ledger_rows').where({ order_id: orderId }).whereIn('kind', ['sale', 'tip', 'licence']).orderBy('id')) as BookedRow[];
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
