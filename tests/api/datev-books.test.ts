import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { balanceTransactionsBetween } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { itemId, postEvent, signedEvent } from '../support/orders.ts';
import { listenBooksShop, sell } from '../support/sales.ts';
import { payOutBalance } from '../support/sandbox.ts';
import type { ListeningShop } from '../support/shop-server.ts';
import { parseDatev, type DatevFile } from '../support/datev.ts';

// A month of the office's money in one day: card sales with a tip, a digital edition, a fee the
// newspaper covers and one it does not, a refund, a counter visit with copies paid in cash and a
// payout, a bank deposit, an expense, a close that counts 2,00 € short and Stripe's payout to the
// bank. The DATEV file is parsed back by the test's own parser, and each account it books is held
// against the figure someone else keeps: Kasse against the cash book, the transit account against
// Stripe's balance transactions (read through the official SDK from the sandbox), the vendors'
// account against the change of their credit as the counter shows it.

const webhookSecret = 'whsec_not_the_sandbox';
const accounts = {
  customers: '1360',
  orga: '8300',
  cash: '1000',
  bank: '1200',
  provider: '4970',
  disputes: '2400',
  vendors: '1600',
  otherIncome: '2700',
  otherExpense: '4980',
  shortfall: '4900',
  surplus: '2705',
};
const settings = {
  adviserNumber: '29098',
  clientNumber: '55003',
  fiscalYearMonth: 1,
  fiscalYearDay: 1,
  chart: 'SKR03',
  accountLength: 4,
  vendorAccounts: 'collective',
  accounts,
  vendorBase: '70000',
};

/** "12,34" → 1234 cents. */
const cents = (amount: string) => {
  const negative = amount.startsWith('-');
  const [euros = '0', rest = '0'] = amount.replace('-', '').split(',');
  return (negative ? -1 : 1) * (Number(euros) * 100 + Number(rest));
};

/** Each account's debits and credits in the file: Konto takes the S side of a line, Gegenkonto the other. */
function turnovers(file: DatevFile): Record<string, { debit: number; credit: number }> {
  const sums: Record<string, { debit: number; credit: number }> = {};
  const at = (account: string) => (sums[account] ??= { debit: 0, credit: 0 });
  for (const line of file.lines) {
    const amount = cents(file.get(line, 'Umsatz (ohne Soll/Haben-Kz)'));
    const debitFirst = file.get(line, 'Soll/Haben-Kennzeichen') === 'S';
    const [debit, credit] = debitFirst
      ? [file.get(line, 'Konto'), file.get(line, 'Gegenkonto (ohne BU-Schlüssel)')]
      : [file.get(line, 'Gegenkonto (ohne BU-Schlüssel)'), file.get(line, 'Konto')];
    at(debit).debit += amount;
    at(credit).credit += amount;
  }
  return sums;
}

describeApi('DATEV: every movement once, each account as its outside figure says', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const credit = async (vendor: string) => {
    const res = await as(shop.http.get('/api/counter/vendor').query({ vendor }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.credit as number;
  };
  const vendors = ['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4'];
  const totalCredit = async () => (await Promise.all(vendors.map(credit))).reduce((a, b) => a + b, 0);

  it('books card money, fees, refunds, the counter, the till and Stripe’s payout so that each account agrees', async function () {
    this.timeout(120_000);
    const zone = shop.config.timeZone;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    const { rows: bounds } = await t.db.raw(
      `select (?::date)::timestamp at time zone ? as "from", (?::date + 1)::timestamp at time zone ? as "to"`,
      [today, zone, today, zone],
    );
    const day = { from: new Date(bounds[0].from), to: new Date(bounds[0].to) };
    assert.equal(Number((await t.db('ledger_rows').count({ n: '*' }))[0].n), 0, 'the day starts with empty books');
    const creditBefore = await totalCredit();

    // Card sales: a tip, a digital edition, a fee the newspaper covers (the demo's setting) and one it does not.
    await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 2 }, tip: 150 });
    await sell(shop, t.db, { vendor: 'DEMO-2', items: { 'Digitale Ausgabe': 1 } });
    const refunded = await sell(shop, t.db, { vendor: 'DEMO-4', items: { Zeitung: 1 } });
    await t.db('settings').update({ orga_covers_transaction_costs: false });
    const uncovered = await sell(shop, t.db, { vendor: 'DEMO-3', items: { Zeitung: 6 }, tip: 200 });
    assert.ok((uncovered.fee ?? 0) > 0, 'the sandbox charged a fee');
    const refund = await as(shop.http.post(`/api/orders/${refunded.id}/refund`));
    assert.equal(refund.status, 200, JSON.stringify(refund.body));

    // The counter: DEMO-3 buys copies, pays part in cash, and takes the rest of the credit out.
    const counter = await as(shop.http.get('/api/counter/vendor').query({ vendor: 'DEMO-3' }));
    const till = counter.body.tills[0] as { id: number };
    const visit = await as(shop.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-3',
      tillId: till.id,
      items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 10 }],
      cash: 500,
      payOut: true,
      expectedCredit: counter.body.credit,
    });
    assert.equal(visit.status, 201, JSON.stringify(visit.body));
    const move = (body: object) => as(shop.http.post(`/api/tills/${till.id}/movements`)).send(body);
    assert.equal((await move({ kind: 'bank_deposit', amount: 100_000 })).status, 201);
    assert.equal((await move({ kind: 'expense', amount: 1250, reason: 'Briefmarken' })).status, 201);
    const { balance } = (await as(shop.http.get('/api/tills')).then((res) => res.body.tills[0])) as { balance: number };
    const closed = await as(shop.http.post(`/api/tills/${till.id}/closes`)).send({
      counted: balance - 200,
      expected: balance,
      reason: 'Wechselgeld falsch herausgegeben',
    });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));

    // Stripe pays its balance out to the bank and says so.
    const payout = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number; status: string };
    assert.equal(payout.status, 'paid');
    const paid = await postEvent(shop, signedEvent('payout.paid', { id: payout.id, object: 'payout' }, webhookSecret));
    assert.equal(paid.status, 200, JSON.stringify(paid.body));

    assert.equal((await as(shop.http.put('/api/accounting/datev/settings')).send(settings)).status, 200);
    const res = await as(shop.http.get('/api/accounting/datev').query({ from: today, to: today }))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    assert.equal(res.status, 200, String(res.body));
    const file = parseDatev(res.body as Buffer);
    const sums = turnovers(file);
    const movement = (account: string) => (sums[account]?.debit ?? 0) - (sums[account]?.credit ?? 0);

    // Every account the file names is one of the chart's, and every line has both sides.
    const known = new Set(Object.values(accounts));
    for (const account of Object.keys(sums)) assert.ok(known.has(account), `account ${account} is in the settings`);
    const debits = Object.values(sums).reduce((total, s) => total + s.debit, 0);
    const creditsTotal = Object.values(sums).reduce((total, s) => total + s.credit, 0);
    assert.equal(debits, creditsTotal, 'debits equal credits');

    // Kasse against the cash book.
    const { rows: book } = await t.db.raw(
      `select coalesce(sum(amount), 0)::bigint as moved, count(*)::integer as n from cash_movements
       where created_at >= ? and created_at < ?`,
      [day.from, day.to],
    );
    assert.ok(book[0].n >= 5, `the cash book has the day's movements (${book[0].n})`);
    assert.equal(movement(accounts.cash), Number(book[0].moved), 'Kasse moves as the cash book');

    // The transit account against Stripe's balance transactions of the day.
    const transactions = await balanceTransactionsBetween(t.db, shop.config, day.from, day.to);
    const types = new Set(transactions.map((txn) => txn.type));
    for (const type of ['charge', 'refund', 'payout']) assert.ok(types.has(type), `Stripe reports a ${type}`);
    const stripeMoved = transactions.reduce((total, txn) => total + txn.net, 0);
    assert.equal(movement(accounts.customers), stripeMoved, 'the transit account moves as Stripe’s balance');

    // The vendors' account against the change of their credit.
    assert.equal(-movement(accounts.vendors), (await totalCredit()) - creditBefore, 'vendors move as their credit');

    // The newspaper's own accounts, the right way round.
    assert.equal(sums[accounts.provider]?.credit ?? 0, 0, 'card fees are only ever debited');
    assert.ok((sums[accounts.provider]?.debit ?? 0) > 0, 'the covered fees are the newspaper’s expense');
    assert.ok((sums[accounts.orga]?.credit ?? 0) > 0, 'licence shares and copies are revenue (credit)');
    assert.deepEqual(sums[accounts.shortfall], { debit: 200, credit: 0 }, 'the shortfall on its own account');
    assert.deepEqual(sums[accounts.otherExpense], { debit: 1250, credit: 0 }, 'the expense');
    assert.deepEqual(
      sums[accounts.bank],
      { debit: 100_000 + payout.amount, credit: 0 },
      'the bank takes the deposit and Stripe’s payout',
    );
    assert.equal(sums[accounts.disputes], undefined, 'no chargeback, no chargeback account');

    // The trial balance says the same, beside the product's own figures, without a difference.
    const trial = await as(shop.http.get('/api/accounting/trial-balance').query({ from: today, to: today }));
    assert.equal(trial.status, 200, JSON.stringify(trial.body));
    assert.equal(trial.body.debit, trial.body.credit);
    assert.equal(trial.body.debit, debits);
    for (const line of trial.body.lines as {
      account: string;
      debit: number;
      credit: number;
      product: number | null;
      difference: number | null;
    }[]) {
      assert.deepEqual([line.debit, line.credit], [sums[line.account]?.debit ?? 0, sums[line.account]?.credit ?? 0]);
      if (line.product !== null) assert.equal(line.difference, 0, `no difference on ${line.account}`);
    }
    const csv = await as(
      shop.http.get('/api/accounting/trial-balance').query({ from: today, to: today, format: 'csv' }),
    ).set('Accept-Language', 'de');
    assert.equal(csv.status, 200);
    const rows = csv.text.slice(1).trim().split('\r\n');
    assert.match(
      rows[0],
      /^"Konto";"Bezeichnung";"Anfangsbestand";"Soll";"Haben";"Endbestand";"Eigene Zahl";"Differenz"$/,
    );
    const cashRow = rows.find((row) => row.startsWith(`"${accounts.cash}"`));
    assert.ok(cashRow?.includes('"Kasse"'), cashRow);
  });

  it('is for staff only', async () => {
    assert.equal((await shop.http.get('/api/accounting/trial-balance')).status, 401);
    const vendor = await t.auth(['vendor'], { preferred_username: 'vendor' });
    assert.equal((await shop.http.get('/api/accounting/trial-balance').set('Authorization', vendor)).status, 403);
  });
});
