import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { allowBackdating, backdateOrder, backdatePayout } from '../api/src/ledger/backdate.ts';
import { bookFee, bookOrder, orderEntryRows } from '../api/src/ledger/book.ts';
import { payOut } from '../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../api/src/ledger/queries.ts';
import { oneRow } from '../api/src/foundations/one-row.ts';
import { pricedItems } from '../api/src/items/queries.ts';
import { priceCart } from '../api/src/orders/place.ts';
import { generator, nth } from './demo.ts';
import { publishLedgerEvent } from '../api/src/webhooks-out/ledger-events.ts';

// A demo sales history, so that a fresh `npm start` shows credits, statistics, accounting and
// payouts instead of zeros: paid orders of the last weeks and a few cash payouts, booked through the
// same functions as the shop and the counter and then dated back. Only the start of the real server
// writes it; tests seed an empty ledger.

export const HISTORY_DAYS = 60;
export const HISTORY_ORDER_COUNT = 120;
/** The staff name on the demo payouts (the demo back-office login). */
const cashier = 'office';
const minute = 60_000;
const day = 24 * 60 * minute;

export interface HistoryOptions {
  /** The history ends the day before this instant. */
  now: Date;
  /** The newspaper's time zone: a receipt number carries the local year of its payout. */
  timeZone: string;
}

interface Vendor {
  id: number;
  license_id: string;
}

interface Sale {
  at: Date;
  vendor: Vendor;
  entries: { item: number; quantity: number }[];
  tip: number;
  digital: boolean;
}

interface Payout {
  at: Date;
  vendor: Vendor;
}

/** A time on one of the last HISTORY_DAYS days, during a street seller's day (about 7–20 h in Vienna). */
function pastTime(random: ReturnType<typeof generator>, now: Date, daysBack: number, hour = random.int(6, 18)): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - daysBack * day + hour * 60 * minute + random.int(0, 59) * minute);
}

/** The carts customers buy: mostly the paper, sometimes the digital edition or another item. */
async function plan(trx: Knex.Transaction, now: Date): Promise<{ sales: Sale[]; payouts: Payout[] }> {
  const random = generator(2027);
  const vendors: Vendor[] = await trx('vendors')
    .where({ is_disabled: false })
    .whereNull('deleted_at')
    .orderBy('id')
    .select('id', 'license_id');
  const items: { id: number; is_main_product: boolean; license_item_id: number | null }[] = await trx('items')
    .whereNull('deleted_at')
    .where({ disabled: false, is_license_item: false })
    .orderBy('id')
    .select('id', 'is_main_product', 'license_item_id');
  const paper = items.find((item) => item.is_main_product);
  const digital = items.find((item) => item.license_item_id !== null);
  const others = items.filter((item) => item !== paper && item !== digital);
  if (!paper) return { sales: [], payouts: [] };

  // Some vendors sell a lot, some a little, a few nothing at all; the first (the demo login) always sells.
  const weights = vendors.map((_, i) => (i === 0 ? 5 : random.chance(0.2) ? 0 : random.int(1, 5)));
  const totalWeight = weights.reduce((sum, w) => sum + w, 0);
  const pickVendor = () => {
    let at = random.next() * totalWeight;
    // at < totalWeight, so some weight takes it below zero
    return nth(
      vendors,
      weights.findIndex((w) => (at -= w) < 0),
    );
  };

  const sales: Sale[] = Array.from({ length: HISTORY_ORDER_COUNT }, () => {
    const vendor = pickVendor();
    const at = pastTime(random, now, random.int(1, HISTORY_DAYS));
    const kind = random.next();
    const entries =
      kind < 0.75 || (!digital && !others.length)
        ? [{ item: paper.id, quantity: random.chance(0.8) ? 1 : 2 }]
        : kind < 0.9 && digital
          ? [{ item: digital.id, quantity: 1 }]
          : [
              { item: random.pick(others.length ? others : [digital!]).id, quantity: 1 },
              ...(random.chance(0.5) ? [{ item: paper.id, quantity: 1 }] : []),
            ];
    return {
      at,
      vendor,
      entries,
      tip: random.pick([0, 0, 0, 100, 100, 200]),
      digital: entries.some((e) => e.item === digital?.id),
    };
  });

  // About half of the selling vendors came to the counter once or twice; the rest have credit waiting.
  const payouts: Payout[] = vendors
    .filter((_, i) => (weights[i] ?? 0) > 0 && random.chance(0.5))
    .flatMap((vendor) => {
      const first = random.int(20, 50);
      const times = [pastTime(random, now, first, 13)];
      if (random.chance(0.4)) times.push(pastTime(random, now, random.int(2, first - 10), 13));
      return times.map((at) => ({ at, vendor }));
    });
  return { sales, payouts };
}

/** A paid order as the shop stores and books it, dated to `sale.at`. */
async function bookSale(trx: Knex.Transaction, sale: Sale, n: number): Promise<void> {
  const email = sale.digital ? `kundin-${n}@example.org` : null;
  const lines = priceCart(await pricedItems(trx), {
    vendor: sale.vendor.license_id,
    entries: sale.entries,
    tip: sale.tip,
    email,
    returnUrl: null,
    cartId: null,
    locale: 'de',
  });
  const total = lines.reduce((sum, { item, quantity }) => sum + item.price * quantity, sale.tip);
  const paidAt = new Date(sale.at.getTime() + 2 * minute);
  // Stripe's card fee for European cards.
  const fee = Math.round(total * 0.015) + 25;
  const { id } = oneRow(
    await trx('orders')
      .insert({
        // A real receipt address: random like the shop's, so no one can derive it from this code.
        token: randomBytes(32).toString('base64url'),
        vendor_id: sale.vendor.id,
        status: 'paid',
        amount_total: total,
        tip: sale.tip,
        email,
        locale: 'de',
        fee,
        expires_at: new Date(sale.at.getTime() + 31 * minute),
        paid_at: paidAt,
        created_at: sale.at,
        updated_at: paidAt,
      })
      .returning<{ id: number }[]>('id'),
  );
  await trx('order_entries').insert(orderEntryRows(id, lines, sale.tip));
  const order = { id, vendor_id: sale.vendor.id };
  await bookOrder(trx, order);
  await bookFee(trx, order, fee);
  await backdateOrder(trx, order.id, paidAt);
}

/** The vendor's whole open credit paid out at the counter, dated to `payout.at`; nothing when there is none. */
async function bookPayout(trx: Knex.Transaction, payout: Payout, timeZone: string): Promise<void> {
  const { credit } = await vendorAccountSummary(trx, payout.vendor.id);
  if (credit <= 0) return;
  const id = await payOut(
    trx,
    { vendorId: payout.vendor.id, expectedAmount: credit, authorisedBy: cashier, timeZone },
    publishLedgerEvent,
  );
  await backdatePayout(trx, id, payout.at, timeZone);
}

// The booking functions stamp now(); the history is booked through them and then dated (see
// api/src/ledger/backdate.ts), rather than through a second copy of them that takes a time.
export { allowBackdating };

/**
 * Books the demo history into the seeded newspaper: the same history for the same `now`, in time
 * order, so each payout settles exactly the sales before it.
 */
export async function seedSalesHistory(trx: Knex.Transaction, { now, timeZone }: HistoryOptions): Promise<void> {
  await allowBackdating(trx);
  const { sales, payouts } = await plan(trx, now);
  const events = [
    ...sales.map((sale) => ({ at: sale.at, sale })),
    ...payouts.map((payout) => ({ at: payout.at, payout })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  let n = 0;
  for (const event of events) {
    if ('sale' in event) await bookSale(trx, event.sale, ++n);
    else await bookPayout(trx, event.payout, timeZone);
  }
}
