import type { Knex } from 'knex';
import { accountIds } from './accounts.ts';

// Every movement of money is a ledger row written here, inside the caller's transaction. The
// database refuses a second row for the same order entry and kind, and a second fee for an order,
// so a repeated call fails loudly instead of booking twice; callers lock the order row first.

/** The order a booking belongs to. */
export interface BookedOrder {
  id: number;
  vendor_id: number;
}

interface OrderEntryRow {
  id: number;
  kind: 'sale' | 'tip' | 'licence';
  item_id: number | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number;
}

/**
 * Books a paid order's entries: each item and the tip customers → vendor, the licence share of a
 * digital edition vendor → orga. An entry of 0 cents (a free item) moves no money and books nothing.
 */
export async function bookOrder(trx: Knex.Transaction, order: BookedOrder): Promise<void> {
  const accounts = await accountIds(trx, order.vendor_id);
  const entries = (await trx('order_entries').where({ order_id: order.id }).orderBy('id')) as OrderEntryRow[];
  const rows = entries
    .filter((entry) => entry.amount > 0)
    .map((entry) => {
      const [sender, receiver] = entry.kind === 'licence' ? [accounts.vendor, accounts.orga] : [accounts.customers, accounts.vendor];
      return {
        sender_id: sender,
        receiver_id: receiver,
        amount: entry.amount,
        kind: entry.kind,
        order_id: order.id,
        order_entry_id: entry.id,
        item_id: entry.item_id,
        quantity: entry.quantity,
        unit_price: entry.unit_price,
      };
    });
  if (rows.length) await trx('ledger_rows').insert(rows);
}

/**
 * Books the card fee of an order: vendor → provider, and orga → vendor for the same amount when
 * the newspaper covers transaction costs (the vendor then nets the full price).
 */
export async function bookFee(trx: Knex.Transaction, order: BookedOrder, fee: number, orgaCovers: boolean): Promise<void> {
  if (fee <= 0) return;
  const accounts = await accountIds(trx, order.vendor_id);
  const rows = [{ sender_id: accounts.vendor, receiver_id: accounts.provider, amount: fee, kind: 'fee', order_id: order.id }];
  if (orgaCovers) rows.push({ sender_id: accounts.orga, receiver_id: accounts.vendor, amount: fee, kind: 'fee_cover', order_id: order.id });
  await trx('ledger_rows').insert(rows);
}
