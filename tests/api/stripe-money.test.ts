import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { Stripe, stripeClient } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { assertBalanced, balanceOf, postEvent, signedEvent, vendorId } from '../support/orders.ts';
import { listedVendor, listenBooksShop, noFeeCard, sell } from '../support/sales.ts';
import { sweepStripeChanges } from '../../api/src/orders/stripe-sweep.ts';
import { SANDBOX_COUNTERED_DISPUTE_FEE, SANDBOX_DISPUTE_FEE } from '../../api/src/stripe/sandbox/lifecycle.ts';
import { bankActsNow, dashboardRefund, disputeCharge, finishRefund, releaseHeldFee } from '../support/sandbox.ts';
import { startHttpFaultProxy } from '../support/http-fault-proxy.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The money of Stripe's lifecycle, to the cent, as Stripe runs it (its test cards, reached through
// the official SDK at the sandbox): a refund that fails after it succeeded, refunds in parts, several
// disputes on one charge, a refund and a dispute of one sale, a fee that arrives after the refund, a
// dispute won with its fee returned. Each test shows the vendor's credit, the order's state and a
// balanced ledger. The shop refuses the sandbox's own deliveries (another signing secret), so each
// test delivers Stripe's events itself, as Stripe would.

const webhookSecret = 'whsec_not_the_sandbox';
/** https://docs.stripe.com/testing#refunds: "The refund begins as succeeded … later transitions to failed". */
const refundFailsLaterCard = '4000000000005126';
/** https://docs.stripe.com/testing#disputes: a charge disputed more than once. */
const multipleDisputesCard = '4000000404000079';
/** https://docs.stripe.com/testing#disputes: a charge disputed as fraudulent. */
const disputeCard = '4000000000000259';
/** https://docs.stripe.com/testing#disputes: an inquiry, which withdraws nothing. */
const inquiryCard = '4000000000001976';
/** https://docs.stripe.com/testing#disputes: an early fraud warning. */
const fraudWarningCard = '4000000000005423';

describeApi('Stripe money: refunds and disputes as Stripe runs them, to the cent', (t) => {
  let shop: ListeningShop;
  let office = '';
  let stripe: Stripe;
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
    stripe = stripeClient(t.db, shop.config);
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const deliver = async (type: string, object: { id: string; object: string }) => {
    const res = await postEvent(shop, signedEvent(type, object, webhookSecret));
    assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
  };
  const credit = async (licenseId: string) => (await listedVendor(t, office, licenseId)).credit;
  const staffOrder = async (id: number) => {
    const res = await as(shop.http.get('/api/orders')).query({ filter: JSON.stringify({ id: [id] }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body[0] as { status: string; amountRefunded: number; fee: number | null; fraudWarning: string | null };
  };
  const rows = async (orderId: number, kind: string) =>
    (await t.db('ledger_rows').where({ order_id: orderId, kind }).orderBy('id')).map((r) => Number(r.amount));
  const chargeOf = async (intent: string) => (await stripe.paymentIntents.retrieve(intent)).latest_charge as string;
  const disputesOf = async (intent: string) => (await stripe.disputes.list({ payment_intent: intent })).data;

  it('card 5126: a refund that succeeds and later fails gives the vendor the credit back once refund.failed arrives', async () => {
    const before = await credit('DEMO-3');
    const order = await sell(shop, t.db, { vendor: 'DEMO-3', tip: 100, card: refundFailsLaterCard });
    const afterSale = await credit('DEMO-3');
    assert.ok(afterSale > before, 'the sale and tip on the credit');
    const refunded = await as(shop.http.post(`/api/orders/${order.id}/refund/`));
    assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
    assert.equal(refunded.body.status, 'refunded', 'Stripe says succeeded at first');
    assert.equal(await credit('DEMO-3'), afterSale - order.amount_total);
    const [refund] = (await stripe.refunds.list({ payment_intent: order.stripe_payment_intent_id })).data;
    assert.equal(refund?.status, 'succeeded');

    await finishRefund(t.db, shop.url, refund.id);
    assert.equal((await stripe.refunds.retrieve(refund.id)).status, 'failed', 'later, the bank refuses it');
    for (let i = 0; i < 2; i++) {
      await deliver('refund.failed', { id: refund.id, object: 'refund' });
      await deliver('refund.updated', { id: refund.id, object: 'refund' });
    }
    assert.equal(await credit('DEMO-3'), afterSale, 'the credit as before the refund');
    assert.deepEqual(await staffOrder(order.id).then((o) => [o.status, o.amountRefunded]), ['paid', 0]);
    assert.deepEqual(
      await rows(order.id, 'refund_failed'),
      await rows(order.id, 'refund'),
      'each refund row given back',
    );
    await assertBalanced(t.db);
  });

  it('two partial refunds in Stripe’s Dashboard (8,00 € and 1,00 € of 9,00 €) book each by its amount', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-4', items: { Zeitung: 2, 'Digitale Ausgabe': 1 } });
    assert.equal(order.amount_total, 900);
    const licence = (await rows(order.id, 'licence'))[0];
    const afterSale = await credit('DEMO-4');
    const charge = await chargeOf(order.stripe_payment_intent_id);

    const first = await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id, 800);
    await deliver('charge.refunded', { id: charge, object: 'charge' });
    await deliver('refund.created', { id: first.id as string, object: 'refund' });
    const part = await staffOrder(order.id);
    assert.deepEqual([part.status, part.amountRefunded], ['paid', 800], 'partly refunded');
    const customers = (await t.db('ledger_accounts').where({ kind: 'customers' }).first()).id as number;
    const back = async () =>
      (await t.db('ledger_rows').where({ order_id: order.id, kind: 'refund', receiver_id: customers })).reduce(
        (sum, r) => sum + Number(r.amount),
        0,
      );
    assert.equal(await back(), 800, 'the customer got 8,00 € back from the vendor');
    // docs/books.md: the licence share goes back in the same proportion, rounded down.
    assert.equal(await credit('DEMO-4'), afterSale - 800 + Math.floor((licence * 800) / 900), '8/9 of the sale');

    const second = await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id, 100);
    await deliver('refund.created', { id: second.id as string, object: 'refund' });
    await deliver('charge.refunded', { id: charge, object: 'charge' });
    assert.deepEqual(await staffOrder(order.id).then((o) => [o.status, o.amountRefunded]), ['refunded', 900]);
    assert.equal(await back(), 900);
    assert.equal(
      await credit('DEMO-4'),
      afterSale - (900 - licence),
      'all of the sale given back, the licence share too (the card fee stays: Stripe keeps it)',
    );
    const stripeCharge = await stripe.charges.retrieve(charge);
    assert.equal(stripeCharge.amount_refunded, 900, 'what Stripe says it refunded');
    await assertBalanced(t.db);
  });

  it('card 4000 0004 0400 0079: two disputes on one charge, both recorded and booked, every delivery 2xx', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-5', card: multipleDisputesCard });
    await bankActsNow(t.db, shop.url);
    const vendor = await vendorId(t.db, 'DEMO-5');
    const vendorBefore = await balanceOf(t.db, 'vendor', vendor);
    const disputes = await disputesOf(order.stripe_payment_intent_id);
    assert.ok(disputes.length >= 2, `Stripe opened ${disputes.length} disputes`);
    for (const dispute of disputes) {
      await deliver('charge.dispute.created', { id: dispute.id, object: 'dispute' });
      await deliver('charge.dispute.funds_withdrawn', { id: dispute.id, object: 'dispute' });
    }
    const listed = await as(shop.http.get('/api/disputes'));
    assert.deepEqual(
      listed.body.map((d: { id: string }) => d.id).sort(),
      disputes.map((d) => d.id).sort(),
      'both recorded',
    );
    const withdrawn = disputes.flatMap((d) => d.balance_transactions.filter((bt) => bt.amount < 0));
    assert.deepEqual(
      await rows(order.id, 'dispute'),
      withdrawn.map((bt) => -bt.amount),
      'each withdrawal booked once',
    );
    assert.deepEqual(
      (await rows(order.id, 'dispute_fee')).reduce((a, b) => a + b, 0),
      withdrawn.reduce((sum, bt) => sum + bt.fee, 0),
      'and each fee',
    );
    assert.equal(await balanceOf(t.db, 'vendor', vendor), vendorBefore, 'the newspaper bears them until staff decide');
    assert.equal((await staffOrder(order.id)).status, 'paid', 'a disputed order stays paid: the disputes decide');
    await assertBalanced(t.db);
  });

  it('a refund and then a dispute of the same sale decided against the vendor charges the vendor once', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-6', tip: 100 });
    const afterSale = await credit('DEMO-6');
    assert.equal((await as(shop.http.post(`/api/orders/${order.id}/refund/`))).status, 200);
    const afterRefund = await credit('DEMO-6');
    assert.equal(afterRefund, afterSale - order.amount_total);
    const dispute = await disputeCharge(t.db, shop.url, await chargeOf(order.stripe_payment_intent_id));
    await deliver('charge.dispute.created', { id: dispute.id as string, object: 'dispute' });
    const decided = await as(shop.http.post(`/api/disputes/${dispute.id as string}/decision`)).send({
      bearer: 'vendor',
    });
    assert.equal(decided.status, 409, JSON.stringify(decided.body));
    assert.match(decided.body.message, /second time/);
    assert.equal(await credit('DEMO-6'), afterRefund, 'the refund took it from the credit once');
    assert.deepEqual(await staffOrder(order.id).then((o) => o.status), 'refunded');
    const onNewspaper = await as(shop.http.post(`/api/disputes/${dispute.id as string}/decision`)).send({
      bearer: 'newspaper',
    });
    assert.equal(onNewspaper.status, 200, JSON.stringify(onNewspaper.body));
    await assertBalanced(t.db);
  });

  it('refuses to refund a payment with an open dispute, as Stripe does', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-7', card: disputeCard });
    await bankActsNow(t.db, shop.url);
    const [dispute] = await disputesOf(order.stripe_payment_intent_id);
    await deliver('charge.dispute.created', { id: dispute.id, object: 'dispute' });
    const res = await as(shop.http.post(`/api/orders/${order.id}/refund/`)).set('Accept-Language', 'de');
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.match(res.body.message, /angefochten/);
    await assert.rejects(stripe.refunds.create({ payment_intent: order.stripe_payment_intent_id }), {
      code: 'charge_disputed',
    });
  });

  it('card 1976: an inquiry leaves the payment refundable while Stripe says is_charge_refundable; escalated to a chargeback, it is not', async () => {
    const asked = await sell(shop, t.db, { vendor: 'DEMO-6', card: inquiryCard });
    await bankActsNow(t.db, shop.url);
    const [inquiry] = await disputesOf(asked.stripe_payment_intent_id);
    assert.deepEqual([inquiry?.status, inquiry?.is_charge_refundable], ['warning_needs_response', true]);
    await deliver('charge.dispute.created', { id: inquiry.id, object: 'dispute' });
    const afterSale = await credit('DEMO-6');
    const refunded = await as(shop.http.post(`/api/orders/${asked.id}/refund/`));
    assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
    assert.equal(refunded.body.status, 'refunded');
    assert.equal(await credit('DEMO-6'), afterSale - asked.amount_total, 'the sale given back');
    assert.equal((await stripe.charges.retrieve(await chargeOf(asked.stripe_payment_intent_id))).refunded, true);

    const escalated = await sell(shop, t.db, { vendor: 'DEMO-7', card: inquiryCard });
    await bankActsNow(t.db, shop.url);
    const [second] = await disputesOf(escalated.stripe_payment_intent_id);
    await deliver('charge.dispute.created', { id: second.id, object: 'dispute' });
    // The bank turns the inquiry into a chargeback; its event has not arrived yet.
    await stripe.disputes.update(second.id, {
      evidence: { uncategorized_text: 'escalate_inquiry_evidence' },
      submit: true,
    });
    const refused = await as(shop.http.post(`/api/orders/${escalated.id}/refund/`)).set('Accept-Language', 'de');
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.message, /angefochten/);
    assert.deepEqual(
      await rows(escalated.id, 'dispute'),
      [escalated.amount_total],
      'the chargeback booked as Stripe has it',
    );
    await assertBalanced(t.db);
  });

  it('a refund Stripe refused is asked for under a new key, so it goes through once the payment is refundable again', async () => {
    // The staff's requests go to a shop whose Stripe requests pass through a proxy that shows their keys.
    const proxy = await startHttpFaultProxy(shop.url);
    const watched = await listenShop(t, (c) => ({ stripe: { ...c.stripe, apiUrl: proxy.url, webhookSecret } }));
    const refund = (id: number) => as(watched.http.post(`/api/orders/${id}/refund/`));
    try {
      const order = await sell(shop, t.db, { vendor: 'DEMO-8', card: refundFailsLaterCard });
      const afterSale = await credit('DEMO-8');
      // Someone refunds it in Stripe's Dashboard; its events are lost.
      const dashboard = await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id);
      const refused = await refund(order.id);
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.match(refused.body.message, /Stripe refused the refund: .*already been refunded/);
      // Later the card's bank refuses the Dashboard's refund: the money is back at Stripe.
      await finishRefund(t.db, shop.url, dashboard.id as string);

      const again = await refund(order.id);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.status, 'refunded');
      // https://docs.stripe.com/api/idempotent_requests: the refused key would answer the refusal again.
      const [first, second] = proxy.idempotencyKeys;
      assert.equal(proxy.idempotencyKeys.length, 2, proxy.idempotencyKeys.join(', '));
      assert.notEqual(second, first, 'the second attempt under a key of its own');
      assert.equal(await credit('DEMO-8'), afterSale - order.amount_total);
      const refunds = (await stripe.refunds.list({ payment_intent: order.stripe_payment_intent_id })).data;
      assert.deepEqual(
        refunds.map((r) => r.status),
        ['succeeded', 'failed'],
        'the shop’s refund beside the failed one of the Dashboard',
      );
      const protocol = await as(shop.http.get('/api/protocol')).query({
        filter: JSON.stringify({ action: 'payment.refund_refused' }),
      });
      assert.equal(protocol.status, 200, JSON.stringify(protocol.body));
      assert.deepEqual(
        protocol.body.map((entry: { recordId: string; details: { reason: string } }) => [
          entry.recordId,
          entry.details.reason,
        ]),
        [[String(order.id), 'charge_already_refunded']],
        'the refusal is in the protocol with Stripe’s code',
      );
      await assertBalanced(t.db);
    } finally {
      await watched.close();
      await proxy.close();
    }
  });

  it('a refund within a second of the payment, before Stripe knows the fee: the fee is booked when it arrives', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-8', card: noFeeCard });
    assert.equal(order.fee, null);
    assert.equal((await as(shop.http.post(`/api/orders/${order.id}/refund/`))).status, 200);
    const afterRefund = await credit('DEMO-8');
    const session = (await t.db('orders').where({ id: order.id }).first()).stripe_session_id as string;
    await releaseHeldFee(t.db, shop.url, session);
    await deliver('charge.updated', await stripe.charges.retrieve(await chargeOf(order.stripe_payment_intent_id)));
    const fee = (await rows(order.id, 'fee'))[0];
    assert.ok(fee && fee > 0, 'Stripe kept its fee: booked');
    const stored = await staffOrder(order.id);
    assert.deepEqual([stored.status, stored.fee], ['refunded', fee]);
    const covered = (await rows(order.id, 'fee_cover')).reduce((a, b) => a + b, 0);
    assert.equal(await credit('DEMO-8'), afterRefund - fee + covered, 'borne as the setting says');
    await assertBalanced(t.db);
  });

  it('a dispute won returns the amount and the countered-dispute fee; the fee for receiving the dispute stays with Stripe', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-9', card: disputeCard });
    await bankActsNow(t.db, shop.url);
    const newspaperBefore = await balanceOf(t.db, 'orga');
    const vendorBefore = await credit('DEMO-9');
    const [dispute] = await disputesOf(order.stripe_payment_intent_id);
    await deliver('charge.dispute.created', { id: dispute.id, object: 'dispute' });
    assert.ok(newspaperBefore > (await balanceOf(t.db, 'orga')), 'the withdrawal and its fee');
    await stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: 'winning_evidence' }, submit: true });
    await deliver('charge.dispute.funds_reinstated', { id: dispute.id, object: 'dispute' });
    await deliver('charge.dispute.closed', { id: dispute.id, object: 'dispute' });
    const won = await stripe.disputes.retrieve(dispute.id);
    const fees = won.balance_transactions.reduce((sum, bt) => sum + bt.fee, 0);
    const returned = -won.balance_transactions.filter((bt) => bt.fee < 0).reduce((sum, bt) => sum + bt.fee, 0);
    assert.equal(returned, SANDBOX_COUNTERED_DISPUTE_FEE, 'Stripe returned the countered-dispute fee');
    assert.deepEqual(await rows(order.id, 'dispute_fee_returned'), [returned]);
    assert.equal(await balanceOf(t.db, 'orga'), newspaperBefore - fees, 'what Stripe’s balance transactions say');
    assert.equal(fees, SANDBOX_DISPUTE_FEE, 'the fee for receiving the dispute is never returned');
    assert.equal(await credit('DEMO-9'), vendorBefore, 'the vendor’s credit never moved');
    assert.equal((await staffOrder(order.id)).status, 'paid');
    await assertBalanced(t.db);
  });

  it('the job books a refund made at Stripe whose events were lost, and a dispute whose events were lost', async () => {
    const refunded = await sell(shop, t.db, { vendor: 'DEMO-3' });
    const disputed = await sell(shop, t.db, { vendor: 'DEMO-4', card: disputeCard });
    await bankActsNow(t.db, shop.url);
    const afterSale = await credit('DEMO-3');
    await dashboardRefund(t.db, shop.url, refunded.stripe_payment_intent_id);
    assert.equal((await staffOrder(refunded.id)).status, 'paid', 'no event came: the books do not know yet');
    assert.deepEqual(await rows(disputed.id, 'dispute'), []);

    const swept = await sweepStripeChanges(t.db, shop.config);
    assert.equal(swept.failed, 0);
    assert.deepEqual(await staffOrder(refunded.id).then((o) => [o.status, o.amountRefunded]), [
      'refunded',
      refunded.amount_total,
    ]);
    assert.equal(await credit('DEMO-3'), afterSale - refunded.amount_total);
    assert.deepEqual(await rows(disputed.id, 'dispute'), [disputed.amount_total]);
    await sweepStripeChanges(t.db, shop.config);
    assert.equal((await rows(refunded.id, 'refund')).length, 1, 'a second sweep books nothing more');
    assert.deepEqual(await rows(disputed.id, 'dispute'), [disputed.amount_total]);
    await assertBalanced(t.db);
  });

  it('an inquiry books nothing; an early fraud warning marks the order for a refund, once', async () => {
    const asked = await sell(shop, t.db, { vendor: 'DEMO-5', card: inquiryCard });
    await bankActsNow(t.db, shop.url);
    const [inquiry] = await disputesOf(asked.stripe_payment_intent_id);
    assert.equal(inquiry?.status, 'warning_needs_response');
    await deliver('charge.dispute.created', { id: inquiry.id, object: 'dispute' });
    assert.equal((await t.db('ledger_rows').where({ order_id: asked.id }).whereLike('kind', 'dispute%')).length, 0);

    const warned = await sell(shop, t.db, { vendor: 'DEMO-5', card: fraudWarningCard });
    await bankActsNow(t.db, shop.url);
    const [warning] = (await stripe.radar.earlyFraudWarnings.list({ payment_intent: warned.stripe_payment_intent_id }))
      .data;
    assert.ok(warning, 'Stripe warned');
    for (let i = 0; i < 2; i++) await deliver('radar.early_fraud_warning.created', warning);
    assert.equal((await staffOrder(warned.id)).fraudWarning, warning.fraud_type);
    assert.equal(
      (await t.db('protocol_entries').where({ action: 'payment.fraud_warning', record_id: String(warned.id) })).length,
      1,
    );
    assert.equal((await as(shop.http.post(`/api/orders/${warned.id}/refund/`))).status, 200, 'refundable');
    await assertBalanced(t.db);
  });
});
