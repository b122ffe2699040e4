import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { Config } from '../../api/src/foundations/config.ts';
import { resumeSandbox } from '../../api/src/stripe/sandbox/index.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { describeApi } from '../support/env.ts';
import { eventually } from '../support/orders.ts';
import { payInSandbox, releaseHeldFee, retryWebhooksNow } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

/** The official SDK pointed at the sandbox, as the Stripe adapter does. */
function sdk(shop: ListeningShop, key: string): Stripe {
  const { hostname, port } = new URL(shop.url);
  return new Stripe(key, {
    host: hostname,
    port: Number(port),
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

interface Delivery {
  raw: string;
  signature: string;
  path: string;
}

/** A webhook endpoint of our own: records what arrives and answers with the status `answer` gives. */
async function webhookReceiver(answer: (attempt: number) => number = () => 200) {
  const deliveries: Delivery[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
        path: req.url ?? '',
      });
      res.statusCode = answer(deliveries.length);
      res.end();
      if (waiting && deliveries.length >= waiting.count) waiting.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/stripe`,
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

const heldFeeCard = '4000000000000010';

/** The published key of the sandbox before each installation had its own. */
const oldPublishedKey = 'sk_test_sandbox_local';

const sessionParams = (shopUrl: string): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [
    { price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } }, quantity: 2 },
    { price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'Trinkgeld' } }, quantity: 1 },
  ],
  customer_email: 'reader@example.org',
  // The page's messages are asserted in English; the German page has a test of its own.
  locale: 'en',
  expires_at: unixNow() + 30 * 60,
  // No order of the shop: the shop's own webhook route, which gets every event too, ignores these.
  metadata: { test: 'sandbox' },
  client_reference_id: 'sandbox-test',
  success_url: `${shopUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
  cancel_url: `${shopUrl}/failure`,
});

describeApi('local Stripe sandbox through the official SDK', (t) => {
  let shop: ListeningShop;
  let stripe: Stripe;
  let key: string;
  const params = () => sessionParams(shop.url);

  before(async () => {
    shop = await listenShop(t);
    key = (await sandboxCredentials(t.db)).secretKey;
    stripe = sdk(shop, key);
  });
  after(() => shop.close());

  it('creates an open Checkout Session with Stripe’s shape, the same one again for the same idempotency key', async () => {
    const create = params();
    const first = await stripe.checkout.sessions.create(create, { idempotencyKey: `order-42-checkout-${t.engine}` });
    assert.match(first.id, /^cs_test_[A-Za-z0-9]{40}$/);
    assert.equal(first.object, 'checkout.session');
    assert.equal(first.url, `${shop.url}/stripe-sandbox/pay/${first.id}`);
    assert.equal(first.status, 'open');
    assert.equal(first.payment_status, 'unpaid');
    assert.equal(first.amount_total, 700);
    assert.equal(first.currency, 'eur');
    assert.equal(first.customer_email, 'reader@example.org');
    assert.equal(first.expires_at, create.expires_at);
    assert.deepEqual(first.metadata, { test: 'sandbox' });
    assert.equal(first.client_reference_id, 'sandbox-test');
    assert.equal(first.success_url, create.success_url);
    assert.equal(first.line_items, undefined, 'line items only when expanded');

    const again = await stripe.checkout.sessions.create(create, { idempotencyKey: `order-42-checkout-${t.engine}` });
    assert.deepEqual(again, first);
    const other = await stripe.checkout.sessions.create(create);
    assert.notEqual(other.id, first.id);

    await assert.rejects(
      stripe.checkout.sessions.create(
        { ...create, metadata: { test: 'other' } },
        { idempotencyKey: `order-42-checkout-${t.engine}` },
      ),
      (error) => error instanceof Stripe.errors.StripeIdempotencyError,
    );

    // Concurrent retries with one key (the SDK's own retries race like this) still make one session.
    const racing = await Promise.all(
      Array.from({ length: 5 }, () => stripe.checkout.sessions.create(create, { idempotencyKey: `race-${t.engine}` })),
    );
    assert.equal(new Set(racing.map((s) => s.id)).size, 1);

    const read = await stripe.checkout.sessions.retrieve(first.id, { expand: ['line_items'] });
    assert.deepEqual(
      read.line_items!.data.map((item) => [
        item.description,
        item.quantity,
        item.amount_total,
        item.price!.unit_amount,
      ]),
      [
        ['Zeitung', 2, 600, 300],
        ['Trinkgeld', 1, 100, 100],
      ],
    );
  });

  it('has a key of its own per installation: the published old key and a wrong key are refused with Stripe’s 401', async () => {
    assert.match(key, /^sk_test_[A-Za-z0-9]{48}$/);
    assert.notEqual(key, oldPublishedKey);
    const objectsBefore = await t.db('stripe_sandbox_objects').count({ n: '*' });
    const rejected = (error: unknown) => {
      assert.ok(error instanceof Stripe.errors.StripeAuthenticationError, String(error));
      assert.match(error.message, /^Invalid API Key provided: sk_test_\*+/);
      return true;
    };
    // One character off: a key that happens to end in x gets a y, or the "wrong" key would be the key.
    const oneOff = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    for (const wrong of [oldPublishedKey, 'sk_test_not_the_sandbox_key', oneOff]) {
      const intruder = sdk(shop, wrong);
      // Registering an endpoint to receive every event (and make the server POST anywhere).
      await assert.rejects(
        intruder.webhookEndpoints.create({ url: 'https://evil.example/hook', enabled_events: ['*'] }),
        rejected,
      );
      await assert.rejects(
        intruder.webhookEndpoints.create({ url: `${shop.url}/api/webhooks/stripe`, enabled_events: ['*'] }),
        rejected,
      );
      // Creating a session, and pre-claiming the idempotency key of the shop's next order.
      await assert.rejects(intruder.checkout.sessions.create(params()), rejected);
      await assert.rejects(
        intruder.checkout.sessions.create(params(), { idempotencyKey: `order-77-checkout-${t.engine}` }),
        rejected,
      );
      await assert.rejects(
        intruder.refunds.create({ payment_intent: 'pi_x' }, { idempotencyKey: `order-77-refund-${t.engine}` }),
        rejected,
      );
      // Sending a payer away from the shop.
      await assert.rejects(
        intruder.checkout.sessions.create({
          ...params(),
          success_url: 'https://evil.example/x?s={CHECKOUT_SESSION_ID}',
        }),
        rejected,
      );
      await assert.rejects(intruder.webhookEndpoints.list(), rejected);
    }
    assert.deepEqual(await t.db('stripe_sandbox_objects').count({ n: '*' }), objectsBefore, 'nothing was stored');
    const claims = await t
      .db('stripe_sandbox_requests')
      .where('idempotency_key', 'like', 'order-77-%')
      .count({ n: '*' });
    assert.equal(Number(claims[0].n), 0, 'no idempotency key was claimed');

    // The shop's own request with that key is its own first one, not a replay.
    const res = await shop.http
      .post('/v1/checkout/sessions')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', `order-77-checkout-${t.engine}`)
      .type('form')
      .send('mode=payment&line_items[0][quantity]=1&line_items[0][price_data][currency]=eur')
      .send('line_items[0][price_data][unit_amount]=300&line_items[0][price_data][product_data][name]=Zeitung')
      .send(`success_url=${encodeURIComponent(`${shop.url}/ok`)}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers['idempotent-replayed'], undefined);

    const missing = await shop.http.get('/v1/checkout/sessions/cs_test_x');
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.type, 'invalid_request_error');
  });

  it('with the right key too: no endpoint but the server’s own, no payer sent to a foreign site', async () => {
    const refused = (param: string) => (error: unknown) => {
      assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError, String(error));
      assert.equal(error.statusCode, 400);
      assert.equal(error.param, param);
      return true;
    };
    for (const url of [
      'https://evil.example/hook',
      'http://169.254.169.254/latest/meta-data',
      `${shop.url}/api/webhooks/stripe/../x`,
      `${shop.url}/hook`,
    ]) {
      await assert.rejects(stripe.webhookEndpoints.create({ url, enabled_events: ['*'] }), refused('url'));
    }
    for (const [field, url] of [
      ['success_url', 'https://evil.example/x?s={CHECKOUT_SESSION_ID}'],
      ['success_url', `${shop.url}.evil.example/x`],
      ['cancel_url', 'https://evil.example/back'],
    ]) {
      await assert.rejects(stripe.checkout.sessions.create({ ...params(), [field]: url }), refused(field));
    }
    // The newspaper's own sites that embed the shop are allowed.
    await t
      .db('settings')
      .where({ id: 1 })
      .update({ embed_origins: JSON.stringify(['https://zeitung.example']) });
    try {
      const embedded = await stripe.checkout.sessions.create({
        ...params(),
        success_url: 'https://zeitung.example/danke',
        cancel_url: 'https://zeitung.example/',
      });
      assert.equal(embedded.success_url, 'https://zeitung.example/danke');
    } finally {
      await t
        .db('settings')
        .where({ id: 1 })
        .update({ embed_origins: JSON.stringify([]) });
    }
    assert.equal((await stripe.webhookEndpoints.list()).data.length, 0);
  });

  it('forgets idempotency keys after 24 hours, as Stripe does', async () => {
    const first = await stripe.checkout.sessions.create(params(), { idempotencyKey: `order-5-checkout-${t.engine}` });
    const changed = { ...params(), metadata: { order: '5', after: 'reset' } };
    await assert.rejects(
      stripe.checkout.sessions.create(changed, { idempotencyKey: `order-5-checkout-${t.engine}` }),
      (error) => error instanceof Stripe.errors.StripeIdempotencyError,
    );
    // A day passes (the key's stored time set back): the same key with other parameters is a new request.
    await t
      .db('stripe_sandbox_requests')
      .where({ idempotency_key: `order-5-checkout-${t.engine}` })
      .update({ created_at: t.db.raw(`now() - interval '24 hours 1 second'`) });
    const later = await stripe.checkout.sessions.create(changed, { idempotencyKey: `order-5-checkout-${t.engine}` });
    assert.notEqual(later.id, first.id);
    assert.deepEqual(later.metadata, { order: '5', after: 'reset' });
    // Within the day the key answers the same again.
    const again = await stripe.checkout.sessions.create(changed, { idempotencyKey: `order-5-checkout-${t.engine}` });
    assert.equal(again.id, later.id);
  });

  it('keeps at most SANDBOX_MAX_OBJECTS objects: old expired sessions make room, else Stripe’s error', async () => {
    const count = async () => Number((await t.db('stripe_sandbox_objects').count({ n: '*' }))[0].n);
    const cap = (await count()) + 2;
    const small = await listenShop(t, () => ({ sandboxMaxObjects: cap }));
    try {
      const capped = sdk(small, key);
      const sessions = [
        await capped.checkout.sessions.create(sessionParams(small.url)),
        await capped.checkout.sessions.create(sessionParams(small.url)),
      ];
      await assert.rejects(capped.checkout.sessions.create(sessionParams(small.url)), (error) => {
        assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError, String(error));
        assert.equal(error.statusCode, 400);
        assert.equal(error.code, 'sandbox_full');
        return true;
      });
      assert.equal(await count(), cap);
      // A session that expired unpaid over a week ago is the first to go.
      await capped.checkout.sessions.expire(sessions[0].id);
      await t
        .db('stripe_sandbox_objects')
        .where({ id: sessions[0].id })
        .update({ created_at: t.db.raw(`now() - interval '8 days'`) });
      const next = await capped.checkout.sessions.create(sessionParams(small.url));
      assert.equal(await count(), cap);
      await assert.rejects(capped.checkout.sessions.retrieve(sessions[0].id), /No such checkout.session/);
      assert.equal((await capped.checkout.sessions.retrieve(next.id)).status, 'open');
    } finally {
      await small.close();
    }
  });

  it('refuses unknown parameters, bad amounts and unknown objects as Stripe does', async () => {
    const refused = async (extra: object, param: string, message?: string) =>
      assert.rejects(stripe.checkout.sessions.create({ ...params(), ...extra }), (error) => {
        assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError, String(error));
        assert.equal(error.statusCode, 400);
        assert.equal(error.type, 'StripeInvalidRequestError');
        assert.equal(error.param, param);
        if (message) assert.equal(error.message, message);
        return true;
      });
    await refused({ colour: 'red' }, 'colour', 'Received unknown parameter: colour');
    // Gone from Checkout Sessions since API version 2026-09-30.endive; Stripe answers it as unknown.
    await refused(
      { payment_method_types: ['card'] },
      'payment_method_types',
      'Received unknown parameter: payment_method_types',
    );
    await refused(
      { line_items: [{ price_data: { currency: 'eur', unit_amount: -1, product_data: { name: 'x' } }, quantity: 1 }] },
      'line_items[0][price_data][unit_amount]',
    );
    await refused({ line_items: [] }, 'line_items');
    await refused({ allowed_payment_method_types: ['sepa_debit'] }, 'allowed_payment_method_types');
    await refused(
      { allowed_payment_method_types: ['card'], payment_method_configuration: 'pmc_1' },
      'allowed_payment_method_types',
    );
    await refused({ expires_at: unixNow() + 60 }, 'expires_at');
    await refused({ success_url: 'not a url' }, 'success_url');

    await assert.rejects(stripe.checkout.sessions.retrieve('cs_test_missing'), (error) => {
      assert.ok(error instanceof Stripe.errors.StripeInvalidRequestError);
      assert.equal(error.statusCode, 404);
      assert.equal(error.code, 'resource_missing');
      return true;
    });
    const unknown = await shop.http.get('/v1/customers').set('Authorization', `Bearer ${key}`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /^Unrecognized request URL \(GET: \/v1\/customers\)/);
  });

  it('pays with 4242 4242 4242 4242: session paid, charge with a balance transaction of 1.5 % + 25 cents, redirect to the success URL', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const location = await payInSandbox(shop.url, session.url!, '4242 4242 4242 4242');
    assert.equal(location, `${shop.url}/success?session_id=${session.id}`);

    const paid = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent.latest_charge.balance_transaction'],
    });
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
    const resubmit = await shop.http
      .post(new URL(session.url!).pathname)
      .type('form')
      .send({ card: '4242424242424242' });
    assert.equal(resubmit.status, 303);
    const again = await stripe.checkout.sessions.retrieve(session.id);
    assert.equal(again.payment_intent, intent.id);
  });

  it('lists Stripe’s test cards (and 0010, marked sandbox only); a number that fails the Luhn check, such as 3476, is incorrect', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const page = await shop.http.get(new URL(session.url!).pathname);
    const listed = [...page.text.matchAll(/<li><code>([\d ]+)<\/code> ([^<]*)<\/li>/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(
      listed.map(([number]) => number),
      [
        '4242 4242 4242 4242',
        '4000 0000 0000 0002',
        '4000 0000 0000 9995',
        '4000 0000 0000 0010',
        '4000 0000 0000 0259',
        '4000 0004 0400 0079',
        '4000 0000 0000 1976',
        '4000 0000 0000 5423',
        '4000 0000 0000 7726',
        '4000 0000 0000 5126',
      ],
    );
    assert.match(new Map(listed.map(([n, what]) => [n, what])).get('4000 0000 0000 0010')!, /sandbox only/);
    // Luhn: every Stripe test card passes it; 4000 0000 0000 3476 does not, and is no card of the sandbox's.
    const luhn = (digits: string) =>
      [...digits.replace(/ /g, '')].reverse().reduce((sum, d, i) => {
        const n = Number(d) * (i % 2 ? 2 : 1);
        return sum + (n > 9 ? n - 9 : n);
      }, 0) %
        10 ===
      0;
    assert.ok(
      listed.every(([number]) => luhn(number)),
      'every listed card passes the Luhn check',
    );
    assert.equal(luhn('4000000000003476'), false);
    await assert.rejects(payInSandbox(shop.url, session.url!, '4000000000003476'), /Your card number is incorrect\./);
  });

  it('keeps the customer on the page for a declined card, insufficient funds, or a wrong number', async () => {
    const session = await stripe.checkout.sessions.create(params());
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

  it('expires an open session on request or when its time is up, and its page says so', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const expired = await stripe.checkout.sessions.expire(session.id);
    assert.equal(expired.status, 'expired');
    assert.equal(expired.url, null);
    await assert.rejects(
      stripe.checkout.sessions.expire(session.id),
      /Only Checkout Sessions with a status in \["open"\] can be expired/,
    );
    const page = await shop.http.get(new URL(session.url!).pathname);
    assert.equal(page.status, 410);
    assert.match(page.text, /This checkout session has expired\./);
    await assert.rejects(payInSandbox(shop.url, session.url!), /This checkout session has expired/);

    // A session whose time is up is expired when next looked at, as Stripe expires it on its own.
    const due = await stripe.checkout.sessions.create(params());
    await t
      .db('stripe_sandbox_objects')
      .where({ id: due.id })
      .update({ data: t.db.raw(`jsonb_set(data, '{expires_at}', to_jsonb(?::bigint))`, [unixNow() - 1]) });
    assert.equal((await stripe.checkout.sessions.retrieve(due.id)).status, 'expired');
  });
});

/**
 * The sandbox's events go only to the server's own webhook route, `<PUBLIC_URL>/api/webhooks/stripe`.
 * Here PUBLIC_URL is a receiver of the test's, so the test sees each delivery as the route would.
 */
describeApi('local Stripe sandbox: events to the server’s own webhook route', (t) => {
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let answer: (attempt: number) => number = () => 200;
  let secret: string;

  before(async () => {
    receiver = await webhookReceiver((n) => answer(n));
    secret = (await sandboxCredentials(t.db)).webhookSecret;
  });
  after(() => receiver.close());
  beforeEach(() => {
    receiver.deliveries.length = 0;
    answer = () => 200;
  });

  /** A shop whose PUBLIC_URL is the receiver; the SDK reaches its sandbox at the shop's own address. */
  async function shopAtReceiver(overrides: Partial<Config> = {}) {
    const publicUrl = new URL(receiver.url).origin;
    const shop = await listenShop(t, () => ({ publicUrl, sandboxWebhookRetryMs: 20, ...overrides }));
    const stripe = sdk(shop, (await sandboxCredentials(t.db)).secretKey);
    const pay = async (card?: string) => {
      const session = await stripe.checkout.sessions.create(sessionParams(publicUrl));
      await payInSandbox(shop.url, session.url!, card);
      return session;
    };
    return { shop, stripe, pay };
  }
  const events = () => receiver.deliveries.map((d) => Stripe.webhooks.constructEvent(d.raw, d.signature, secret));

  it('sends every event to the server’s own route signed with the installation’s secret, retrying a 5xx', async () => {
    const { shop, pay } = await shopAtReceiver();
    answer = (n) => (n === 1 ? 503 : 200);
    try {
      const session = await pay();
      await receiver.received(2);
      const [failed, retried] = events();
      assert.equal(failed.type, 'checkout.session.completed');
      assert.equal(failed.data.object.id, session.id);
      assert.equal(retried.id, failed.id, 'the retry carries the same event, signed afresh');
      assert.ok(receiver.deliveries.every((d) => d.path === '/api/webhooks/stripe'));
      assert.throws(
        () =>
          Stripe.webhooks.constructEvent(
            receiver.deliveries[0].raw,
            receiver.deliveries[0].signature,
            'whsec_sandbox_local',
          ),
        /signature/i,
      );
      await eventually(
        async () => Number((await t.db('stripe_sandbox_deliveries').count({ n: '*' }))[0].n) === 0,
        'nothing left to send',
      );
    } finally {
      await shop.close();
    }
  });

  it('retries a refused delivery over about three days, each wait twice the last, then gives up; retry-now hurries every wait', async () => {
    const { shop, pay } = await shopAtReceiver({ sandboxWebhookRetryMs: t.config.sandboxWebhookRetryMs });
    answer = () => 503;
    try {
      await pay();
      const waits: number[] = [];
      for (let attempt = 1; ; attempt++) {
        await receiver.received(attempt);
        let row: { wait_s: number; leased_until: Date | null } | undefined;
        await eventually(async () => {
          const { rows } = await t.db.raw<{ rows: { wait_s: number; leased_until: Date | null }[] }>(
            `select extract(epoch from next_attempt_at - now())::float8 as wait_s, leased_until from stripe_sandbox_deliveries`,
          );
          row = rows[0];
          return row === undefined || row.leased_until === null;
        }, `attempt ${attempt} recorded`);
        if (!row) break;
        waits.push(row.wait_s);
        assert.equal(await retryWebhooksNow(t.db, shop.url), 1);
      }
      assert.equal(waits.length, 12, 'thirteen attempts');
      assert.ok(Math.abs(waits[0] - 60) < 5, `the first retry a minute later (${waits[0]} s)`);
      waits.slice(1).forEach((wait, i) => assert.ok(Math.abs(wait / waits[i] - 2) < 0.1, `wait ${i + 2} doubles`));
      const days = waits.reduce((sum, wait) => sum + wait, 0) / 86_400;
      assert.ok(days > 2.5 && days <= 3, `the retries span about three days (${days.toFixed(2)})`);
      assert.equal(new Set(events().map((event) => event.id)).size, 1, 'one event, retried');
    } finally {
      await shop.close();
    }
  });

  it('with an endpoint registered (the server’s own URL), sends it only the events it chose', async () => {
    const { shop, stripe, pay } = await shopAtReceiver();
    const endpoint = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: ['charge.updated'] });
    try {
      assert.equal(endpoint.secret, secret, 'the installation’s secret, shown on creation');
      assert.equal((await stripe.webhookEndpoints.retrieve(endpoint.id)).secret, undefined, 'and only then');
      const session = await pay(heldFeeCard);
      await releaseHeldFee(t.db, shop.url, session.id);
      await receiver.received(1);
      // Sent all it had to send: an event the endpoint did not choose would have arrived by now.
      await eventually(
        async () => Number((await t.db('stripe_sandbox_deliveries').count({ n: '*' }))[0].n) === 0,
        'nothing left to send',
      );
      assert.deepEqual(
        events().map((e) => e.type),
        ['charge.updated'],
        'checkout.session.completed was not chosen',
      );
    } finally {
      await stripe.webhookEndpoints.del(endpoint.id);
      await shop.close();
    }
  });

  it('holds the fee back with 4000 0000 0000 0010 until it is released, then sends charge.updated', async () => {
    const { shop, stripe, pay } = await shopAtReceiver();
    try {
      const session = await pay(heldFeeCard);
      await receiver.received(1);
      const expand = ['payment_intent.latest_charge.balance_transaction'];
      const paid = await stripe.checkout.sessions.retrieve(session.id, { expand });
      assert.equal(paid.payment_status, 'paid');
      const charge = (paid.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge;
      assert.equal(charge.balance_transaction, null, 'no fee yet');

      await releaseHeldFee(t.db, shop.url, session.id);
      await receiver.received(2);
      const event = events()[1];
      assert.equal(event.type, 'charge.updated');
      assert.equal(event.data.object.id, charge.id);
      assert.deepEqual(event.data.previous_attributes, { balance_transaction: null });
      const later = await stripe.checkout.sessions.retrieve(session.id, { expand });
      const txn = ((later.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge)
        .balance_transaction as Stripe.BalanceTransaction;
      assert.equal(txn.fee, 36);

      await assert.rejects(releaseHeldFee(t.db, shop.url, session.id), /no payment whose fee is held back/);
    } finally {
      await shop.close();
    }
  });

  it('by default leaves the fee null at checkout.session.completed and sends it with charge.updated a moment later', async () => {
    const { shop, stripe, pay } = await shopAtReceiver({ sandboxFeeDelayMs: 300 });
    try {
      const session = await pay();
      const expand = ['payment_intent.latest_charge.balance_transaction'];
      const paid = await stripe.checkout.sessions.retrieve(session.id, { expand });
      assert.equal(
        ((paid.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge).balance_transaction,
        null,
      );
      await receiver.received(2);
      const [completed, updated] = events();
      assert.equal(completed.type, 'checkout.session.completed');
      assert.equal(updated.type, 'charge.updated');
      assert.deepEqual(updated.data.previous_attributes, { balance_transaction: null });
      const later = await stripe.checkout.sessions.retrieve(session.id, { expand });
      const txn = ((later.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge)
        .balance_transaction as Stripe.BalanceTransaction;
      assert.equal(txn.fee, 36);
    } finally {
      await shop.close();
    }
  });

  it('delivers after a restart what was pending when the process died', async () => {
    // The first process's deliveries fail, and its next try would be an hour away.
    answer = () => 503;
    const first = await shopAtReceiver({ sandboxWebhookRetryMs: 3_600_000 });
    const session = await first.pay();
    await receiver.received(1);
    await eventually(
      async () => (await t.db('stripe_sandbox_deliveries').first('attempts', 'leased_until'))?.leased_until === null,
      'the failure recorded',
    );
    await first.shop.close();

    // The next process starts as server.ts starts it, and sends what was left at once.
    answer = () => 200;
    const resumed = resumeSandbox(t.db, { ...first.shop.config, sandboxWebhookRetryMs: 20 });
    try {
      await receiver.received(2);
      const [lost, delivered] = events();
      assert.equal(delivered.id, lost.id);
      assert.equal((delivered.data.object as Stripe.Checkout.Session).id, session.id);
      await eventually(
        async () => Number((await t.db('stripe_sandbox_deliveries').count({ n: '*' }))[0].n) === 0,
        'nothing left to send',
      );
    } finally {
      resumed.stop();
    }
  });

  it('a stopped server sends no more: its retries are left to the next process, which sends them to its own address', async () => {
    answer = () => 503;
    const first = await shopAtReceiver({ sandboxWebhookRetryMs: 200 });
    await first.pay();
    await receiver.received(1);
    await eventually(
      async () => (await t.db('stripe_sandbox_deliveries').first('leased_until'))?.leased_until === null,
      'the failure recorded',
    );
    await first.shop.close();
    // Its next try comes due 200 ms after the first: the test goes on once the database's clock has
    // passed it, so that a sender still running would have sent it before the next process starts.
    await eventually(
      async () => Boolean(await t.db('stripe_sandbox_deliveries').whereRaw('next_attempt_at < now()').first('id')),
      'the retry due',
    );
    assert.equal(receiver.deliveries.length, 1, 'no try after the stop');
    assert.equal((await t.db('stripe_sandbox_deliveries').first('attempts'))?.attempts, 1);

    answer = () => 200;
    const resumed = resumeSandbox(t.db, { ...first.shop.config });
    try {
      await receiver.received(2);
      await eventually(
        async () => Number((await t.db('stripe_sandbox_deliveries').count({ n: '*' }))[0].n) === 0,
        'nothing left to send',
      );
      // The due retry went out once, from the next process: the stopped one sent none of it.
      assert.equal(receiver.deliveries.length, 2, 'one try before the stop, one by the next process');
    } finally {
      resumed.stop();
    }
  });

  /** A first attempt answered 503, recorded; then `meddle` changes the delivery's row as another sender would. */
  async function retryAfter(meddle: string) {
    answer = (n) => (n === 1 ? 503 : 200);
    const { shop, pay } = await shopAtReceiver({ sandboxWebhookRetryMs: 500 });
    try {
      await pay();
      await receiver.received(1);
      await eventually(
        async () => (await t.db('stripe_sandbox_deliveries').first('leased_until'))?.leased_until === null,
        'the failure recorded',
      );
      await t.db.raw(`update stripe_sandbox_deliveries set ${meddle}`);
      await eventually(() => Promise.resolve(receiver.deliveries.length === 2), 'the retry arrives once it is due');
      await eventually(
        async () => Number((await t.db('stripe_sandbox_deliveries').count({ n: '*' }))[0].n) === 0,
        'nothing left to send',
      );
      assert.equal(events()[1].id, events()[0].id);
    } finally {
      await shop.close();
    }
  }

  it('sends a retry when it comes due, also when another sender has put it later than this server planned', () =>
    retryAfter(`next_attempt_at = now() + interval '1.5 seconds'`));

  it('sends again what a sender that died had claimed, once its claim runs out', () =>
    retryAfter(`attempts = attempts + 1, next_attempt_at = now(), leased_until = now() + interval '1.5 seconds'`));

  it('books at restart a fee that a stopped process still owed, and sends charge.updated', async () => {
    const first = await shopAtReceiver({ sandboxFeeDelayMs: 3_600_000 });
    const session = await first.pay();
    await receiver.received(1);
    await first.shop.close();
    const charge = await t
      .db('stripe_sandbox_objects')
      .where({ type: 'charge' })
      .orderBy('created_at', 'desc')
      .first('id', 'created_at');
    await t
      .db('stripe_sandbox_objects')
      .where({ id: charge.id })
      .update({ created_at: t.db.raw(`now() - interval '2 hours'`) });

    const resumed = resumeSandbox(t.db, { ...first.shop.config });
    const second = await shopAtReceiver();
    try {
      await receiver.received(2);
      const updated = events()[1];
      assert.equal(updated.type, 'charge.updated');
      assert.equal(updated.data.object.id, charge.id);
      const later = await second.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['payment_intent.latest_charge'],
      });
      assert.ok(((later.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge).balance_transaction);
    } finally {
      resumed.stop();
      await second.shop.close();
    }
  });
});
