import assert from 'node:assert/strict';
import { reconcilePending } from '../../api/src/orders/reconcile.ts';
import { describeApi } from '../support/env.ts';
import { placeMainOrder } from '../support/orders.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Stripe keeps idempotency keys for 24 hours per account: a key built from the order's id alone
// repeats after a database reset or a restore, or across installations sharing a test account.

describeApi('idempotency keys at Stripe', (t) => {
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t);
  });
  after(() => shop.close());

  it('a database reset followed by a new order with the same id succeeds against a Stripe that still holds the old key', async () => {
    await t.reset();
    const first = await placeMainOrder(shop, t.db);
    // What Stripe (the sandbox) remembers lives on; our own database starts again from nothing.
    const keys = await t.db('stripe_sandbox_requests').select('*');
    const objects = await t.db('stripe_sandbox_objects').select('*');
    assert.ok(
      keys.some((row) => row.idempotency_key.startsWith(`order-${first.id}-`)),
      'the checkout key names the order',
    );
    await t.reset();
    await t
      .db('stripe_sandbox_requests')
      .insert(keys.map((row) => ({ ...row, response: JSON.stringify(row.response) })));
    await t.db('stripe_sandbox_objects').insert(objects.map((row) => ({ ...row, data: JSON.stringify(row.data) })));

    const second = await placeMainOrder(shop, t.db);
    assert.equal(second.id, first.id, 'the same order id again');
    assert.notEqual(second.sessionId, first.sessionId, 'a Checkout Session of its own');
    const session = await t.db('stripe_sandbox_objects').where({ id: second.sessionId }).first('data');
    assert.equal(session.data.success_url.includes(second.token), true);
    assert.deepEqual(
      session.data.payment_intent_data.metadata,
      { order: String(second.id) },
      'the charge names the order',
    );
  });

  it('the reconciliation job asks about an order ever more rarely as it ages, not every minute forever', async () => {
    await t.reset();
    const order = await placeMainOrder(shop, t.db);
    const stamp = (created: string, checked: string) =>
      t
        .db('orders')
        .where({ id: order.id })
        .update({
          created_at: t.db.raw(`now() - interval '${created}'`),
          checked_at: t.db.raw(`now() - interval '${checked}'`),
        });
    await stamp('10 hours', '30 minutes');
    assert.deepEqual(
      await reconcilePending(t.db, shop.config),
      [],
      'asked half an hour ago; ten hours old: left alone for an hour',
    );
    await stamp('10 hours', '61 minutes');
    assert.deepEqual(await reconcilePending(t.db, shop.config), [order.id]);
    await stamp('4 minutes', '55 seconds');
    assert.deepEqual(
      await reconcilePending(t.db, shop.config),
      [order.id],
      'a young order is asked about after 50 seconds',
    );
  });

  it('names the payment method configuration of STRIPE_PAYMENT_METHOD_CONFIGURATION on the session, never payment_method_types', async () => {
    await t.reset();
    const configured = await listenShop(t, (c) => ({
      stripe: { ...c.stripe, paymentMethodConfiguration: 'pmc_1CardsWallets' },
    }));
    try {
      const order = await placeMainOrder(configured, t.db);
      const session = (await t.db('stripe_sandbox_objects').where({ id: order.sessionId }).first('data')).data;
      assert.deepEqual(session.payment_method_configuration_details, { id: 'pmc_1CardsWallets', parent: null });
      const request = await t
        .db('stripe_sandbox_requests')
        .where('idempotency_key', 'like', `order-${order.id}-%-checkout`)
        .first();
      assert.ok(request, 'the checkout key names the order and ends in -checkout');
    } finally {
      await configured.close();
    }
    const plain = await placeMainOrder(shop, t.db);
    assert.equal(
      (await t.db('stripe_sandbox_objects').where({ id: plain.sessionId }).first('data')).data
        .payment_method_configuration_details,
      null,
    );
  });
});
