import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { listenBooksShop, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// Cash at the counter of a Swiss till is paid in coins of 5 centimes at the smallest: copies of
// 13.47 are asked as 13.45, the till takes 13.45, and the 0.02 are booked as cash rounding on an
// account of their own, which the trial balance shows; the vendor's credit moves as if 13.47 had
// been paid. A card pays the exact amount.

describeApi('cash rounding at the counter', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: shop.config.timeZone }).format(new Date());

  /** Copies of `cents` bought at the counter, all paid in cash; answers the visit and the till's balances. */
  async function visit(cents: number) {
    await t.db('items').where({ name: 'Zeitung' }).update({ counter_price: cents });
    const counter = await as(shop.http.get('/api/counter/vendor').query({ vendor: 'DEMO-5' }));
    assert.equal(counter.status, 200, JSON.stringify(counter.body));
    const till = counter.body.tills[0] as { id: number };
    const before = (await as(shop.http.get('/api/tills'))).body.tills[0].balance as number;
    const res = await as(shop.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-5',
      tillId: till.id,
      items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 1 }],
      cash: cents,
      payOut: false,
      expectedCredit: counter.body.credit,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const after = (await as(shop.http.get('/api/tills'))).body.tills[0].balance as number;
    const credit = (await as(shop.http.get('/api/counter/vendor').query({ vendor: 'DEMO-5' }))).body.credit as number;
    return { body: res.body, moved: after - before, creditBefore: counter.body.credit as number, credit };
  }

  it('asks 13.45 for 13.47 in cash at a CHF till, books the 0.02 to its own account, and the trial balance shows it', async function () {
    this.timeout(60_000);
    await t.db('settings').update({ country: 'CH' });
    const { body, moved, creditBefore, credit } = await visit(1347);
    assert.equal(body.copiesAmount, 1347);
    assert.equal(body.cashPaid, 1345, 'asked in 5-centime coins');
    assert.equal(body.cashRounding, 2);
    assert.equal(moved, 1345, 'the till holds what was paid');
    assert.equal(credit, creditBefore, 'the copies are paid in full: the credit does not move');
    const rounding = await t.db('ledger_rows').where({ kind: 'cash_rounding' }).select('amount', 'counter_visit_id');
    assert.deepEqual(
      rounding.map((row) => [Number(row.amount), row.counter_visit_id]),
      [[2, body.id]],
    );

    const balance = await as(shop.http.get('/api/accounting/trial-balance').query({ from: today(), to: today() }));
    assert.equal(balance.status, 200, JSON.stringify(balance.body));
    const line = balance.body.lines.find((l: { role: string }) => l.role === 'rounding');
    assert.ok(line, JSON.stringify(balance.body.lines));
    assert.equal(line.account, '4901');
    assert.deepEqual([line.debit, line.credit], [2, 0], 'the newspaper bears the 0.02');
    assert.equal(balance.body.debit, balance.body.credit);
    const cash = balance.body.lines.find((l: { role: string }) => l.role === 'cash');
    assert.equal(cash.difference, 0, 'Kasse agrees with the cash book');

    // Rounded up: 13.48 is asked as 13.50, the 0.02 go the other way.
    const up = await visit(1348);
    assert.deepEqual([up.body.cashPaid, up.body.cashRounding, up.moved], [1350, -2, 1350]);
    assert.equal(up.credit, up.creditBefore);
  });

  it('prints the rounding on the receipt as a line of its own, in francs, so the lines add up to the credit afterwards', async function () {
    this.timeout(60_000);
    await t.db('settings').update({ country: 'CH', currency: 'CHF' });
    const receipt = async (id: string, lang: string) => {
      const res = await as(shop.http.get(`/api/counter/visits/${id}/receipt`).query({ lang }));
      assert.equal(res.status, 200, res.text);
      assert.doesNotMatch(res.text, /€|EUR/i);
      const text = res.text.replace(/[\u00a0\u202f]/g, ' ');
      const cell = (id: string) =>
        text
          .match(new RegExp(`<tr id="${id}"><td>([^<]*)</td><td class="num"></td><td class="num">([^<]*)</td>`))
          ?.slice(1);
      return { text, cell };
    };
    const down = await visit(1347);
    const de = await receipt(down.body.id, 'de');
    assert.match(de.text, /id="receipt-gross">CHF 13\.47</);
    assert.deepEqual(de.cell('receipt-copies'), ['Gekaufte Exemplare (brutto)', 'CHF-13.47']);
    assert.deepEqual(de.cell('receipt-cash'), ['Bar bezahlt', 'CHF 13.45']);
    assert.deepEqual(de.cell('receipt-rounding'), ['Rundung auf die kleinste Münze', 'CHF 0.02']);
    const en = await receipt(down.body.id, 'en');
    assert.deepEqual(en.cell('receipt-cash'), ['Paid in cash', 'CHF 13.45']);
    assert.deepEqual(en.cell('receipt-rounding'), ['Rounding to the smallest coin', 'CHF 0.02']);

    // Rounded up, the vendor pays the 0.02: −13.48 + 13.50 − 0.02 leaves the credit where it was.
    const up = await visit(1348);
    const upDe = await receipt(up.body.id, 'de');
    assert.deepEqual(upDe.cell('receipt-cash'), ['Bar bezahlt', 'CHF 13.50']);
    assert.deepEqual(upDe.cell('receipt-rounding'), ['Rundung auf die kleinste Münze', 'CHF-0.02']);
    assert.equal(upDe.cell('receipt-credit-before')![1], upDe.cell('receipt-credit-after')![1]);
  });

  it('rounds nothing at a euro till', async function () {
    this.timeout(60_000);
    const { body, moved } = await visit(1347);
    assert.deepEqual([body.cashPaid, body.cashRounding, moved], [1347, 0, 1347]);
    assert.equal((await t.db('ledger_rows').where({ kind: 'cash_rounding' })).length, 0);
    const receipt = await as(shop.http.get(`/api/counter/visits/${body.id}/receipt`));
    assert.doesNotMatch(receipt.text, /receipt-rounding/, 'no rounding line');
  });

  it('takes 13.47 by card in full at a CHF installation', async function () {
    this.timeout(60_000);
    await t.db('settings').update({ country: 'CH' });
    await t.db('items').where({ name: 'Zeitung' }).update({ price: 1347 });
    const order = await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 1 } });
    assert.equal(Number(order.amount_total), 1347);
    const sale = await t.db('ledger_rows').where({ order_id: order.id, kind: 'sale' }).first('amount');
    assert.equal(Number(sale.amount), 1347);
    assert.equal((await t.db('ledger_rows').where({ kind: 'cash_rounding' })).length, 0);
  });

  it('refuses in the database a rounding without its visit or above half a krona', async () => {
    await t.db.raw(`insert into ledger_accounts (kind) values ('orga'), ('cash') on conflict do nothing`);
    const accounts = await t.db('ledger_accounts').whereIn('kind', ['orga', 'cash']).select('id', 'kind');
    const orga = accounts.find((a) => a.kind === 'orga')!.id;
    const cash = accounts.find((a) => a.kind === 'cash')!.id;
    await assert.rejects(
      t
        .db('ledger_rows')
        .insert({ sender_id: orga, receiver_id: cash, amount: 2, kind: 'cash_rounding', authorised_by: 'x' }),
      /ledger_rows_counter_visit_kinds/,
    );
    await t.db('settings').update({ country: 'SE' });
    const { body } = await visit(4949);
    assert.deepEqual([body.cashPaid, body.cashRounding], [4900, 49], 'SEK: whole kronor');
    await assert.rejects(
      t.db('ledger_rows').insert({
        sender_id: orga,
        receiver_id: cash,
        amount: 51,
        kind: 'cash_rounding',
        counter_visit_id: body.id,
        authorised_by: 'x',
      }),
      /ledger_rows_cash_rounding/,
    );
  });
});
