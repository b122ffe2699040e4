import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { runReconciliation } from '../../api/src/orders/reconcile.ts';
import { Stripe, stripeClient } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { startHttpFaultProxy, type HttpFaultProxy } from '../support/http-fault-proxy.ts';
import { assertBalanced, balanceOf, itemId, postEvent, signedEvent, vendorId } from '../support/orders.ts';
import { listedVendor, sell } from '../support/sales.ts';
import { bankActsNow, dashboardRefund, payInSandbox, payOutBalance } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Stripe delivers its events in any order (https://docs.stripe.com/webhooks#event-ordering): a
// dispute, a refund or an early fraud warning may reach the shop before the payment's own
// `checkout.session.completed`. Each test pays on the sandbox's page and never opens the success
// page; the shop refuses the sandbox's own deliveries (another signing secret), so the test delivers
// Stripe's events itself, in the order it forces. The order, its flags and the books are right at
// once, without the reconciliation job; Stripe's balance and the books agree right after.

const webhookSecret = 'whsec_not_the_sandbox';
/** https://docs.stripe.com/testing#disputes: a charge disputed as fraudulent. */
const disputeCard = '4000000000000259';
/** https://docs.stripe.com/testing#disputes: an early fraud warning. */
const fraudWarningCard = '4000000000005423';

interface Reconciliation {
  differences: { object: string; figure: string; stripe: number; books: number }[];
  stripe: Record<string, number>;
  books: Record<string, number>;
}

describeApi('Stripe’s events in any order: nothing is lost for arriving before the payment', (t) => {
  let proxy: HttpFaultProxy;
  let shop: ListeningShop;
  let office = '';
  let stripe: Stripe;
  let start = '';
  before(async () => {
    // The shop reaches its sandbox through a proxy that can answer Stripe's 429 or 500.
    proxy = await startHttpFaultProxy();
    shop = await listenShop(t, (c) => ({
      orderRateLimit: 10_000,
      stripe: { ...c.stripe, apiUrl: proxy.url, webhookSecret },
    }));
    proxy.target = shop.url;
    office = await t.office();
    stripe = stripeClient(t.db, shop.config);
  });
  after(async () => {
    await shop.close();
    await proxy.close();
  });
  beforeEach(async () => {
    Object.assign(proxy, { mode: 'pass', only: undefined, faults: undefined });
    await t.reset();
    // The period starts with the test (whole seconds, as Stripe counts time): the demo's history is not Stripe's.
    start = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString();
  });

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const deliver = async (type: string, object: { id: string; object: string }) => {
    const res = await postEvent(shop, signedEvent(type, object, webhookSecret));
    assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.duplicate, false);
  };
  const staffOrder = async (id: number) => {
    const res = await as(shop.http.get('/api/orders')).query({ filter: JSON.stringify({ id: [id] }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body[0] as { status: string; amountRefunded: number; fee: number | null; fraudWarning: string | null };
  };
  const rows = async (orderId: number, kind: string) =>
    (await t.db('ledger_rows').where({ order_id: orderId, kind }).orderBy('id')).map((r) => Number(r.amount));
  const reconcile = async () => {
    const res = await as(shop.http.get('/api/stripe-reconciliation')).query({
      from: start,
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Reconciliation;
  };
  const assertNoDifference = async () => {
    const result = await reconcile();
    assert.deepEqual(result.differences, [], 'no difference between Stripe and the books');
    assert.deepEqual(result.books, result.stripe);
  };

  /**
   * A customer orders a paper from `vendor` and pays with `card` on the sandbox's page, then closes
   * the browser: the success page never asks, no event has arrived. Answers the order (pending) and
   * Stripe's payment intent and charge.
   */
  async function payUnseen(vendor: string, card = '4242424242424242') {
    const placed = await shop.http
      .post('/api/orders')
      .send({ vendor, entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 2 }], tip: 100 });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    await payInSandbox(shop.url, placed.body.checkoutUrl, card);
    const order = (await t.db('orders').where({ token: placed.body.order }).first()) as {
      id: number;
      amount_total: number;
      stripe_session_id: string;
    };
    const session = await stripe.checkout.sessions.retrieve(order.stripe_session_id, {
      expand: ['payment_intent'],
    });
    const intent = session.payment_intent as Stripe.PaymentIntent;
    assert.equal((await staffOrder(order.id)).status, 'pending', 'the shop has heard nothing of the payment yet');
    return { order, session, intent, charge: intent.latest_charge as string };
  }

  it('card 0259: a dispute delivered before checkout.session.completed pays the order and books the chargeback at once', async () => {
    const { order, session, intent } = await payUnseen('DEMO-1', disputeCard);
    await bankActsNow(t.db, shop.url);
    const vendor = await vendorId(t.db, 'DEMO-1');
    const vendorBefore = await balanceOf(t.db, 'vendor', vendor);
    const [dispute] = (await stripe.disputes.list({ payment_intent: intent.id })).data;
    assert.ok(dispute, 'Stripe opened a dispute');

    await deliver('charge.dispute.created', { id: dispute.id, object: 'dispute' });
    const paid = await staffOrder(order.id);
    assert.equal(paid.status, 'paid', 'settled from Stripe first');
    assert.ok(paid.fee && paid.fee > 0, 'with its card fee');
    assert.deepEqual(await rows(order.id, 'dispute'), [order.amount_total], 'the chargeback booked');
    const withdrawn = dispute.balance_transactions.find((bt) => bt.amount < 0)!;
    assert.deepEqual(await rows(order.id, 'dispute_fee'), [withdrawn.fee], 'and its fee');
    const listed = await as(shop.http.get('/api/disputes'));
    assert.deepEqual(
      listed.body.map((d: { id: string }) => d.id),
      [dispute.id],
      'staff see the dispute',
    );
    assert.ok((await balanceOf(t.db, 'vendor', vendor)) > vendorBefore, 'the sale on the vendor’s credit');

    // The payment's own events come late and change nothing.
    await deliver('charge.dispute.funds_withdrawn', { id: dispute.id, object: 'dispute' });
    await deliver('checkout.session.completed', session);
    assert.deepEqual(await rows(order.id, 'dispute'), [order.amount_total], 'booked once');
    assert.equal((await t.db('ledger_rows').where({ order_id: order.id, kind: 'sale' })).length, 1, 'sold once');
    await assertBalanced(t.db);
    await assertNoDifference();
  });

  it('a refund in Stripe’s Dashboard delivered before checkout.session.completed: the order is paid, then refunded, at once', async () => {
    const { order, session, intent, charge } = await payUnseen('DEMO-2');
    const before = (await listedVendor(t, office, 'DEMO-2')).credit;
    const refund = await dashboardRefund(t.db, shop.url, intent.id);

    await deliver('charge.refunded', { id: charge, object: 'charge' });
    const refunded = await staffOrder(order.id);
    assert.deepEqual([refunded.status, refunded.amountRefunded], ['refunded', order.amount_total]);
    assert.ok(refunded.fee && refunded.fee > 0, 'Stripe keeps its fee: booked');
    const fee = refunded.fee;
    const covered = (await rows(order.id, 'fee_cover')).reduce((a, b) => a + b, 0);
    assert.equal(
      (await listedVendor(t, office, 'DEMO-2')).credit,
      before - fee + covered,
      'the sale given back; the card fee stays, borne as the setting says',
    );

    await deliver('refund.created', { id: refund.id as string, object: 'refund' });
    await deliver('checkout.session.completed', session);
    assert.deepEqual(await rows(order.id, 'refund').then((r) => r.reduce((a, b) => a + b, 0)), order.amount_total);
    assert.equal((await staffOrder(order.id)).status, 'refunded', 'a late completion does not make it paid again');
    await assertBalanced(t.db);
    await assertNoDifference();
  });

  it('card 5423: an early fraud warning delivered before checkout.session.completed pays and flags the order at once', async () => {
    const { order, session, intent } = await payUnseen('DEMO-3', fraudWarningCard);
    await bankActsNow(t.db, shop.url);
    const [warning] = (await stripe.radar.earlyFraudWarnings.list({ payment_intent: intent.id })).data;
    assert.ok(warning, 'Stripe warned');

    await deliver('radar.early_fraud_warning.created', { id: warning.id, object: warning.object });
    const flagged = await staffOrder(order.id);
    assert.deepEqual([flagged.status, flagged.fraudWarning], ['paid', warning.fraud_type]);
    await deliver('checkout.session.completed', session);
    assert.equal((await staffOrder(order.id)).fraudWarning, warning.fraud_type, 'still flagged');
    assert.equal(
      (await as(shop.http.post(`/api/orders/${order.id}/refund/`))).status,
      200,
      'staff refund it before the bank disputes it',
    );
    await assertBalanced(t.db);
    await assertNoDifference();
  });

  it('an event about a payment of another shop on the account is answered 200 and changes nothing', async () => {
    const foreign = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price_data: { currency: 'eur', unit_amount: 500, product_data: { name: 'Fremd' } }, quantity: 1 }],
      metadata: { order: '999999' },
      payment_intent_data: { metadata: { order: '999999' } },
      success_url: `${shop.url}/elsewhere`,
    });
    await payInSandbox(shop.url, foreign.url!);
    const intent = (await stripe.checkout.sessions.retrieve(foreign.id)).payment_intent as string;
    const refund = await dashboardRefund(t.db, shop.url, intent);
    await deliver('refund.created', { id: refund.id as string, object: 'refund' });
    assert.equal((await t.db('stripe_refunds').where({ id: refund.id as string })).length, 0);
  });

  it('the job’s sweep meets Stripe’s 429: it waits and asks again, and books a dispute, a refund and a fraud warning whose events never came', async () => {
    const disputed = await payUnseen('DEMO-4', disputeCard);
    await bankActsNow(t.db, shop.url);
    const refunded = await payUnseen('DEMO-5');
    const warned = await payUnseen('DEMO-6', fraudWarningCard);
    await bankActsNow(t.db, shop.url);
    await dashboardRefund(t.db, shop.url, refunded.intent.id);
    const [warning] = (await stripe.radar.earlyFraudWarnings.list({ payment_intent: warned.intent.id })).data;

    Object.assign(proxy, { mode: 'limit', faults: 3 });
    const asked = proxy.seen.length;
    await runReconciliation(t.db, shop.config);
    const limited = proxy.seen.slice(asked, asked + 4);
    assert.equal(limited.length, 4);
    assert.equal(new Set(limited).size, 1, `the same request asked again after each 429: ${limited.join(', ')}`);
    assert.equal(proxy.faults, 0, 'Stripe’s three 429 answers were met');

    assert.deepEqual(await rows(disputed.order.id, 'dispute'), [disputed.order.amount_total], 'the chargeback');
    const refundedNow = await staffOrder(refunded.order.id);
    assert.deepEqual([refundedNow.status, refundedNow.amountRefunded], ['refunded', refunded.order.amount_total]);
    const warnedNow = await staffOrder(warned.order.id);
    assert.deepEqual([warnedNow.status, warnedNow.fraudWarning], ['paid', warning.fraud_type], 'the fraud warning');
    await assertBalanced(t.db);
    await assertNoDifference();
  });

  it('the payout sweep runs when the sweep of refunds fails', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-7', items: { Zeitung: 5 } });
    const payout = (await payOutBalance(t.db, shop.url)) as { id: string; amount: number };
    await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id, 300);

    Object.assign(proxy, { mode: 'fail', only: (request: string) => request === 'GET /v1/refunds' });
    await runReconciliation(t.db, shop.config);
    assert.equal((await staffOrder(order.id)).amountRefunded, 0, 'the refund is not known yet');
    const booked = await t.db('ledger_rows').where({ stripe_ref: payout.id });
    assert.deepEqual(
      booked.map((row) => [row.kind, Number(row.amount)]),
      [['stripe_payout', payout.amount]],
      'the payout booked all the same',
    );

    proxy.mode = 'pass';
    await runReconciliation(t.db, shop.config);
    assert.equal((await staffOrder(order.id)).amountRefunded, 300, 'the next run finds the refund');
    await assertBalanced(t.db);
  });
});
