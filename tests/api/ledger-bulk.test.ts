import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { allowBackdating, backdateOrder, backdatePayout } from '../../api/src/ledger/backdate.ts';
import { bookFee, bookOrder, orderEntryRows, type PricedItem } from '../../api/src/ledger/book.ts';
import { bookPaidOrdersInBulk, insertOrderEntriesInBulk } from '../../api/src/ledger/bulk.ts';
import { payOut } from '../../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { describeApi } from '../support/env.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// The books bench books two million rows set-based (api/src/ledger/bulk.ts). Those rows must be
// the ones the ledger's functions book for the same orders, or the bench measures other books:
// the same carts are booked both ways, for two vendors, and compared row by row.

interface Cart {
  lines: { item: 'print' | 'digital' | 'covering'; quantity: number }[];
  tip: number;
  fee: number;
}

const carts: Cart[] = [
  { lines: [{ item: 'print', quantity: 1 }], tip: 0, fee: 30 },
  { lines: [{ item: 'print', quantity: 2 }], tip: 100, fee: 35 },
  { lines: [{ item: 'digital', quantity: 1 }], tip: 0, fee: 30 },
  {
    lines: [
      { item: 'print', quantity: 1 },
      { item: 'digital', quantity: 2 },
    ],
    tip: 250,
    fee: 41,
  },
  // An item marked "Covers the card fee": covered although the newspaper's setting is off.
  {
    lines: [
      { item: 'covering', quantity: 1 },
      { item: 'print', quantity: 1 },
    ],
    tip: 0,
    fee: 33,
  },
];

type Items = Record<Cart['lines'][number]['item'], PricedItem & { licence: PricedItem | null }>;

const day = (n: number) => new Date(Date.UTC(2026, 4, n, 10));

async function insertOrder(trx: Knex.Transaction, vendorId: number, cart: Cart, items: Items, at: Date) {
  const total = cart.lines.reduce((sum, line) => sum + items[line.item].price * line.quantity, cart.tip);
  const [{ id }] = await trx('orders')
    .insert({
      token: randomBytes(32).toString('base64url'),
      vendor_id: vendorId,
      status: 'paid',
      amount_total: total,
      tip: cart.tip,
      fee: cart.fee,
      expires_at: at,
      paid_at: at,
      created_at: at,
    })
    .returning<{ id: number }[]>('id');
  return id;
}

describeApi('ledger: bulk booking (books bench) equals the booking functions', (t) => {
  it('books the same entries, rows, fees, covers and payout for the same orders', async () => {
    await t.reset();
    await t.db('settings').where({ id: 1 }).update({ orga_covers_transaction_costs: false });
    const [{ id: coveringId }] = await t
      .db('items')
      .insert({ name: 'Solidaritätszeitung', price: 500, takes_over_transaction_costs: true })
      .returning<{ id: number }[]>('id');
    type ItemRow = PricedItem & { license_item_id: number | null };
    const find = async (name: string) =>
      await t.db('items').where({ name }).first<ItemRow>('id', 'price', 'license_item_id');
    const print = await find('Zeitung');
    const digital = await find('Digitale Ausgabe');
    const licence = await t.db('items').where({ id: digital.license_item_id }).first('id', 'price');
    const items: Items = {
      print: { id: print.id, price: print.price, licence: null },
      digital: { id: digital.id, price: digital.price, licence },
      covering: { id: coveringId, price: 500, licence: null },
    };
    const vendors = (await t
      .db('vendors')
      .whereIn('license_id', ['DEMO-1', 'DEMO-2'])
      .orderBy('license_id')
      .pluck('id')) as number[];
    const [one, two] = vendors as [number, number];

    // One by one, as the shop and the counter book.
    const single: number[] = [];
    await t.db.transaction(async (trx) => {
      await allowBackdating(trx);
      for (const [i, cart] of carts.entries()) {
        const id = await insertOrder(trx, one, cart, items, day(i + 1));
        const lines = cart.lines.map(({ item, quantity }) => ({
          item: items[item],
          quantity,
          licence: items[item].licence,
        }));
        await trx('order_entries').insert(orderEntryRows(id, lines, cart.tip));
        await bookOrder(trx, { id, vendor_id: one });
        await bookFee(trx, { id, vendor_id: one }, cart.fee);
        await backdateOrder(trx, id, day(i + 1));
        single.push(id);
      }
      const { credit } = await vendorAccountSummary(trx, one);
      const payout = await payOut(
        trx,
        {
          vendorId: one,
          expectedAmount: credit,
          authorisedBy: 'bench',
          timeZone: 'Europe/Berlin',
        },
        publishLedgerEvent,
      );
      await backdatePayout(trx, payout, day(20), 'Europe/Berlin');
    });

    // Set-based, as the bench books.
    const bulk: number[] = [];
    await t.db.transaction(async (trx) => {
      for (const [i, cart] of carts.entries()) bulk.push(await insertOrder(trx, two, cart, items, day(i + 1)));
      await trx.raw(`create temporary table test_lines (order_id integer, item_id integer, quantity integer)
        on commit drop`);
      await trx.raw(`create temporary table test_plan (order_id integer, payout_id integer, payout_at timestamptz)
        on commit drop`);
      for (const [i, cart] of carts.entries()) {
        for (const line of cart.lines) {
          await trx.raw('insert into test_lines values (?, ?, ?)', [bulk[i], items[line.item].id, line.quantity]);
        }
        await trx.raw('insert into test_plan values (?, 900001, ?)', [bulk[i], day(20)]);
      }
      await insertOrderEntriesInBulk(trx, 'test_lines');
      await bookPaidOrdersInBulk(trx, { plan: 'test_plan', authorisedBy: 'bench', timeZone: 'Europe/Berlin' });
    });

    // Compared with the accounts named by role and the orders by their place in `carts`.
    const role = `case when a.kind = 'vendor' then 'vendor' else a.kind end`;
    const booked = async (orderIds: number[]) =>
      Promise.all(
        orderIds.map(async (orderId) => ({
          entries: await t
            .db('order_entries')
            .where({ order_id: orderId })
            .orderBy(['kind', 'item_id'])
            .select('kind', 'item_id', 'quantity', 'unit_price', 'amount'),
          rows: (
            await t
              .db('ledger_rows as r')
              .join('ledger_accounts as a', 'a.id', 'r.sender_id')
              .join('ledger_accounts as b', 'b.id', 'r.receiver_id')
              .leftJoin('order_entries as e', 'e.id', 'r.order_entry_id')
              .where('r.order_id', orderId)
              .orderBy(['r.kind', 'r.item_id', 'r.amount'])
              .select(t.db.raw(`${role} as sender`), t.db.raw(`${role.replaceAll('a.', 'b.')} as receiver`))
              .select('r.kind', 'r.item_id', 'r.quantity', 'r.unit_price', 'r.amount', 'e.kind as entry_kind')
              .select('r.created_at')
              .select(t.db.raw('r.payout_id is not null as paid_out'))
          ).map((row: Record<string, unknown>): Record<string, unknown> => ({
            ...row,
            created_at: new Date(row.created_at as string).toISOString(),
          })),
        })),
      );
    const oneByOne = await booked(single);
    const setBased = await booked(bulk);
    assert.deepEqual(setBased, oneByOne);
    // The cover rule did decide: covered only where the covering item was bought.
    const covered = oneByOne.map((order) => order.rows.some((row) => row.kind === 'fee_cover'));
    assert.deepEqual(covered, [false, false, false, false, true]);
    assert.ok(oneByOne[3].rows.some((row) => row.kind === 'licence'));

    const payouts = await t
      .db('payouts')
      .whereIn('vendor_id', [one, two])
      .orderBy('vendor_id')
      .select('vendor_id', 'amount', 'created_at', 'receipt_number');
    assert.equal(payouts.length, 2);
    assert.equal(payouts[1].amount, payouts[0].amount);
    assert.equal(new Date(payouts[1].created_at).getTime(), new Date(payouts[0].created_at).getTime());
    assert.match(payouts[1].receipt_number, /^2026-\d{6}$/);
    const cashRows = await t.db('ledger_rows').where({ kind: 'payout' }).orderBy('amount').select('amount');
    assert.deepEqual(
      cashRows.map((row: { amount: number }) => row.amount),
      [payouts[0].amount, payouts[0].amount],
    );
    assert.equal((await vendorAccountSummary(t.db, two)).credit, 0);
  });
});
