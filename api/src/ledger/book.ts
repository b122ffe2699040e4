import type { Knex } from 'knex';
import { accountIds, accountsJsonSql, completeAccountIds, holdLiveVendor, type AccountIds } from './accounts.ts';
import { VendorDeleted } from './errors.ts';
import { hotRows } from '../db/connection.ts';

// Every movement of money is a ledger row written here, inside the caller's transaction. The
// database refuses a second row for the same order entry and kind, and a second fee for an order,
// so a repeated call fails loudly instead of booking twice; callers lock the order row first.

/** An item as an order prices it: its own price, and the licence item a digital edition pays to the newspaper. */
export interface PricedItem {
  id: number;
  price: number;
}

/** One line of a cart, priced from the database. */
export interface PricedLine {
  item: PricedItem;
  quantity: number;
  licence: PricedItem | null;
}

/**
 * What a paid order will book, stored with the order as its entries: a sale per item (customers →
 * vendor), the licence share per licence item (vendor → orga), the tip (customers → vendor).
 */
export function orderEntryRows(orderId: number, lines: PricedLine[], tip: number) {
  const sales = lines.map(({ item, quantity }) => ({
    order_id: orderId,
    kind: 'sale',
    item_id: item.id,
    quantity,
    unit_price: item.price,
    amount: quantity * item.price,
  }));
  // Editions sharing one licence item pay it once, for all their copies together.
  const licences = new Map<number, { item: PricedItem; quantity: number }>();
  for (const { licence, quantity } of lines) {
    if (!licence) continue;
    licences.set(licence.id, { item: licence, quantity: (licences.get(licence.id)?.quantity ?? 0) + quantity });
  }
  const licenceRows = [...licences.values()].map(({ item, quantity }) => ({
    order_id: orderId,
    kind: 'licence',
    item_id: item.id,
    quantity,
    unit_price: item.price,
    amount: quantity * item.price,
  }));
  const tipRow =
    tip > 0 ? [{ order_id: orderId, kind: 'tip', item_id: null, quantity: null, unit_price: null, amount: tip }] : [];
  return [...sales, ...licenceRows, ...tipRow];
}

/** The direction of an order entry's booking: the licence share leaves the vendor, the rest reaches them. */
const entryDirection = (kind: OrderEntryRow['kind'], accounts: AccountIds): [number, number] =>
  kind === 'licence' ? [accounts.vendor, accounts.orga] : [accounts.customers, accounts.vendor];

/** The same rule as SQL, for the bulk booking (`kind`, vendor, orga and customers account expressions). */
export const entryDirectionSql = (kind: string, a: { vendor: string; orga: string; customers: string }) => ({
  sender: `case when ${kind} = 'licence' then ${a.vendor} else ${a.customers} end`,
  receiver: `case when ${kind} = 'licence' then ${a.orga} else ${a.vendor} end`,
});

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
 * With the card `fee` when Stripe already told it: booked with the entries, as bookFee would, in one
 * statement. Throws VendorDeleted for a vendor deleted meanwhile: a deleted vendor never receives credit.
 * Answers the kinds of the order's entries (a 'licence' one marks a digital edition).
 */
export async function bookOrder(
  trx: Knex.Transaction,
  order: BookedOrder,
  fee: number | null = null,
): Promise<OrderEntryRow['kind'][]> {
  // What holdLiveVendor, accountIds and the entries would read, in one statement: the vendor's row
  // held in share mode as holdLiveVendor holds it, so the lock order stays the same.
  const rows = await hotRows<{
    deleted_at: Date | null;
    accounts: Partial<AccountIds> | null;
    entries: OrderEntryRow[];
    fee_covered: boolean;
  }>(
    trx,
    `select v.deleted_at, ${accountsJsonSql('v.id')} as accounts,
       coalesce((select json_agg(e order by e.id) from (
         select id, kind, item_id, quantity, unit_price, amount from order_entries where order_id = ?) e), '[]') as entries,
       ${feeCoveredSql('?')} as fee_covered
     from vendors v where v.id = ? for share of v`,
    [order.id, order.id, order.vendor_id],
  );
  const basis = rows[0];
  if (!basis || basis.deleted_at !== null) throw new VendorDeleted(order.vendor_id);
  const accounts = await completeAccountIds(trx, order.vendor_id, basis.accounts);
  const rowsToBook: Record<string, unknown>[] = basis.entries
    .filter((entry) => entry.amount > 0)
    .map((entry) => {
      const [sender, receiver] = entryDirection(entry.kind, accounts);
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
  if (fee !== null) rowsToBook.push(...feeRows(accounts, order, fee, basis.fee_covered));
  if (rowsToBook.length)
    // One statement text for any number of rows, so it is prepared once (hotRows); a column left out
    // of a row is null, as knex's insert would write it.
    await hotRows(
      trx,
      `insert into ledger_rows (sender_id, receiver_id, amount, kind, order_id, order_entry_id, item_id, quantity, unit_price)
       select sender_id, receiver_id, amount, kind, order_id, order_entry_id, item_id, quantity, unit_price
       from json_populate_recordset(null::ledger_rows, ?::json)`,
      [JSON.stringify(rowsToBook)],
    );
  return basis.entries.map((entry) => entry.kind);
}

/** The card fee's rows for a live vendor: vendor → provider, and orga → vendor when the newspaper covers it. */
function feeRows(accounts: AccountIds, order: BookedOrder, fee: number, covered: boolean) {
  if (fee <= 0) return [];
  const rows = [
    { sender_id: accounts.vendor, receiver_id: accounts.provider, amount: fee, kind: 'fee', order_id: order.id },
  ];
  if (covered)
    rows.push({
      sender_id: accounts.orga,
      receiver_id: accounts.vendor,
      amount: fee,
      kind: 'fee_cover',
      order_id: order.id,
    });
  return rows;
}

/**
 * Who pays the card fee, in one sentence for the bookkeeper: the newspaper pays an order's card fee
 * for the vendor when the setting "the newspaper covers transaction costs" is on, or when the order
 * holds an item marked "Covers the card fee"; otherwise the vendor pays it. As SQL, for an order id
 * in `orderId` (a trusted expression), so the bulk booking of the books bench uses the same rule.
 */
export const feeCoveredSql = (orderId: string) => `(
  coalesce((select orga_covers_transaction_costs from settings where id = 1), false)
  or exists (select 1 from order_entries ce join items ci on ci.id = ce.item_id
             where ce.order_id = ${orderId} and ci.takes_over_transaction_costs))`;

/** Whether the newspaper covers this order's card fee (see feeCoveredSql). */
export async function feeIsCovered(trx: Knex.Transaction, orderId: number): Promise<boolean> {
  const { rows } = await trx.raw<{
    rows: { covered: boolean }[];
  }>(`select ${feeCoveredSql('?')} as covered`, [orderId]);
  return rows[0]?.covered === true;
}

/**
 * Orders whose card fee is booked once Stripe tells it: paid, and refunded too (Stripe keeps its fee on
 * a refund, even of a payment refunded before its fee was known).
 */
export const takesFee = (order: { status: string }) => order.status === 'paid' || order.status === 'refunded';

/**
 * Books the card fee of an order: vendor → provider, and orga → vendor for the same amount when
 * the newspaper covers it (feeIsCovered; `covered` only for a caller that decided it already). The
 * vendor then nets the full price. A fee that arrives after the vendor was deleted is the
 * newspaper's (orga → provider): a deleted vendor never carries credit or debt.
 */
export async function bookFee(
  trx: Knex.Transaction,
  order: BookedOrder,
  fee: number,
  covered?: boolean,
): Promise<void> {
  if (fee <= 0) return;
  let live = true;
  try {
    await holdLiveVendor(trx, order.vendor_id);
  } catch (error) {
    if (!(error instanceof VendorDeleted)) throw error;
    live = false;
  }
  const accounts = await accountIds(trx, order.vendor_id);
  if (!live) {
    await trx('ledger_rows').insert({
      sender_id: accounts.orga,
      receiver_id: accounts.provider,
      amount: fee,
      kind: 'fee',
      order_id: order.id,
    });
    return;
  }
  await trx('ledger_rows').insert(feeRows(accounts, order, fee, covered ?? (await feeIsCovered(trx, order.id))));
}
