import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { SANDBOX_SECRET_KEY } from '../../api/src/stripe/sandbox/keys.ts';
import { describeApi } from '../support/env.ts';
import { payInSandbox, releaseHeldFee } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

/** The official SDK pointed at the sandbox, as the Stripe adapter does. */
function sdk(shop: ListeningShop, key = SANDBOX_SECRET_KEY): Stripe {
  const { hostname, port } = new URL(shop.url);
  return new Stripe(key, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
}

interface Delivery {
  raw: string;
  signature: string;
}

/** A webhook endpoint of our own: records what arrives and answers with the status `answer` gives. */
async function webhookReceiver(answer: (attempt: number) => number = () => 200) {
  const deliveries: Delivery[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']) });
      res.statusCode = answer(deliveries.length);
      res.end();
      if (waiting && deliveries.length >= waiting.count) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    /** Resolves once `count` deliveries have arrived (the test's timeout bounds the wait). */
    received: (count: number) =>
      new Promise<void>((resolve) => {
        if (deliveries.length >= count) resolve();
        else waiting = { count, resolve };
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const unixNow = () => Math.floor(Date.now() / 1000);

const sessionParams = (): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [
    { price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } }, quantity: 2 },
    { price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'Trinkgeld' } }, quantity: 1 },
  ],
  customer_email: 'reader@example.org',
  expires_at: unixNow() + 30 * 60,
  // No order of the shop: the shop's own webhook route, which gets every event too, ignores these.
  metadata: { test: 'sandbox' },
  client_reference_id: 'sandbox-test',
  success_url: 'https://shop.example/success?session_id={CHECKOUT_SESSION_ID}',
  cancel_url: 'https://shop.example/failure',
});

describeApi('local Stripe sandbox through the official SDK', (t) => {
  let shop: ListeningShop;
  let stripe: Stripe;

  before(async () => {
    shop = await listenShop(t);
    stripe = sdk(shop);
  });
  after(() => shop.close());

  it('creates an open Checkout Session with Stripe’s shape, the same one again for the same idempotency key', async () => {
    const params = sessionParams();
    const first = await stripe.checkout.sessions.create(params, { idempotencyKey: `order-42-checkout-${t.engine}` });
    assert.match(first.id, /^cs_test_[A-Za-z0-9]{40}$/);
    assert.equal(first.object, 'checkout.session');
    assert.equal(first.url, `${shop.url}/stripe-sandbox/pay/${first.id}`);
    assert.equal(first.status, 'open');
    assert.equal(first.payment_status, 'unpaid');
    assert.equal(first.amount_total, 700);
    assert.equal(first.currency, 'eur');
    assert.equal(first.customer_email, 'reader@example.org');
    assert.equal(first.expires_at, params.expires_at);
    assert.deepEqual(first.metadata, { test: 'sandbox' });
    assert.equal(first.client_reference_id, 'sandbox-test');
    assert.equal(first.success_url, params.success_url);
    assert.equal(first.line_items, undefined, 'line items only when expanded');

    const again = await stripe.checkout.sessions.create(params, { idempotencyKey: `order-42-checkout-${t.engine}` });
    assert.deepEqual(again, first);
    const other = await stripe.checkout.sessions.create(params);
    assert.notEqual(other.id, first.id);

    await assert.rejects(
      stripe.checkout.sessions.create({ ...params, metadata: { test: 'other' } }, { idempotencyKey: `order-42-checkout-${t.engine}` }),
      (error) => error instanceof Stripe.errors.StripeIdempotencyError,
    );

    // Concurrent retries with one key (the SDK's own retries race like this) still make one session.
    const racing = await Promise.all(Array.from({ length: 5 }, () => stripe.checkout.sessions.create(params, { idempotencyKey: `race-${t.engine}` })));
    assert.equal(new Set(racing.map((s) => s.id)).size, 1);

    const read = await stripe.checkout.sessions.retrieve(first.id, { expand: ['line_items'] });
    assert.deepEqual(
      read.line_items!.data.map((item) => [item.description, item.quantity, item.amount_total, item.price!.unit_amount]),
      [['Zeitung', 2, 600, 300], ['Trinkgeld', 1, 100, 100]],
    );
  });

  it('refuses a wrong or missing key with Stripe’s 401, which the SDK throws as StripeAuthenticationError', async () => {
    await assert.rejects(sdk(shop, 'sk_test_not_the_sandbox_key').checkout.sessions.create(sessionParams()), (error) => {
      assert.ok(error instanceof Stripe.errors.StripeAuthenticationError);
      assert.match(error.message, /^Invalid API Key provided: sk_test_\*+_key$/);
      return true;
    });
    const res = await shop.http.get('/v1/checkout/sessions/cs_test_x');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.type, 'invalid_request_error');
  });

  it('refuses unknown parameters, bad amounts and unknown objects as Stripe does', async () => {
    const refused = async (params: object, param: string) =>
      assert.rejects(stripe.checkout.sessions.create({ ...sessionParams(), ...params }), (error) => {
        assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError, String(error));
        assert.equal(error.param, param);
        return true;
      });
    await refused({ colour: 'red' }, 'colour');
    await refused({ line_items: [{ price_data: { currency: 'eur', unit_amount: -1, product_data: { name: 'x' } }, quantity: 1 }] }, 'line_items[0][price_data][unit_amount]');
    await refused({ line_items: [] }, 'line_items');
    await refused({ expires_at: unixNow() + 60 }, 'expires_at');
    await refused({ success_url: 'not a url' }, 'success_url');

    await assert.rejects(stripe.checkout.sessions.retrieve('cs_test_missing'), (error) => {
      assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError);
      assert.equal(error.statusCode, 404);
      assert.equal(error.code, 'resource_missing');
      return true;
    });
    const unknown = await shop.http.get('/v1/customers').set('Authorization', `Bearer ${SANDBOX_SECRET_KEY}`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /^Unrecognized request URL \(GET: \/v1\/customers\)/);
  });

  it('pays with 4242 4242 4242 4242: session paid, charge with a balance transaction of 1.5 % + 25 cents, redirect to the success URL', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const location = await payInSandbox(shop.url, session.url!, '4242 4242 4242 4242');
    assert.equal(location, `https://shop.example/success?session_id=${session.id}`);

    const paid = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent.latest_charge.balance_transaction'] });
    assert.equal(paid.status, 'complete');
    assert.equal(paid.payment_status, 'paid');
    assert.equal(paid.url, null);
    const intent = paid.payment_intent as Stripe.PaymentIntent;
    assert.equal(intent.status, 'succeeded');
    assert.equal(intent.amount_received, 700);
    const charge = intent.latest_charge as Stripe.Charge;
    assert.equal(charge.paid, true);
    assert.equal(charge.payment_intent, intent.id);
    const txn = charge.balance_transaction as Stripe.BalanceTransaction;
    // 1.5 % of 7,00 € is 10.5 cents, rounded to 11, plus 25.
    assert.equal(txn.fee, 36);
    assert.equal(txn.net, 700 - 36);
    assert.equal(txn.amount, 700);

    assert.deepEqual(await stripe.paymentIntents.retrieve(intent.id), { ...intent, latest_charge: charge.id });
    assert.deepEqual(await stripe.charges.retrieve(charge.id, { expand: ['balance_transaction'] }), charge);
    assert.equal((await stripe.balanceTransactions.retrieve(txn.id)).fee, 36);

    // Paid is paid: the page says so, and a second submit (a double click) books nothing new.
    const page = await shop.http.get(new URL(session.url!).pathname);
    assert.match(page.text, /This payment is complete\./);
    const resubmit = await shop.http.post(new URL(session.url!).pathname).type('form').send({ card: '4242424242424242' });
    assert.equal(resubmit.status, 303);
    const again = await stripe.checkout.sessions.retrieve(session.id);
    assert.equal(again.payment_intent, intent.id);
  });

  it('keeps the customer on the page for a declined card, insufficient funds, or a wrong number', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const path = new URL(session.url!).pathname;
    for (const [card, message] of [
      ['4000 0000 0000 0002', 'Your card was declined.'],
      ['4000000000009995', 'Your card has insufficient funds.'],
      ['4242 4242 4242 4241', 'Your card number is incorrect.'],
      ['', 'Your card number is incorrect.'],
    ]) {
      const res = await shop.http.post(path).type('form').send({ card, exp: '12 / 34', cvc: '123' });
      assert.ok(res.status === 402 || res.status === 400, `${card}: ${res.status}`);
      assert.match(res.text, new RegExp(`id="sandbox-error"[^>]*>${message.replace('.', '\\.')}<`), card);
      assert.match(res.text, /id="sandbox-form"/, 'the form is shown again');
      await assert.rejects(payInSandbox(shop.url, session.url!, card), new RegExp(message.replace('.', '\\.')));
    }
    const open = await stripe.checkout.sessions.retrieve(session.id);
    assert.equal(open.status, 'open');
    assert.equal(open.payment_status, 'unpaid');
    assert.equal(open.payment_intent, null);
  });

  it('sends checkout.session.completed, signed for each endpoint, and retries an endpoint that answers 5xx', async () => {
    const healthy = await webhookReceiver();
    const flaky = await webhookReceiver((attempt) => (attempt === 1 ? 503 : 200));
    const endpoints = [
      await stripe.webhookEndpoints.create({ url: healthy.url, enabled_events: ['checkout.session.completed'] }),
      await stripe.webhookEndpoints.create({ url: flaky.url, enabled_events: ['*'] }),
    ];
    try {
      assert.match(endpoints[0].secret!, /^whsec_/);
      assert.equal((await stripe.webhookEndpoints.retrieve(endpoints[0].id)).secret, undefined, 'the secret is shown once');
      const session = await stripe.checkout.sessions.create(sessionParams());
      await payInSandbox(shop.url, session.url!);
      await Promise.all([healthy.received(1), flaky.received(2)]);

      const event = stripe.webhooks.constructEvent(healthy.deliveries[0].raw, healthy.deliveries[0].signature, endpoints[0].secret!);
      assert.equal(event.type, 'checkout.session.completed');
      const completed = event.data.object;
      assert.equal(completed.id, session.id);
      assert.equal(completed.payment_status, 'paid');
      assert.deepEqual(completed.metadata, { test: 'sandbox' });
      assert.throws(() => stripe.webhooks.constructEvent(healthy.deliveries[0].raw, healthy.deliveries[0].signature, endpoints[1].secret!), /signature/i);

      // The retry carries the same event, signed afresh.
      const [failed, retried] = flaky.deliveries.map((d) => stripe.webhooks.constructEvent(d.raw, d.signature, endpoints[1].secret!));
      assert.equal(retried.id, failed.id);
      assert.equal(healthy.deliveries.length, 1);
    } finally {
      for (const endpoint of endpoints) await stripe.webhookEndpoints.del(endpoint.id);
      await Promise.all([healthy.close(), flaky.close()]);
    }
  });

  it('holds the fee back with 4000 0000 0000 0010 until it is released, then sends charge.updated', async () => {
    const receiver = await webhookReceiver();
    const endpoint = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['charge.updated'] });
    try {
      const session = await stripe.checkout.sessions.create(sessionParams());
      await payInSandbox(shop.url, session.url!, '4000000000000010');
      const expand = ['payment_intent.latest_charge.balance_transaction'];
      const paid = await stripe.checkout.sessions.retrieve(session.id, { expand });
      assert.equal(paid.payment_status, 'paid');
      const charge = (paid.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge;
      assert.equal(charge.balance_transaction, null, 'no fee yet');

      await releaseHeldFee(shop.url, session.id);
      await receiver.received(1);
      const event = stripe.webhooks.constructEvent(receiver.deliveries[0].raw, receiver.deliveries[0].signature, endpoint.secret!);
      assert.equal(event.type, 'charge.updated');
      assert.equal((event.data.object).id, charge.id);
      assert.deepEqual(event.data.previous_attributes, { balance_transaction: null });
      const later = await stripe.checkout.sessions.retrieve(session.id, { expand });
      const txn = ((later.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge).balance_transaction as Stripe.BalanceTransaction;
      assert.equal(txn.fee, 36);

      await assert.rejects(releaseHeldFee(shop.url, session.id), /no payment whose fee is held back/);
    } finally {
      await stripe.webhookEndpoints.del(endpoint.id);
      await receiver.close();
    }
  });

  it('expires an open session on request or when its time is up, and its page says so', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const expired = await stripe.checkout.sessions.expire(session.id);
    assert.equal(expired.status, 'expired');
    assert.equal(expired.url, null);
    await assert.rejects(stripe.checkout.sessions.expire(session.id), /Only Checkout Sessions with a status in \["open"\] can be expired/);
    const page = await shop.http.get(new URL(session.url!).pathname);
    assert.equal(page.status, 410);
    assert.match(page.text, /This checkout session has expired\./);
    await assert.rejects(payInSandbox(shop.url, session.url!), /This checkout session has expired/);

    // A session whose time is up is expired when next looked at, as Stripe expires it on its own.
    const due = await stripe.checkout.sessions.create(sessionParams());
    await t.db('stripe_sandbox_objects').where({ id: due.id }).update({ data: t.db.raw(`jsonb_set(data, '{expires_at}', to_jsonb(?::bigint))`, [unixNow() - 1]) });
    assert.equal((await stripe.checkout.sessions.retrieve(due.id)).status, 'expired');
  });
});
