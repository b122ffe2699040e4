import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { sweepStripeChanges } from '../../api/src/orders/stripe-sweep.ts';
import { bookStripePayout } from '../../api/src/ledger/bank-transfer.ts';
import { Stripe, stripeClient } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { assertBalanced, postEvent, signedEvent } from '../support/orders.ts';
import { listenBooksShop, sell } from '../support/sales.ts';
import { sweepStripePayouts } from '../../api/src/stripe-balance/bank-transfers.ts';
import { bankActsNow, closedAccountIban, dashboardRefund, payOutBalance, settlePayout } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Stripe's balance beside the books: what Stripe's balance transactions say of a period (card money
// in, fees, refunds, disputes, payouts to the bank) and what the ledger booked for the same Stripe
// objects, with every object that differs listed. Stripe is the sandbox, reached by the official
// SDK; the shop refuses the sandbox's own deliveries (another signing secret), so each test delivers
// Stripe's events itself, as Stripe would, or leaves them out.

const webhookSecret = 'whsec_not_the_sandbox';
/** https://docs.stripe.com/testing#disputes: a charge disputed as fraudulent at once. */
const disputeCard = '4000000000000259';

interface Reconciliation {
  from: string;
  to: string;
  stripe: Record<string, number>;
  books: Record<string, number>;
  differences: {
    object: string;
    type: string;
    figure: string;
    stripe: number;
    books: number;
    orderId: number | null;
  }[];
}

/** A CSV as the product writes it (BOM, `;`, every field quoted, decimal comma), as rows of fields. */
function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith('\uFEFF'), 'UTF-8 with a byte order mark');
  return text
    .slice(1)
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(';').map((field) => field.replace(/^"|"$/g, '').replace(/""/g, '"')));
}

/** "-12,34" → -1234 cents. */
const cents = (text: string) => {
  const negative = text.startsWith('-');
  const [euros = '0', rest = '0'] = text.replace('-', '').split(',');
  return (negative ? -1 : 1) * (Number(euros) * 100 + Number(rest));
};

describeApi('Stripe reconciliation: Stripe’s balance transactions beside the books', (t) => {
  let shop: ListeningShop;
  let office = '';
  let stripe: Stripe;
  let start = '';
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
    stripe = stripeClient(t.db, shop.config);
  });
  after(() => shop.close());
  beforeEach(async () => {
    await t.reset();
    // The period starts with the test (whole seconds, as Stripe counts time): the demo's history is not Stripe's.
    start = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString();
  });

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const deliver = async (type: string, object: { id: string; object: string }, via = shop) => {
    const res = await postEvent(via, signedEvent(type, object, webhookSecret));
    assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
  };
  const period = () => ({ from: start, to: new Date(Date.now() + 60_000).toISOString() });
  const reconcile = async (via = shop) => {
    const res = await as(via.http.get('/api/stripe-reconciliation')).query(period());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Reconciliation;
  };

  it('sales, a refund, a dispute and a payout to the bank: Stripe and the books agree, no difference', async () => {
    const first = await sell(shop, t.db, { vendor: 'DEMO-1', tip: 100 });
    const second = await sell(shop, t.db, { vendor: 'DEMO-2', items: { Zeitung: 2 } });
    const disputed = await sell(shop, t.db, { vendor: 'DEMO-3', card: disputeCard });
    await bankActsNow(t.db, shop.url);
    // Enough card money for Stripe to pay out beside the chargeback's fee.
    const large = await sell(shop, t.db, { vendor: 'DEMO-4', items: { Zeitung: 15 }, tip: 1000 });
    const refunded = await as(shop.http.post(`/api/orders/${second.id}/refund/`));
    assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
    for (const dispute of (await stripe.disputes.list({ payment_intent: disputed.stripe_payment_intent_id })).data) {
      await deliver('charge.dispute.created', { id: dispute.id, object: 'dispute' });
      await deliver('charge.dispute.funds_withdrawn', { id: dispute.id, object: 'dispute' });
    }
    const payout = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number; status: string };
    assert.equal(payout.status, 'paid');
    // Stripe sends an event again when it hears no answer; the payout is booked once.
    await deliver('payout.paid', { id: payout.id, object: 'payout' });
    await deliver('payout.paid', { id: payout.id, object: 'payout' });
    const booked = await t.db('ledger_rows').where({ stripe_ref: payout.id });
    assert.deepEqual(
      booked.map((row) => [row.kind, Number(row.amount)]),
      [['stripe_payout', payout.amount]],
      'one payout row, once',
    );
    const [bank, transit] = await Promise.all(
      ['bank', 'customers'].map(async (kind) => (await t.db('ledger_accounts').where({ kind }).first()).id as number),
    );
    assert.deepEqual([booked[0].sender_id, booked[0].receiver_id], [bank, transit], 'bank ← money in transit');
    await assertBalanced(t.db);

    const result = await reconcile();
    assert.deepEqual(result.differences, [], 'no difference');
    assert.deepEqual(result.books, result.stripe, 'every figure the same on both sides');
    const paid = first.amount_total + second.amount_total + disputed.amount_total + large.amount_total;
    assert.equal(result.stripe.charges, paid, 'the card money of four sales');
    assert.equal(result.stripe.cardFees, -(first.fee! + second.fee! + disputed.fee! + large.fee!), 'their card fees');
    assert.equal(result.stripe.refunds, -second.amount_total, 'the refund');
    assert.equal(result.stripe.disputes, -disputed.amount_total, 'the chargeback');
    assert.ok(result.stripe.disputeFees < 0, 'its fee');
    assert.equal(result.stripe.payouts, -payout.amount, 'the payout to the bank');
    assert.equal(result.stripe.total, 0, 'Stripe paid out all it held: it holds what it held before');
  });

  it('a refund made in Stripe’s Dashboard whose events were lost is the one difference until the sweep books it', async () => {
    await sell(shop, t.db, { vendor: 'DEMO-1' });
    const order = await sell(shop, t.db, { vendor: 'DEMO-2', tip: 200 });
    const refund = await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id);
    // No event is delivered: the books know nothing of it.
    const before = await reconcile();
    assert.deepEqual(
      before.differences.map((d) => [d.object, d.type, d.figure, d.stripe, d.books, d.orderId]),
      [[refund.id, 'refund', 'refunds', -order.amount_total, 0, order.id]],
      'exactly one difference, naming the refund and its order',
    );
    assert.equal(before.stripe.refunds - before.books.refunds, -order.amount_total, 'the totals differ by it');

    await sweepStripeChanges(t.db, shop.config);
    const after = await reconcile();
    assert.deepEqual(after.differences, [], 'booked by the sweep, nothing differs');
    assert.deepEqual(after.books, after.stripe);
    await assertBalanced(t.db);
  });

  it('the CSV holds the same figures and differences, German or English', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-4', tip: 150 });
    const refund = await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id, 300);
    const json = await reconcile();
    assert.equal(json.differences.length, 1);

    for (const [lang, total, difference, refundsName] of [
      ['de', 'Summe', 'Differenz', 'Erstattungen an Kundschaft'],
      ['en', 'Total', 'Difference', 'Refunds to customers'],
    ] as const) {
      const res = await as(shop.http.get('/api/stripe-reconciliation.csv')).query({ ...period(), lang });
      assert.equal(res.status, 200, res.text);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      const [header, ...rows] = parseCsv(res.text);
      const column = (name: string) => {
        const at = header.findIndex((h) => h === name);
        assert.ok(at >= 0, `${lang}: column ${name} in ${header.join(', ')}`);
        return at;
      };
      const [stripeAt, booksAt] =
        lang === 'de' ? [column('Stripe'), column('Bücher')] : [column('Stripe'), column('Books')];
      const totals = rows.filter((row) => row[0] === total);
      const differences = rows.filter((row) => row[0] === difference);
      assert.equal(totals.length, 12, `${lang}: eleven figures and their sum`);
      assert.deepEqual(
        totals.map((row) => cents(row[stripeAt])),
        [...Object.values(json.stripe)],
        `${lang}: Stripe's figures`,
      );
      assert.deepEqual(
        totals.map((row) => cents(row[booksAt])),
        [...Object.values(json.books)],
        `${lang}: the books' figures`,
      );
      assert.equal(differences.length, 1, `${lang}: one difference`);
      assert.ok(differences[0].includes(refund.id as string), `${lang}: it names the refund`);
      assert.ok(differences[0].includes(refundsName), `${lang}: as a refund`);
      assert.equal(cents(differences[0][stripeAt]), -300);
      assert.equal(cents(differences[0][booksAt]), 0);
    }
  });

  it('a payout that fails after it was paid is given back once; one never paid books nothing', async () => {
    const paid = { id: 'po_test_fails_later', status: 'paid', amount: 1234 };
    assert.equal(await bookStripePayout(t.db, paid), 'paid');
    assert.equal(await bookStripePayout(t.db, paid), null, 'paid once');
    assert.equal(await bookStripePayout(t.db, { ...paid, status: 'failed' }), 'failed');
    assert.equal(await bookStripePayout(t.db, { ...paid, status: 'failed' }), null, 'given back once');
    assert.equal(await bookStripePayout(t.db, { id: 'po_test_canceled', status: 'canceled', amount: 500 }), null);
    assert.equal(await bookStripePayout(t.db, { id: 'po_test_pending', status: 'in_transit', amount: 500 }), null);
    const rows = await t.db('ledger_rows').whereLike('stripe_ref', 'po_test_%').orderBy('id');
    assert.deepEqual(
      rows.map((row) => [row.kind, row.stripe_ref, Number(row.amount)]),
      [
        ['stripe_payout', 'po_test_fails_later', 1234],
        ['stripe_payout_failed', 'po_test_fails_later', 1234],
      ],
    );
    await assertBalanced(t.db);
  });

  /** The ledger rows that book the payout `id`, as [kind, amount]. */
  const payoutRows = async (id: string) =>
    (await t.db('ledger_rows').where({ stripe_ref: id }).orderBy('id')).map((row) => [row.kind, Number(row.amount)]);

  it('a payout counts as at the bank only once it is paid: pending and in transit book nothing', async () => {
    await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 4 } });
    const created = (await payOutBalance(t.db, shop.url, { settle: false })) as { id: string; status: string };
    assert.equal(created.status, 'pending');
    await deliver('payout.created', { id: created.id, object: 'payout' });
    await sweepStripePayouts(t.db, shop.config);
    assert.deepEqual(await payoutRows(created.id), [], 'nothing at the bank yet');

    const paid = (await settlePayout(t.db, shop.url, created.id)) as { id: string; amount: number; status: string };
    assert.equal(paid.status, 'paid');
    await deliver('payout.updated', { id: paid.id, object: 'payout' });
    await deliver('payout.paid', { id: paid.id, object: 'payout' });
    assert.deepEqual(await payoutRows(paid.id), [['stripe_payout', paid.amount]], 'at the bank once paid');
    await assertBalanced(t.db);
    const result = await reconcile();
    assert.deepEqual(result.differences, [], 'no difference');
    assert.equal(result.books.payouts, -paid.amount);
  });

  it('a payout that fails at the bank (Stripe’s closed-account IBAN) leaves the money in the Stripe balance: no difference', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-2', items: { Zeitung: 3 }, tip: 100 });
    const failed = (await payOutBalance(t.db, shop.url, { iban: closedAccountIban })) as {
      id: string;
      amount: number;
      status: string;
      failure_code: string;
    };
    assert.deepEqual([failed.status, failed.failure_code], ['failed', 'account_closed']);
    await deliver('payout.failed', { id: failed.id, object: 'payout' });
    await deliver('payout.updated', { id: failed.id, object: 'payout' });
    assert.deepEqual(await payoutRows(failed.id), [], 'it never reached the bank');
    await assertBalanced(t.db);
    const result = await reconcile();
    assert.deepEqual(result.differences, [], 'no difference');
    assert.deepEqual(result.books, result.stripe, 'every figure the same on both sides');
    assert.equal(result.stripe.total, order.amount_total - order.fee!, 'Stripe holds the sale again');

    // The next payout takes the returned money to a bank account that works.
    const next = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number; status: string };
    assert.deepEqual([next.status, next.amount], ['paid', failed.amount]);
    await deliver('payout.paid', { id: next.id, object: 'payout' });
    assert.deepEqual(await payoutRows(next.id), [['stripe_payout', next.amount]]);
    const after = await reconcile();
    assert.deepEqual(after.differences, [], 'no difference after the next payout');
    assert.equal(after.stripe.total, 0, 'all of it at the bank');
  });

  it('payout events in any order and twice book each payout once; the sweep books one whose events never came', async () => {
    await sell(shop, t.db, { vendor: 'DEMO-3', items: { Zeitung: 2 } });
    const paid = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number };
    for (const type of ['payout.paid', 'payout.updated', 'payout.paid', 'payout.updated', 'payout.created'])
      await deliver(type, { id: paid.id, object: 'payout' });
    assert.deepEqual(await payoutRows(paid.id), [['stripe_payout', paid.amount]], 'one row, once');

    await sell(shop, t.db, { vendor: 'DEMO-4', items: { Zeitung: 2 } });
    const failed = (await payOutBalance(t.db, shop.url, { iban: closedAccountIban })) as { id: string };
    for (const type of ['payout.failed', 'payout.paid', 'payout.created', 'payout.failed'])
      await deliver(type, { id: failed.id, object: 'payout' });
    assert.deepEqual(await payoutRows(failed.id), []);

    // Stripe's events of this one are lost: the sweep finds it paid.
    const lost = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number };
    assert.deepEqual(await payoutRows(lost.id), []);
    assert.equal((await sweepStripePayouts(t.db, shop.config)).failed, 0);
    assert.deepEqual(await payoutRows(lost.id), [['stripe_payout', lost.amount]], 'the sweep booked it');
    await sweepStripePayouts(t.db, shop.config);
    assert.deepEqual(await payoutRows(lost.id), [['stripe_payout', lost.amount]], 'once');
    await assertBalanced(t.db);
    const result = await reconcile();
    assert.deepEqual(result.differences, [], 'no difference');
    assert.equal(result.stripe.total, 0, 'everything at the bank');
  });

  it('a paper in francs: its sales, fees, refund and payout to the bank are booked and agree with Stripe', async function () {
    this.timeout(60_000);
    await t.db('settings').update({ currency: 'CHF' });
    const francs = await listenBooksShop(t, { sandboxCurrencies: ['chf'] });
    try {
      const sold = await sell(francs, t.db, { vendor: 'DEMO-1', items: { Zeitung: 4 }, tip: 100 });
      const refunded = await sell(francs, t.db, { vendor: 'DEMO-2', items: { Zeitung: 2 } });
      assert.equal((await as(francs.http.post(`/api/orders/${refunded.id}/refund/`))).status, 200);
      const paid = (await payOutBalance(t.db, francs.url)) as { id: string; amount: number; currency: string };
      assert.equal(paid.currency, 'chf');
      await deliver('payout.paid', { id: paid.id, object: 'payout' }, francs);
      assert.deepEqual(await payoutRows(paid.id), [['stripe_payout', paid.amount]], 'the francs reached the bank');
      await assertBalanced(t.db);
      const result = await reconcile(francs);
      assert.deepEqual(result.differences, [], 'no difference');
      assert.deepEqual(result.books, result.stripe, 'every figure the same on both sides');
      assert.equal(result.stripe.charges, sold.amount_total + refunded.amount_total);
      assert.equal(result.stripe.other, 0, 'nothing of Stripe’s left unread');
      assert.equal(result.stripe.payouts, -paid.amount);
    } finally {
      await francs.close();
    }
  });

  it('the DATEV export books a payout Soll bank, Haben money in transit', async () => {
    await sell(shop, t.db, { vendor: 'DEMO-1', tip: 100 });
    const payout = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number };
    await deliver('payout.paid', { id: payout.id, object: 'payout' });
    const settings = (await as(shop.http.get('/api/accounting/datev/settings'))).body as Record<string, unknown>;
    assert.equal((settings.accounts as Record<string, string>).bank, '1200', 'SKR03: Bank');
    const { chartDefaults: _defaults, ...saved } = settings;
    const put = await as(shop.http.put('/api/accounting/datev/settings')).send({
      ...saved,
      adviserNumber: '29098',
      clientNumber: '55003',
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const res = await as(shop.http.get('/api/accounting/datev'))
      .query(period())
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('latin1')));
      });
    assert.equal(res.status, 200);
    const lines = (res.body as string).split('\r\n').map((line) => line.split(';'));
    const amount = `${Math.trunc(payout.amount / 100)},${String(payout.amount % 100).padStart(2, '0')}`;
    const line = lines.find((fields) => fields[0] === amount && fields[6] === '1200');
    assert.ok(line, `a line of ${amount} on 1200`);
    assert.deepEqual([line[1], line[6], line[7]], ['"S"', '1200', '1360'], 'Soll Bank 1200, Haben Geldtransit 1360');
  });

  it('is for staff only, and asks for both days', async () => {
    const vendor = await t.auth(['vendor']);
    const refused = await shop.http.get('/api/stripe-reconciliation').query(period()).set('Authorization', vendor);
    assert.equal(refused.status, 403);
    const open = await as(shop.http.get('/api/stripe-reconciliation')).query({ from: '2026-05-01' });
    assert.equal(open.status, 400);
    assert.match(open.body.message ?? open.text, /first and the last day/);
    const german = await as(shop.http.get('/api/stripe-reconciliation'))
      .query({ from: '2026-05-01' })
      .set('Accept-Language', 'de');
    assert.match(german.body.message ?? german.text, /ersten und den letzten Tag/);
    // A year would be thousands of Stripe calls: a quarter at most, asked of nobody.
    const year = await as(shop.http.get('/api/stripe-reconciliation'))
      .query({ from: '2025-01-01', to: '2025-12-31' })
      .set('Accept-Language', 'de');
    assert.equal(year.status, 400);
    assert.equal(year.body.message, 'Bitte höchstens 92 Tage auf einmal mit Stripe abgleichen.');
    assert.equal(
      (await as(shop.http.get('/api/stripe-reconciliation')).query({ from: '2025-01-01', to: '2025-03-31' })).status,
      200,
      'a quarter is compared',
    );
  });

  it('says so in the reader’s language when Stripe cannot be asked', async () => {
    // Nothing listens on port 9 (discard): every request to "Stripe" is refused at once.
    const cut = await listenShop(t, (c) => ({
      stripe: { ...c.stripe, apiUrl: 'http://127.0.0.1:9' },
      stripeTimeoutMs: 1000,
    }));
    try {
      for (const [language, text] of [
        ['de', 'Stripe konnte nicht nach seinen Saldobewegungen gefragt werden. Bitte später erneut versuchen.'],
        ['en', 'Stripe could not be asked for its balance transactions. Please try again later.'],
      ] as const) {
        const res = await as(cut.http.get('/api/stripe-reconciliation'))
          .query({ from: '2026-05-01', to: '2026-05-31' })
          .set('Accept-Language', language);
        assert.equal(res.status, 502, JSON.stringify(res.body));
        assert.equal(res.body.message, text);
      }
    } finally {
      await cut.close();
    }
  });
});
