import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../api/src/db/connection.ts';
import { bookFee, bookOrder } from '../../api/src/ledger/book.ts';
import { payOut, reversePayout } from '../../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { bookRefund } from '../../api/src/ledger/refund.ts';
import { allowBackdating } from '../../seeds/history.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

/** Instants at the edges of the periods the tests ask for (Europe/Berlin). */
export const edges = {
  mayStart: '2026-04-30T22:00:00.000Z',
  beforeMay: '2026-04-30T21:59:59.999Z',
  mayFirstNight: '2026-04-30T23:00:00.000Z',
  mayLast: '2026-05-31T21:59:59.999Z',
  juneStart: '2026-05-31T22:00:00.000Z',
  juneFirstNight: '2026-05-31T23:00:00.000Z',
  dstDayStart: '2026-03-28T23:00:00.000Z',
  dstDayLast: '2026-03-29T21:59:59.999Z',
  dstNextDay: '2026-03-29T22:00:00.000Z',
} as const;

export type Edge = keyof typeof edges;

const historyStart = Date.parse('2026-03-15T00:00:00Z');
const historyEnd = Date.parse('2026-06-20T00:00:00Z');

function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 1831565813) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

async function catalogue(db: Db) {
  const print = await db('items').where({ name: 'Zeitung' }).first('id', 'price');
  const digital = await db('items').where({ name: 'Digitale Ausgabe' }).first('id', 'price', 'license_item_id');
  const licence = await db('items').where({ id: digital.license_item_id }).first('id', 'price');
  return { print, digital, licence };
}

export async function bookPaidOrder(
  db: Db,
  vendorId: number,
  at: Date,
  { prints, digital, tip }: { prints: number; digital: number; tip: number },
): Promise<number> {
  const items = await catalogue(db);
  const total = prints * items.print.price + digital * items.digital.price + tip;
  const fee = Math.round(total * 0.015) + 25;
  return backdating(db, async (trx) => {
    const [{ id }] = await trx('orders')
      .insert({
        token: randomBytes(32).toString('base64url'),
        vendor_id: vendorId,
        status: 'paid',
        amount_total: total,
        tip,
        fee,
        expires_at: at,
        paid_at: at,
        created_at: at,
      })
      .returning('id');
    const entries: Record<string, unknown>[] = [];
    if (prints)
      entries.push({
        order_id: id,
        kind: 'sale',
        item_id: items.print.id,
        quantity: prints,
        unit_price: items.print.price,
        amount: prints * items.print.price,
      });
    if (digital) {
      entries.push({
        order_id: id,
        kind: 'sale',
        item_id: items.digital.id,
        quantity: digital,
        unit_price: items.digital.price,
        amount: digital * items.digital.price,
      });
      entries.push({
        order_id: id,
        kind: 'licence',
        item_id: items.licence.id,
        quantity: digital,
        unit_price: items.licence.price,
        amount: digital * items.licence.price,
      });
    }
    if (tip) entries.push({ order_id: id, kind: 'tip', amount: tip });
    await trx('order_entries').insert(entries);
    const order = { id: id as number, vendor_id: vendorId };
    await bookOrder(trx, order);
    await bookFee(trx, order, fee, id % 2 === 0);
    await trx('ledger_rows').where({ order_id: id }).update({ created_at: at });
    return id as number;
  });
}

/** Books in one transaction that may date its own rows into the past (see allowBackdating). */
export function backdating<T>(db: Db, book: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await allowBackdating(trx);
    return book(trx);
  });
}

export async function backdate(trx: Knex.Transaction, table: string, ids: number[], at: Date): Promise<void> {
  await trx(table).whereIn('id', ids).update({ created_at: at });
}

export async function bookHistory(db: Db, { orders = 110, seed = 5 } = {}) {
  const random = generator(seed);
  const vendors = (
    await db('vendors')
      .whereIn('license_id', ['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4', 'DEMO-5'])
      .orderBy('id')
      .select('id')
  ).map((v: { id: number }) => v.id);
  const plan = [
    ...Array.from({ length: orders }, () => ({
      at: new Date(historyStart + Math.floor(random.next() * (historyEnd - historyStart))),
      edge: undefined as Edge | undefined,
    })),
    ...(Object.keys(edges) as Edge[]).map((edge) => ({ at: new Date(edges[edge]), edge })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const edgeOrders = {} as Record<Edge, number>;
  let nextPayout = historyStart + 21 * 864e5;
  const payoutIds: number[] = [];
  for (const { at, edge } of plan) {
    while (at.getTime() > nextPayout) {
      for (const vendorId of vendors) {
        const { credit } = await vendorAccountSummary(db, vendorId);
        if (credit <= 0) continue;
        const at = new Date(nextPayout);
        const payoutId = await backdating(db, async (trx) => {
          const id = await payOut(
            trx,
            {
              vendorId,
              expectedAmount: credit,
              authorisedBy: 'bookkeeping test',
              timeZone: 'Europe/Berlin',
            },
            publishLedgerEvent,
          );
          const row = await trx('ledger_rows').where({ payout_id: id, kind: 'payout' }).first('id');
          await backdate(trx, 'payouts', [id], at);
          await backdate(trx, 'ledger_rows', [row.id], at);
          return id;
        });
        payoutIds.push(payoutId);
      }
      nextPayout += 21 * 864e5;
    }
    const vendorId = vendors[random.int(0, vendors.length - 1)];
    const id = await bookPaidOrder(db, vendorId, at, {
      prints: random.int(1, 3),
      digital: random.next() < 0.3 ? 1 : 0,
      tip: [0, 0, 100, 250][random.int(0, 3)],
    });
    if (edge) edgeOrders[edge] = id;
  }
  await backdating(db, async (trx) => {
    await reversePayout(
      trx,
      {
        payoutId: payoutIds[0],
        reason: 'Counted twice',
        authorisedBy: 'bookkeeping test',
        timeZone: 'Europe/Berlin',
      },
      publishLedgerEvent,
    );
    await backdate(
      trx,
      'ledger_rows',
      await trx('ledger_rows').where({ kind: 'payout_reversal' }).pluck('id'),
      new Date('2026-05-12T09:30:00Z'),
    );
  });
  const refunded = edgeOrders.mayStart;
  await backdating(db, async (trx) => {
    const amount = await bookRefund(trx, refunded, { id: `re_books_${refunded}` }, 'bookkeeping test');
    await trx('orders')
      .where({ id: refunded })
      .update({
        status: 'refunded',
        amount_refunded: amount,
        refunded_at: new Date('2026-05-20T12:00:00Z'),
        refunded_by: 'bookkeeping test',
      });
    await backdate(
      trx,
      'ledger_rows',
      await trx('ledger_rows').where({ kind: 'refund' }).pluck('id'),
      new Date('2026-05-20T12:00:00Z'),
    );
  });
  return { edgeOrders, vendorIds: vendors };
}

export type History = Awaited<ReturnType<typeof bookHistory>>;
