import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { assertBalanced, bookedRows, eventually, itemId, postEvent, signedEvent } from '../support/orders.ts';
import { sell } from '../support/sales.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { startHttpFaultProxy, type FaultMode, type HttpFaultProxy } from '../support/http-fault-proxy.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Faults, the Stripe half (tests/api/faults.test.ts is the database half): the SDK reaches the sandbox through a proxy that answers 500 or
// swallows the answer. A purchase then fails with a message and leaves no order that could still
// be paid, a refund fails with nothing reversed, the SDK gives up after a bounded number of tries,
// and the same purchase or refund succeeds and is booked once when Stripe is back.

describeApi('Stripe outage: purchases and refunds while Stripe fails or hangs', (t) => {
  let proxy: HttpFaultProxy;
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    proxy = await startHttpFaultProxy();
    // A short timeout: a hanging Stripe costs the test three of them. Quick webhook retries.
    shop = await listenShop(t, (c) => ({
      orderRateLimit: 10_000,
      stripeTimeoutMs: 300,
      sandboxWebhookRetryMs: 20,
      stripe: { ...c.stripe, apiUrl: proxy.url },
    }));
    proxy.target = shop.url;
    office = await t.office();
  });
  after(async () => {
    await shop.close();
    await proxy.close();
  });
  beforeEach(async () => {
    proxy.mode = 'pass';
    await t.reset();
  });

  const place = async () =>
    shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }], tip: 100 });

  const refundsAtStripe = async () =>
    (await t.db('stripe_sandbox_objects').where({ type: 'refund' }).select('data')).map((row) => row.data.id as string);

  /** Requests the proxy saw for `what` while `action` ran. */
  async function attempts(what: string, action: () => Promise<unknown>): Promise<number> {
    const before = proxy.seen.length;
    await action();
    return proxy.seen.slice(before).filter((seen) => seen === what).length;
  }

  for (const mode of ['fail', 'hang'] satisfies FaultMode[]) {
    it(`a purchase while Stripe ${mode === 'fail' ? 'answers 500' : 'does not answer'}: 502 with a message after three tries, the order failed; the customer's retry is paid and booked once`, async () => {
      proxy.mode = mode;
      let refused;
      const tries = await attempts('POST /v1/checkout/sessions', async () => {
        refused = await place();
      });
      assert.equal(refused!.status, 502, JSON.stringify(refused!.body));
      assert.deepEqual(refused!.body, {
        message: 'Card payments are not available right now. Please try again later.',
      });
      assert.equal(tries, 3, 'the first try and two retries, no more');
      const [failed] = await t.db('orders').select('id', 'status');
      assert.equal(failed.status, 'failed', 'no order is left pending');

      proxy.mode = 'pass';
      const placed = await place();
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const back = await payInSandbox(shop.url, placed.body.checkoutUrl);
      const verified = await shop.http.get(`/api/orders/verify${new URL(back).search}`);
      assert.equal(verified.body.status, 'paid', JSON.stringify(verified.body));
      const paid = await t.db('orders').where({ token: placed.body.order }).first('id');
      assert.deepEqual(
        (await bookedRows(t.db, paid.id)).map((row) => row.kind),
        ['sale', 'tip', 'fee', 'fee_cover'],
      );
      assert.deepEqual(await bookedRows(t.db, failed.id), [], 'the failed order books nothing');
      assert.equal((await t.db('orders').where({ id: failed.id }).first('status')).status, 'failed');
      assert.equal((await t.db('protocol_entries').where({ action: 'payment.confirmed' })).length, 1);
      await assertBalanced(t.db);
    });

    it(`a refund while Stripe ${mode === 'fail' ? 'answers 500' : 'does not answer'}: 502, nothing reversed; the retry refunds once`, async () => {
      const sold = await sell(shop, t.db, { vendor: 'DEMO-1', tip: 100 });
      const refund = () => shop.http.post(`/api/orders/${sold.id}/refund/`).set('Authorization', office);
      const booked = await bookedRows(t.db, sold.id);

      proxy.mode = mode;
      const refused = await refund();
      assert.equal(refused.status, 502, JSON.stringify(refused.body));
      assert.match(refused.body.message, /Stripe could not be reached for the refund\. Nothing was booked/);
      assert.equal((await t.db('orders').where({ id: sold.id }).first('status')).status, 'paid');
      assert.deepEqual(await bookedRows(t.db, sold.id), booked, 'nothing reversed');
      if (mode === 'hang')
        await eventually(
          async () => (await refundsAtStripe()).length === 1,
          'Stripe made the refund; only its answer was lost',
        );

      proxy.mode = 'pass';
      const refunded = await refund();
      assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
      assert.equal(refunded.body.status, 'refunded');
      assert.equal(
        (await t.db('ledger_rows').where({ order_id: sold.id, kind: 'refund' })).length,
        2,
        'sale and tip reversed once',
      );
      // A refund Stripe made while its answer was lost is the one the retry gets back: one refund in all.
      assert.deepEqual(await refundsAtStripe(), [
        (await t.db('orders').where({ id: sold.id }).first('stripe_refund_id')).stripe_refund_id,
      ]);
      await assertBalanced(t.db);
    });
  }

  it('a webhook while Stripe answers 500: 502, and the sandbox delivers it again until the order is paid and booked once', async () => {
    const placed = await place();
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const order = await t.db('orders').where({ token: placed.body.order }).first('id', 'stripe_session_id');
    proxy.mode = 'fail';
    const asked = () =>
      proxy.seen.filter((seen) => seen === `GET /v1/checkout/sessions/${order.stripe_session_id}`).length;
    // The customer pays on the sandbox's page (not behind the proxy); only the shop's questions to Stripe fail.
    await payInSandbox(shop.url, placed.body.checkoutUrl);
    const event = await eventually<{ id: string; last_error: string }>(
      () =>
        t
          .db('stripe_events')
          .where({ type: 'checkout.session.completed' })
          .where('attempts', '>=', 1)
          .first('id', 'last_error'),
      'a delivery fails',
    );
    assert.ok(asked() >= 3, 'after the SDK asked three times');
    assert.match(event.last_error, /unknown error/i);
    assert.equal((await t.db('orders').where({ id: order.id }).first('status')).status, 'pending');
    // What each of those deliveries was answered.
    const session = { id: order.stripe_session_id, object: 'checkout.session', metadata: { order: String(order.id) } };
    const copy = signedEvent('checkout.session.completed', session, (await sandboxCredentials(t.db)).webhookSecret);
    const answer = await postEvent(shop, copy);
    assert.equal(answer.status, 502, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { message: 'Stripe could not be asked about this event; please deliver it again.' });

    proxy.mode = 'pass';
    // Another event of the payment (its charge) may settle the order first; the sandbox still
    // delivers this one again until the shop has processed it.
    await eventually(
      async () =>
        (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid' &&
        (await t.db('stripe_events').where({ id: event.id }).first('processed_at')).processed_at !== null,
      'a later delivery books the order',
    ).catch(async (error: Error) => {
      // What the sandbox still holds and what the webhook route saw, for a failure that is rare.
      const left = await t
        .db('stripe_sandbox_deliveries')
        .select('id', 'attempts', 'next_attempt_at', 'leased_until', t.db.raw('now() as now'));
      const seen = await t.db('stripe_events').select('type', 'attempts', 'processed_at', 'last_error');
      throw new Error(`${error.message}; deliveries: ${JSON.stringify(left)}; events: ${JSON.stringify(seen)}`);
    });
    const processed = await t
      .db('stripe_events')
      .where({ id: event.id })
      .first('attempts', 'processed_at', 'last_error');
    assert.ok(
      processed.attempts >= 2 && processed.processed_at && processed.last_error === null,
      JSON.stringify(processed),
    );
    assert.deepEqual(
      (await bookedRows(t.db, order.id)).map((row) => row.kind),
      ['sale', 'tip', 'fee', 'fee_cover'],
    );
    assert.equal((await postEvent(shop, copy)).status, 200, 'a late copy changes nothing');
    assert.deepEqual(
      (await bookedRows(t.db, order.id)).map((row) => row.kind),
      ['sale', 'tip', 'fee', 'fee_cover'],
    );
    await assertBalanced(t.db);
  });
});
