import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { checkBooks } from '../../api/src/ledger/consistency.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { listenBooksShop, noFeeCard, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// Cash at the counter of a Swiss till is paid in coins of 5 centimes at the smallest: copies of
// 13.47 are asked as 13.45, the till takes 13.45, and the 0.02 are booked as cash rounding on an
// account of their own, which the trial balance shows; the vendor's credit moves as if 13.47 had
// been paid. A card pays the exact amount. A cash payout of a credit of 13.47 hands over 13.45 the
// same way, settles the whole credit, and its reversal gives the 13.47 back.

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

  /** A credit of `cents` for DEMO-3 from one card sale without fee; answers the credit open for payout. */
  async function credit(cents: number) {
    await t.db('items').where({ name: 'Zeitung' }).update({ price: cents });
    await sell(shop, t.db, { vendor: 'DEMO-3', items: { Zeitung: 1 }, card: noFeeCard });
    const open = await as(shop.http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-3' }));
    assert.equal(open.status, 200, JSON.stringify(open.body));
    return open.body.balance as number;
  }
  const tillBalance = async () => (await as(shop.http.get('/api/tills'))).body.tills[0].balance as number;
  const payOut = (expectedAmount: number, requestId?: string) =>
    as(shop.http.post('/api/payments/payout/')).send({ vendor: 'DEMO-3', expectedAmount, requestId });
  const payoutRounding = () =>
    t
      .db('ledger_rows as r')
      .join('ledger_accounts as a', 'a.id', 'r.sender_id')
      .where({ 'r.kind': 'cash_rounding' })
      .orderBy('r.id')
      .select('r.amount', 'r.payout_id', 'r.reversal_of', 'a.kind as sender');

  it('pays out a CHF credit of 13.47 as 13.45, books the 0.02 as rounding of the payout, and its reversal gives back 13.47', async function () {
    this.timeout(60_000);
    // Sold by card first: the sandbox takes cards in euros only.
    assert.equal(await credit(1347), 1347);
    await t.db('settings').update({ country: 'CH', currency: 'CHF' });
    const before = await tillBalance();
    const requestId = randomUUID();
    const paid = await payOut(1347, requestId);
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    assert.equal(paid.body.amount, 1345, 'the cash handed over');
    assert.equal(await tillBalance(), before - 1345);
    const again = await payOut(1347, requestId);
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.id, paid.body.id, 'the same submission answers the first payout');
    const open = await as(shop.http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-3' }));
    assert.equal(open.body.balance, 0, 'the whole credit is settled');
    assert.deepEqual(
      (await payoutRounding()).map((row) => [Number(row.amount), row.payout_id, row.sender]),
      [[2, paid.body.id, 'vendor']],
    );

    const balance = await as(shop.http.get('/api/accounting/trial-balance').query({ from: today(), to: today() }));
    assert.equal(balance.status, 200, JSON.stringify(balance.body));
    const line = balance.body.lines.find((l: { role: string }) => l.role === 'rounding');
    assert.deepEqual([line.debit, line.credit], [0, 2], 'the newspaper keeps the 0.02');
    assert.equal(balance.body.debit, balance.body.credit);
    assert.equal(balance.body.lines.find((l: { role: string }) => l.role === 'cash').difference, 0);

    for (const [lang, name, total] of [
      ['de', 'Rundung auf die kleinste Münze', 'Auszahlungsbetrag'],
      ['en', 'Rounding to the smallest coin', 'Amount paid out'],
    ]) {
      const receipt = await as(shop.http.get(`/api/payouts/${paid.body.id}/receipt`).query({ lang }));
      assert.equal(receipt.status, 200, receipt.text);
      const text = receipt.text.replace(/[\u00a0\u202f]/g, ' ');
      assert.match(text, new RegExp(`<tr><td>${name}</td><td class="num"></td><td class="num">CHF-0\\.02</td></tr>`));
      assert.match(text, new RegExp(`${total}</td><td class="num" id="receipt-total">CHF 13\\.45<`));
    }

    const reversed = await as(shop.http.post(`/api/payments/payout/${paid.body.id}/reverse/`)).send({
      reason: 'Wrong vendor',
    });
    assert.equal(reversed.status, 200, JSON.stringify(reversed.body));
    assert.equal(await tillBalance(), before, 'the cash is back in the till');
    const reopened = await as(shop.http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-3' }));
    assert.equal(reopened.body.balance, 1347, 'the exact credit the payout settled');
    const rows = await payoutRounding();
    assert.deepEqual(
      rows.map((row) => [Number(row.amount), row.sender]),
      [
        [2, 'vendor'],
        [2, 'orga'],
      ],
    );
    assert.equal(rows[1].reversal_of !== null, true);
    const after = await as(shop.http.get('/api/accounting/trial-balance').query({ from: today(), to: today() }));
    assert.equal(after.body.debit, after.body.credit);
    const paidAgain = await payOut(1347);
    assert.equal(paidAgain.status, 201, JSON.stringify(paidAgain.body));
    assert.equal(paidAgain.body.amount, 1345);
    const problems = await t.db.transaction(async (trx) => (await checkBooks(trx)).flatMap((c) => c.problems));
    assert.deepEqual(problems, [], 'each payout equals its cash row and the rows it settled');
  });

  it('pays out a CHF credit of 13.48 as 13.50, the newspaper adding the 0.02, and refuses a stale amount', async function () {
    this.timeout(60_000);
    // Sold by card first: the sandbox takes cards in euros only.
    assert.equal(await credit(1348), 1348);
    await t.db('settings').update({ country: 'CH', currency: 'CHF' });
    const stale = await payOut(1350);
    assert.equal(stale.status, 409, JSON.stringify(stale.body));
    const before = await tillBalance();
    const paid = await payOut(1348);
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    assert.equal(paid.body.amount, 1350);
    assert.equal(await tillBalance(), before - 1350);
    assert.deepEqual(
      (await payoutRounding()).map((row) => [Number(row.amount), row.payout_id, row.sender]),
      [[2, paid.body.id, 'orga']],
    );
    const open = await as(shop.http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-3' }));
    assert.equal(open.body.balance, 0);
  });

  it('pays out a euro credit exactly', async function () {
    this.timeout(60_000);
    assert.equal(await credit(1347), 1347);
    const before = await tillBalance();
    const paid = await payOut(1347);
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    assert.equal(paid.body.amount, 1347);
    assert.equal(await tillBalance(), before - 1347);
    assert.equal((await payoutRounding()).length, 0);
    const receipt = await as(shop.http.get(`/api/payouts/${paid.body.id}/receipt`));
    assert.doesNotMatch(receipt.text, /Rundung|Rounding/);
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
