import assert from 'node:assert/strict';
import type supertest from 'supertest';
import type { DomainError } from '../../api/src/foundations/errors.ts';
import { applySession } from '../../api/src/orders/settle.ts';
import { Stripe, stripeClient } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { assertBalanced, balanceOf, placeMainOrder, postEvent, signedEvent, vendorId } from '../support/orders.ts';
import { listedVendor, listenBooksShop, sell } from '../support/sales.ts';
import { SANDBOX_COUNTERED_DISPUTE_FEE, SANDBOX_DISPUTE_FEE } from '../../api/src/stripe/sandbox/lifecycle.ts';
import { bankActsNow, dashboardRefund, finishRefund, payInSandbox } from '../support/sandbox.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// Stripe's lifecycle of a payment in the ledger: refunds by status, refunds made in
// Stripe's Dashboard, disputes with the staff's decision. Stripe is the sandbox, reached by the
// official SDK. The shop refuses the sandbox's own webhook deliveries (another signing secret), so
// each test delivers the events itself: once, twice, and out of order.

const webhookSecret = 'whsec_not_the_sandbox';
const disputeCard = '4000000000000259';
const pendingRefundCard = '4000000000007726';
const failingRefundCard = '4000000000005126';

describeApi('Stripe lifecycle: refunds and disputes, each booked exactly once', (t) => {
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
  const refund = (orderId: number) => as(shop.http.post(`/api/orders/${orderId}/refund/`));
  const deliver = async (type: string, object: { id: string; object: string }) => {
    const res = await postEvent(shop, signedEvent(type, object, webhookSecret));
    assert.equal(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
  };
  const rows = async (orderId: number, kind: string) =>
    t.db('ledger_rows').where({ order_id: orderId, kind }).orderBy('id');
  const orderRow = (orderId: number) => t.db('orders').where({ id: orderId }).first();
  const refundsShown = async (orderId: number) => {
    const res = await as(shop.http.get(`/api/orders/${orderId}/refunds`));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as {
      id: string;
      status: string;
      failureReason: string | null;
      requestedBy: string | null;
      bookedAt: string | null;
    }[];
  };
  const listedCredit = async (licenseId: string) => (await listedVendor(t, office, licenseId)).credit;
  const staffOrder = async (id: number) => {
    const res = await as(shop.http.get('/api/orders')).query({ filter: JSON.stringify({ id: [id] }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body[0];
  };
  const chargeOf = async (intent: string) => (await stripe.paymentIntents.retrieve(intent)).latest_charge as string;
  /** The dispute the sandbox opened for a payment with the dispute test card. */
  const disputeOf = async (intent: string) =>
    (await t.db('stripe_sandbox_objects').where({ type: 'dispute' })).find((row) => row.data.payment_intent === intent)
      .id as string;
  const protocol = (orderId: number, action: string) =>
    t.db('protocol_entries').where({ action, record_id: String(orderId) });

  it('our refund that succeeds at once is booked once; its events, twice and late, book nothing more', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-3', tip: 100 });
    const res = await refund(order.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'refunded');
    const [shown] = await refundsShown(order.id);
    assert.deepEqual([shown.status, shown.requestedBy, Boolean(shown.bookedAt)], ['succeeded', 'office', true]);
    const charge = await chargeOf(order.stripe_payment_intent_id);
    for (let i = 0; i < 2; i++) {
      await deliver('refund.updated', { id: shown.id, object: 'refund' });
      await deliver('charge.refunded', { id: charge, object: 'charge' });
      await deliver('refund.created', { id: shown.id, object: 'refund' });
    }
    assert.equal((await rows(order.id, 'refund')).length, 2, 'sale and tip reversed once');
    assert.equal((await protocol(order.id, 'payment.refunded')).length, 1);
    assert.equal((await orderRow(order.id)).refunded_by, 'office');
    await assertBalanced(t.db);
  });

  it('a pending refund is shown and not booked; it is booked once when it succeeds, whatever order its events come in', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-4', tip: 100, card: pendingRefundCard });
    const res = await refund(order.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'paid', 'not refunded while Stripe waits for the bank');
    const [pending] = await refundsShown(order.id);
    assert.deepEqual([pending.status, pending.bookedAt], ['pending', null]);
    assert.equal((await staffOrder(order.id)).refundStatus, 'pending', 'the order list shows the pending refund');
    await deliver('refund.created', { id: pending.id, object: 'refund' });
    assert.equal((await rows(order.id, 'refund')).length, 0, 'nothing booked while pending');
    await assertBalanced(t.db);

    await finishRefund(t.db, shop.url, pending.id);
    // The late refund.created after the update, and the update twice.
    await deliver('refund.updated', { id: pending.id, object: 'refund' });
    await deliver('refund.created', { id: pending.id, object: 'refund' });
    await deliver('refund.updated', { id: pending.id, object: 'refund' });
    assert.equal((await rows(order.id, 'refund')).length, 2);
    const stored = await orderRow(order.id);
    assert.deepEqual([stored.status, stored.refunded_by, stored.stripe_refund_id], ['refunded', 'office', pending.id]);
    assert.equal((await refundsShown(order.id))[0].status, 'succeeded');
    await assertBalanced(t.db);
  });

  it('a refund that succeeds and later fails is booked, then given back once; it is shown with its reason, and the next attempt is a new refund', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-5', tip: 100, card: failingRefundCard });
    assert.equal((await refund(order.id)).status, 200);
    const [succeeded] = await refundsShown(order.id);
    assert.equal(succeeded.status, 'succeeded', 'Stripe says succeeded at first');
    await finishRefund(t.db, shop.url, succeeded.id);
    await deliver('refund.failed', { id: succeeded.id, object: 'refund' });
    await deliver('refund.updated', { id: succeeded.id, object: 'refund' });
    await deliver('refund.created', { id: succeeded.id, object: 'refund' });
    await deliver('charge.refunded', { id: await chargeOf(order.stripe_payment_intent_id), object: 'charge' });
    const amounts = async (kind: string) => (await rows(order.id, kind)).map((r) => Number(r.amount));
    assert.equal((await amounts('refund')).length, 2, 'sale and tip reversed once');
    assert.deepEqual(await amounts('refund_failed'), await amounts('refund'), 'and given back once');
    assert.equal((await orderRow(order.id)).status, 'paid');
    const [failed] = await refundsShown(order.id);
    assert.deepEqual([failed.status, failed.failureReason], ['failed', 'expired_or_canceled_card']);
    await assertBalanced(t.db);

    assert.equal((await refund(order.id)).status, 200);
    const shown = await refundsShown(order.id);
    assert.equal(shown.length, 2, 'a second refund at Stripe, not the failed one again');
    assert.notEqual(shown[1].id, failed.id);
    assert.equal(shown[1].status, 'succeeded');
  });

  it('a refund made in Stripe’s Dashboard books the same reversal as our own, once', async () => {
    const ours = await sell(shop, t.db, { vendor: 'DEMO-6', tip: 100 });
    assert.equal((await refund(ours.id)).status, 200);
    const order = await sell(shop, t.db, { vendor: 'DEMO-6', tip: 100 });
    const made = await dashboardRefund(t.db, shop.url, order.stripe_payment_intent_id);
    const charge = await chargeOf(order.stripe_payment_intent_id);
    // refund.created before charge.refunded, each twice.
    await deliver('refund.created', { id: made.id as string, object: 'refund' });
    await deliver('charge.refunded', { id: charge, object: 'charge' });
    await deliver('refund.created', { id: made.id as string, object: 'refund' });
    await deliver('charge.refunded', { id: charge, object: 'charge' });
    const reversal = async (id: number) =>
      (await rows(id, 'refund')).map((r) => [Number(r.amount), r.item_id, r.quantity]);
    assert.deepEqual(await reversal(order.id), await reversal(ours.id), 'the same reversal as our own refund');
    const stored = await orderRow(order.id);
    assert.deepEqual([stored.status, stored.refunded_by], ['refunded', 'Stripe Dashboard']);
    assert.equal((await protocol(order.id, 'payment.refunded')).length, 1);
    assert.equal(await listedCredit('DEMO-6'), 0, 'both sales taken off the vendor’s credit (the fee cover stays)');
    await assertBalanced(t.db);
  });

  it('a dispute flags the order with vendor, amount and deadline and books the withdrawal once; staff decide; won books the money back once', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-7', tip: 100, card: disputeCard });
    await bankActsNow(t.db, shop.url);
    const vendor = await vendorId(t.db, 'DEMO-7');
    const creditBefore = await balanceOf(t.db, 'vendor', vendor);
    const disputeId = await disputeOf(order.stripe_payment_intent_id);
    assert.equal(
      (await stripe.disputes.retrieve(disputeId)).status,
      'needs_response',
      'the test card was disputed at Stripe',
    );
    await deliver('charge.dispute.created', { id: disputeId, object: 'dispute' });
    await deliver('charge.dispute.created', { id: disputeId, object: 'dispute' });

    const listed = await as(shop.http.get('/api/disputes'));
    assert.equal(listed.status, 200);
    assert.equal(listed.body.length, 1);
    const flagged = listed.body[0];
    assert.deepEqual(
      [flagged.orderId, flagged.vendorLicenseId, flagged.amount, flagged.status, flagged.needsDecision, flagged.bearer],
      [order.id, 'DEMO-7', order.amount_total, 'needs_response', true, null],
    );
    const due = new Date(flagged.evidenceDueBy).getTime() - Date.now();
    assert.ok(due > 6 * 86_400_000 && due <= 7 * 86_400_000, 'the deadline to answer: a week');
    assert.deepEqual(
      (await rows(order.id, 'dispute')).map((r) => Number(r.amount)),
      [order.amount_total],
    );
    assert.deepEqual(
      (await rows(order.id, 'dispute_fee')).map((r) => Number(r.amount)),
      [SANDBOX_DISPUTE_FEE],
      'and Stripe’s dispute fee',
    );
    assert.equal(await balanceOf(t.db, 'vendor', vendor), creditBefore, 'the newspaper bears it until staff decide');
    await assertBalanced(t.db);

    const attention = async () =>
      (await as(shop.http.get('/api/orders')).query({ filter: JSON.stringify({ attention: true }) })).body.map(
        (o: { id: number }) => o.id,
      );
    assert.deepEqual(await attention(), [order.id], 'the order needs attention');
    assert.deepEqual((await staffOrder(order.id)).dispute, {
      id: disputeId,
      amount: order.amount_total,
      status: 'needs_response',
      evidenceDueBy: flagged.evidenceDueBy,
      bearer: null,
      needsDecision: true,
    });
    const decided = await as(shop.http.post(`/api/disputes/${disputeId}/decision`)).send({ bearer: 'vendor' });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    assert.deepEqual(
      [decided.body.bearer, decided.body.decidedBy, decided.body.needsDecision],
      ['vendor', 'office', false],
    );
    assert.equal(await balanceOf(t.db, 'vendor', vendor), creditBefore - order.amount_total, 'off the vendor’s credit');
    assert.deepEqual(await attention(), [], 'decided: no longer needs attention');
    const again = await as(shop.http.post(`/api/disputes/${disputeId}/decision`)).send({ bearer: 'newspaper' });
    assert.equal(again.status, 409, JSON.stringify(again.body));
    const bad = await as(shop.http.post(`/api/disputes/${disputeId}/decision`)).send({ bearer: 'customer' });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      (await protocol(order.id, 'dispute.decided')).map((p) => p.actor_name),
      ['office'],
    );

    await stripe.disputes.update(disputeId, { evidence: { uncategorized_text: 'winning_evidence' }, submit: true });
    // closed, then a late created, then closed again
    await deliver('charge.dispute.closed', { id: disputeId, object: 'dispute' });
    await deliver('charge.dispute.created', { id: disputeId, object: 'dispute' });
    await deliver('charge.dispute.closed', { id: disputeId, object: 'dispute' });
    assert.equal((await rows(order.id, 'dispute')).length, 1);
    assert.equal((await rows(order.id, 'dispute_vendor')).length, 1);
    assert.deepEqual(
      (await rows(order.id, 'dispute_fee')).map((r) => Number(r.amount)),
      [SANDBOX_DISPUTE_FEE, SANDBOX_COUNTERED_DISPUTE_FEE],
      'the dispute fee and the countered-dispute fee, booked once each',
    );
    assert.deepEqual(
      (await rows(order.id, 'dispute_fee_returned')).map((r) => Number(r.amount)),
      [SANDBOX_COUNTERED_DISPUTE_FEE],
      'won: only the countered-dispute fee comes back',
    );
    assert.deepEqual(
      (await rows(order.id, 'dispute_won')).map((r) => [Number(r.amount), r.stripe_ref.slice(0, 3)]),
      [
        [order.amount_total, 'txn'],
        [order.amount_total, disputeId.slice(0, 3)],
      ],
      'Stripe’s return to the newspaper, booked by its balance transaction, and the vendor’s part passed on',
    );
    assert.equal(await balanceOf(t.db, 'vendor', vendor), creditBefore, 'the vendor who bore it gets it back');
    await assertBalanced(t.db);
  });

  it('a dispute first seen as won books withdrawal and return once each; a lost one keeps the withdrawal for the newspaper', async () => {
    const wonOrder = await sell(shop, t.db, { vendor: 'DEMO-8', card: disputeCard });
    await bankActsNow(t.db, shop.url);
    const lostOrder = await sell(shop, t.db, { vendor: 'DEMO-8', card: disputeCard });
    await bankActsNow(t.db, shop.url);
    const wonId = await disputeOf(wonOrder.stripe_payment_intent_id);
    const lostId = await disputeOf(lostOrder.stripe_payment_intent_id);
    await stripe.disputes.update(wonId, { evidence: { uncategorized_text: 'winning_evidence' }, submit: true });
    await stripe.disputes.update(lostId, { evidence: { uncategorized_text: 'losing_evidence' }, submit: true });
    await deliver('charge.dispute.closed', { id: wonId, object: 'dispute' });
    await deliver('charge.dispute.created', { id: wonId, object: 'dispute' });
    await deliver('charge.dispute.closed', { id: lostId, object: 'dispute' });
    await deliver('charge.dispute.closed', { id: lostId, object: 'dispute' });
    assert.equal((await rows(wonOrder.id, 'dispute')).length, 1);
    assert.equal((await rows(wonOrder.id, 'dispute_won')).length, 1);
    assert.equal((await rows(lostOrder.id, 'dispute')).length, 1);
    assert.equal((await rows(lostOrder.id, 'dispute_won')).length, 0);
    assert.equal((await rows(wonOrder.id, 'dispute_fee')).length, 2, 'the dispute fee and the countered-dispute fee');
    assert.equal((await rows(lostOrder.id, 'dispute_fee')).length, 2);
    const wonDecision = await as(shop.http.post(`/api/disputes/${wonId}/decision`)).send({ bearer: 'vendor' });
    assert.equal(wonDecision.status, 409, 'nothing to bear once won');
    const lostDecision = await as(shop.http.post(`/api/disputes/${lostId}/decision`)).send({ bearer: 'newspaper' });
    assert.equal(lostDecision.status, 200);
    assert.equal((await rows(lostOrder.id, 'dispute_vendor')).length, 0);
    await assertBalanced(t.db);
  });

  it('settles no payment whose session is in the other mode than the key', async () => {
    const placed = await placeMainOrder(shop, t.db);
    await payInSandbox(shop.url, placed.checkoutUrl);
    const session = await stripe.checkout.sessions.retrieve(placed.sessionId, {
      expand: ['payment_intent.latest_charge.balance_transaction'],
    });
    assert.equal(session.payment_status, 'paid');
    await assert.rejects(
      applySession(t.db, shop.config, placed.id, { ...session, livemode: true }),
      (error: DomainError) => error.refusal === 'conflict',
    );
    assert.equal((await orderRow(placed.id)).status, 'pending');
    assert.deepEqual(await t.db('ledger_rows').where({ order_id: placed.id }), [], 'nothing booked');
    assert.equal(
      (await applySession(t.db, shop.config, placed.id, session)).status,
      'paid',
      'the same session in test mode pays it',
    );
  });

  it('refuses an event of the other mode (a live event at a test key)', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-9' });
    const event = signedEvent(
      'charge.refunded',
      { id: await chargeOf(order.stripe_payment_intent_id), object: 'charge' },
      webhookSecret,
    );
    const live = JSON.stringify({ ...JSON.parse(event.payload), livemode: true });
    const res = await postEvent(shop, {
      payload: live,
      header: Stripe.webhooks.generateTestHeaderString({ payload: live, secret: webhookSecret }),
    });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /live mode event does not match/);
    assert.equal((await t.db('stripe_events').where({ id: event.id })).length, 0);
  });
});
