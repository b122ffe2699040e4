import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pgCode, type Db } from '../../api/src/db/connection.ts';
import { accountIds } from '../../api/src/ledger/accounts.ts';
import { bookFee, bookOrder } from '../../api/src/ledger/book.ts';
import { accountBalances, vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { describeApi } from '../support/env.ts';

/** An order of DEMO-<n> as placing it would store it: one sale of the print issue, a digital edition with its licence, a tip. */
async function storedOrder(db: Db, vendor = 'DEMO-1') {
  const { id: vendorId } = await db('vendors').where({ license_id: vendor }).first('id');
  const print = await db('items').where({ name: 'Zeitung' }).first('id', 'price');
  const digital = await db('items').where({ name: 'Digitale Ausgabe' }).first('id', 'price', 'license_item_id');
  const licence = await db('items').where({ id: digital.license_item_id }).first('id', 'price');
  const [{ id }] = await db('orders')
    .insert({
      token: randomBytes(32).toString('base64url'),
      vendor_id: vendorId,
      amount_total: print.price + digital.price + 100,
      tip: 100,
      expires_at: new Date(Date.now() + 1_800_000),
    })
    .returning('id');
  await db('order_entries').insert([
    { order_id: id, kind: 'sale', item_id: print.id, quantity: 1, unit_price: print.price, amount: print.price },
    { order_id: id, kind: 'sale', item_id: digital.id, quantity: 1, unit_price: digital.price, amount: digital.price },
    {
      order_id: id,
      kind: 'licence',
      item_id: licence.id,
      quantity: 1,
      unit_price: licence.price,
      amount: licence.price,
    },
    { order_id: id, kind: 'tip', amount: 100 },
  ]);
  return { id: id as number, vendor_id: vendorId as number };
}

async function refusedWith(code: string, write: () => Promise<unknown>): Promise<void> {
  await assert.rejects(write, (error) => {
    assert.equal(pgCode(error), code, String(error));
    return true;
  });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describeApi('ledger', (t) => {
  beforeEach(() => t.reset());

  it('books an order: sales and tip to the vendor, the licence share to the newspaper, balances summing to 0', async () => {
    const order = await storedOrder(t.db);
    await t.db.transaction((trx) => bookOrder(trx, order));
    const summary = await vendorAccountSummary(t.db, order.vendor_id);
    // 3,00 + 3,00 + 1,00 tip received, 0,50 licence sent
    assert.deepEqual(summary, { credit: 650, lastPayout: null, openPayments: 3 });
    const balances = await accountBalances(t.db);
    assert.equal(sum(balances.map((b) => b.balance)), 0);
    assert.equal(balances.find((b) => b.kind === 'customers')!.balance, -700);
    assert.equal(balances.find((b) => b.kind === 'orga')!.balance, 50);
  });

  it('books a paid order with its fee in two statements once the vendor has accounts', async () => {
    const first = await storedOrder(t.db);
    await t.db.transaction((trx) => bookOrder(trx, first));
    const order = await storedOrder(t.db);
    const queries: string[] = [];
    await t.db.transaction(async (trx) => {
      trx.on('query', (query: { sql: string }) => {
        if (!/^(BEGIN|COMMIT)/i.test(query.sql)) queries.push(query.sql);
      });
      await bookOrder(trx, order, 36);
    });
    // The vendor held, the accounts, the entries and who pays the fee read at once; then the rows.
    assert.equal(queries.length, 2, queries.join('; '));
    assert.match(queries[0], /for share of v/);
    const rows = await t.db('ledger_rows').where({ order_id: order.id }).orderBy('id').select('kind', 'amount');
    assert.deepEqual(
      rows.map((row) => `${row.kind} ${row.amount}`),
      ['sale 300', 'sale 300', 'licence 50', 'tip 100', 'fee 36', 'fee_cover 36'],
    );
    assert.equal((await vendorAccountSummary(t.db, order.vendor_id)).credit, 2 * 650);
  });

  it('books the fee from the vendor to the provider, covered by the newspaper when it says so', async () => {
    const covered = await storedOrder(t.db, 'DEMO-1');
    const uncovered = await storedOrder(t.db, 'DEMO-2');
    await t.db.transaction(async (trx) => {
      await bookOrder(trx, covered);
      await bookFee(trx, covered, 36, true);
      await bookOrder(trx, uncovered);
      await bookFee(trx, uncovered, 36, false);
    });
    assert.equal((await vendorAccountSummary(t.db, covered.vendor_id)).credit, 650);
    assert.equal((await vendorAccountSummary(t.db, uncovered.vendor_id)).credit, 650 - 36);
    const balances = await accountBalances(t.db);
    assert.equal(balances.find((b) => b.kind === 'provider')!.balance, 72);
    assert.equal(balances.find((b) => b.kind === 'orga')!.balance, 100 - 36);
    assert.equal(sum(balances.map((b) => b.balance)), 0);
  });

  it('refuses a second booking of an order entry and a second fee in the database itself', async () => {
    const order = await storedOrder(t.db);
    await t.db.transaction(async (trx) => {
      await bookOrder(trx, order);
      await bookFee(trx, order, 36, true);
    });
    await refusedWith('23505', () => t.db.transaction((trx) => bookOrder(trx, order)));
    await refusedWith('23505', () => t.db.transaction((trx) => bookFee(trx, order, 36, false)));
    const [{ count }] = await t.db('ledger_rows').where({ order_id: order.id }).count({ count: '*' });
    assert.equal(Number(count), 6, 'three entries, the licence share, the fee and its cover: once each');
  });

  it('refuses amounts of zero or less, and a row from an account to itself', async () => {
    const order = await storedOrder(t.db);
    const accounts = await t.db.transaction((trx) => accountIds(trx, order.vendor_id));
    const fee = { sender_id: accounts.vendor, receiver_id: accounts.provider, kind: 'fee', order_id: order.id };
    await refusedWith('23514', () => t.db('ledger_rows').insert({ ...fee, amount: 0 }));
    await refusedWith('23514', () => t.db('ledger_rows').insert({ ...fee, amount: -5 }));
    await refusedWith('23514', () => t.db('ledger_rows').insert({ ...fee, receiver_id: accounts.vendor, amount: 5 }));
    assert.equal((await t.db('ledger_rows').count({ count: '*' }))[0].count, 0);
  });

  it('creates each account once, also when two bookings race for the first one', async () => {
    const [a, b] = [await storedOrder(t.db, 'DEMO-3'), await storedOrder(t.db, 'DEMO-3')];
    await Promise.all([a, b].map((order) => t.db.transaction((trx) => bookOrder(trx, order))));
    const accounts = await t.db('ledger_accounts').select('kind', 'vendor_id');
    assert.equal(accounts.length, 5, JSON.stringify(accounts));
    assert.equal((await vendorAccountSummary(t.db, a.vendor_id)).credit, 1300);
  });

  it('answers a vendor without any money history with zero', async () => {
    const { id } = await t.db('vendors').where({ license_id: 'DEMO-5' }).first('id');
    assert.deepEqual(await vendorAccountSummary(t.db, id), { credit: 0, lastPayout: null, openPayments: 0 });
  });
});
