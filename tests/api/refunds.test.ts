import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { stripeClient, Stripe } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { assertBalanced, balanceOf, itemId, sandboxFee, vendorId } from '../support/orders.ts';
import { listedVendor, listenBooksShop, noFeeCard, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// Refunds through Stripe (the local sandbox, reached by the official SDK), booked as the reverse
// of the sale.

describeApi('refunds: an order refunded through Stripe and booked in reverse', (t) => {
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
  // Through the shop on its real port: its Stripe client reaches the sandbox there.
  const refund = (orderId: number | string) => as(shop.http.post(`/api/orders/${orderId}/refund/`));
  const refundsAtStripe = async (intent: string) =>
    (await t.db('stripe_sandbox_objects').where({ type: 'refund' }).select('data')).filter(
      (row: { data: { payment_intent: string } }) => row.data.payment_intent === intent,
    ).length;

  it('refunds the whole payment at Stripe, takes sale and tip off the vendor’s credit, leaves the fee with Stripe, and stays balanced', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-14', items: { Zeitung: 1 }, tip: 100 });
    const vendor = await vendorId(t.db, 'DEMO-14');
    assert.equal((await listedVendor(t, office, 'DEMO-14')).credit, 400);

    const res = await refund(order.id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.id, res.body.status, res.body.refundedBy], [order.id, 'refunded', 'office']);
    assert.ok(res.body.refundedAt);

    // The customer's receipt stays the receipt, marked refunded, with when the money went back.
    const receipt = (await shop.http.get(`/api/orders/${order.token}/`)).body;
    assert.deepEqual(
      [
        receipt.status,
        receipt.number,
        receipt.total,
        receipt.tip,
        receipt.lines.map((line: { name: string }) => line.name),
      ],
      ['refunded', order.id, 400, 100, ['Zeitung']],
    );
    assert.ok(receipt.paidAt);
    assert.equal(receipt.refundedAt, new Date(res.body.refundedAt).toISOString());

    const sales = await t
      .db('ledger_rows')
      .where({ order_id: order.id })
      .whereIn('kind', ['sale', 'tip'])
      .orderBy('id');
    const refunds = await t.db('ledger_rows').where({ order_id: order.id, kind: 'refund' }).orderBy('id');
    assert.deepEqual(
      refunds.map((r) => [r.reversal_of, r.sender_id, r.receiver_id, r.amount, r.item_id, r.authorised_by]),
      sales.map((s) => [s.id, s.receiver_id, s.sender_id, s.amount, s.item_id, 'office']),
      'each sale and the tip reversed, the other way round',
    );
    const fee = sandboxFee(400);
    assert.equal(
      (await listedVendor(t, office, 'DEMO-14')).credit,
      0,
      'the newspaper’s fee cover stays with the vendor',
    );
    assert.equal(await balanceOf(t.db, 'vendor', vendor), 0);
    assert.equal(await balanceOf(t.db, 'customers'), 0, 'the customer has the money back');
    assert.equal(await balanceOf(t.db, 'provider'), fee, 'Stripe keeps its fee');
    assert.equal(await balanceOf(t.db, 'orga'), -fee);
    await assertBalanced(t.db);

    const stored = await t.db('orders').where({ id: order.id }).first();
    const atStripe = await stripe.refunds.retrieve(stored.stripe_refund_id, { expand: ['charge'] });
    assert.deepEqual(
      [atStripe.amount, atStripe.status, atStripe.payment_intent],
      [400, 'succeeded', order.stripe_payment_intent_id],
    );
    const charge = atStripe.charge as Stripe.Charge;
    assert.deepEqual([charge.amount_refunded, charge.refunded], [400, true]);
    assert.equal(
      (await t.db('protocol_entries').where({ action: 'payment.refunded', record_id: String(order.id) })).length,
      1,
    );
  });

  it('answers a repeated refund with the same order and books nothing more; two at once refund once', async () => {
    const first = await sell(shop, t.db, { vendor: 'DEMO-16', items: { Zeitung: 2 } });
    const once = await refund(first.id);
    const twice = await refund(first.id);
    assert.equal(twice.status, 200);
    assert.deepEqual(twice.body, once.body);

    const second = await sell(shop, t.db, { vendor: 'DEMO-16', items: { Zeitung: 1 } });
    const together = await Promise.all([refund(second.id), refund(second.id)]);
    assert.deepEqual(
      together.map((r) => r.status),
      [200, 200],
      JSON.stringify(together.map((r) => r.body)),
    );
    for (const order of [first, second]) {
      assert.equal(
        (await t.db('ledger_rows').where({ order_id: order.id, kind: 'refund' })).length,
        1,
        `order ${order.id}: one refund row`,
      );
      assert.equal(await refundsAtStripe(order.stripe_payment_intent_id), 1, `order ${order.id}: one refund at Stripe`);
    }
    assert.equal((await listedVendor(t, office, 'DEMO-16')).credit, 0);
    await assertBalanced(t.db);
  });

  it('makes the credit negative when the sale was already paid out, shown as debt, and the next sales pay it off', async () => {
    const order = await sell(shop, t.db, {
      vendor: 'DEMO-15',
      items: { 'Digitale Ausgabe': 1 },
      tip: 100,
      card: noFeeCard,
    });
    const paid = await as(t.http.post('/api/payments/payout/')).send({ vendor: 'DEMO-15', expectedAmount: 350 });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));

    assert.equal((await refund(order.id)).status, 200);
    const vendor = await listedVendor(t, office, 'DEMO-15');
    assert.equal(vendor.credit, -350, 'sale and tip taken back, the licence share given back');
    const open = await as(t.http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-15' }));
    assert.equal(open.body.balance, -350);
    assert.deepEqual(
      open.body.payments.map((r: { kind: string; itemName: string | null; amount: number; sign: number }) => [
        r.kind,
        r.itemName,
        r.sign * r.amount,
      ]),
      [
        ['refund', 'Digitale Ausgabe', -300],
        ['refund', 'Digitale Ausgabe – Lizenz', 50],
        ['refund', null, -100],
      ],
    );
    const indebted = await as(t.http.get('/api/vendors/').query({ filter: '{"hasDebt":true}' }));
    assert.deepEqual(
      indebted.body.map((v: { licenseId: string }) => v.licenseId),
      ['DEMO-15'],
    );
    const again = await as(t.http.post('/api/payments/payout/')).send({ vendor: 'DEMO-15', expectedAmount: 0 });
    assert.equal(again.status, 409);
    assert.equal(again.body.message, 'No credits to pay out');
    assert.equal(
      (await as(t.http.delete(`/api/vendors/${vendor.id}`))).status,
      409,
      'a vendor with a debt is not deleted either',
    );
    assert.equal(await balanceOf(t.db, 'cash'), 350);
    await assertBalanced(t.db);

    await sell(shop, t.db, { vendor: 'DEMO-15', items: { Zeitung: 1 }, tip: 100, card: noFeeCard });
    assert.equal((await listedVendor(t, office, 'DEMO-15')).credit, 50);
    await assertBalanced(t.db);
  });

  it('refuses an order that is not paid, an unknown order and a bad id, and asks Stripe nothing', async () => {
    const placed = await shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-17', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }] });
    assert.equal(placed.status, 201);
    const pending = await t.db('orders').where({ token: placed.body.order }).first('id');
    const res = await refund(pending.id);
    assert.equal(res.status, 409);
    assert.equal(res.body.message, 'Only a paid order can be refunded; this one is pending.');
    assert.equal((await refund(99999)).status, 404);
    assert.equal((await refund('abc')).status, 400);
    assert.equal((await t.db('stripe_sandbox_objects').where({ type: 'refund' })).length, 0);
    assert.equal((await t.db('ledger_rows').where({ kind: 'refund' })).length, 0);
  });

  it('sandbox: /v1/refunds in Stripe’s shape, by payment intent or charge, partial, never beyond the charge, idempotent, retrievable', async () => {
    const order = await sell(shop, t.db, { vendor: 'DEMO-18', items: { Zeitung: 1 }, tip: 100 });
    const intent = order.stripe_payment_intent_id;
    const part = await stripe.refunds.create(
      { payment_intent: intent, amount: 150, reason: 'requested_by_customer' },
      { idempotencyKey: 'test-part' },
    );
    assert.deepEqual(
      [part.object, part.amount, part.status, part.reason, part.currency],
      ['refund', 150, 'succeeded', 'requested_by_customer', 'eur'],
    );
    assert.equal(
      (
        await stripe.refunds.create(
          { payment_intent: intent, amount: 150, reason: 'requested_by_customer' },
          { idempotencyKey: 'test-part' },
        )
      ).id,
      part.id,
      'same key, same refund',
    );

    const tooMuch = await stripe.refunds
      .create({ charge: part.charge as string, amount: 300 })
      .catch((e: unknown) => e);
    assert.ok(tooMuch instanceof Stripe.errors.StripeInvalidRequestError, String(tooMuch));
    assert.equal(tooMuch.param, 'amount');

    const rest = await stripe.refunds.create({ charge: part.charge as string });
    assert.equal(rest.amount, 250, 'the rest of the charge');
    const balance = await stripe.balanceTransactions.retrieve(rest.balance_transaction as string);
    assert.deepEqual([balance.type, balance.amount, balance.fee], ['refund', -250, 0]);
    const done = await stripe.refunds.create({ payment_intent: intent }).catch((e: unknown) => e);
    assert.ok(done instanceof Stripe.errors.StripeInvalidRequestError);
    assert.equal(done.code, 'charge_already_refunded');

    assert.deepEqual(await stripe.refunds.retrieve(part.id), part);
    const missing = await stripe.refunds.create({ payment_intent: 'pi_nothing' }).catch((e: unknown) => e);
    assert.ok(missing instanceof Stripe.errors.StripeInvalidRequestError);
    assert.equal(missing.code, 'resource_missing');
    const neither = await stripe.refunds.create({}).catch((e: unknown) => e);
    assert.ok(neither instanceof Stripe.errors.StripeInvalidRequestError);
  });
});
