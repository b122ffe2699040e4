import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { lookupWindowSeconds, verifyRateLimit } from '../../api/src/orders/verify-throttle.ts';
import { describeApi } from '../support/env.ts';
import { startHttpFaultProxy, type HttpFaultProxy } from '../support/http-fault-proxy.ts';
import { placeMainOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The success page's verify call is public: 200 calls for one order, at once or one after another,
// through one process or two, ask Stripe at most once per window of lookupWindowSeconds; orders
// Stripe has nothing new about are answered from the database; one client address is held to
// verifyRateLimit calls a minute. The Stripe calls are counted on the wire: the shops reach their
// sandbox through a proxy that logs every request (the sandbox itself keeps no log of GETs).

type Order = Awaited<ReturnType<typeof placeMainOrder>>;

describeApi('the verify call asks Stripe at most once per order and window', (t) => {
  let proxy: HttpFaultProxy;
  let shop: ListeningShop;
  /** A second server process on the same database: its own configuration, so its own buckets and look-ups. */
  let other: ListeningShop;
  before(async () => {
    proxy = await startHttpFaultProxy();
    // Behind a trusted proxy, each call from an address of its own (as from many clients): the limit
    // per address, tested below, is not what holds Stripe back here.
    const viaProxy = (c: typeof t.config) => ({
      orderRateLimit: 10_000,
      trustProxy: ['127.0.0.1', '::1'],
      stripe: { ...c.stripe, apiUrl: proxy.url },
    });
    shop = await listenShop(t, viaProxy);
    other = await listenShop(t, viaProxy);
    proxy.target = shop.url;
  });
  after(async () => {
    await other.close();
    await shop.close();
    await proxy.close();
  });

  /** How often Stripe was asked about the order's Checkout Session so far. */
  const lookups = (order: Order) =>
    proxy.seen.filter((seen) => seen === `GET /v1/checkout/sessions/${order.sessionId}`).length;
  let client = 0;
  const verify = (order: Order, via = shop, extra = '') => {
    client++;
    return via.http
      .get(`/api/orders/verify?order=${order.token}&session_id=${order.sessionId}${extra}`)
      .set('X-Forwarded-For', `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`);
  };
  /** The most look-ups `seconds` of calls may make: one per window they touch. */
  const allowedIn = (ms: number) => Math.ceil(ms / 1000 / lookupWindowSeconds) + 1;

  it('200 concurrent calls for a pending order share one look-up per window; every caller reads "pending"', async () => {
    const order = await placeMainOrder(shop, t.db);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => verify(order)));
    const ms = performance.now() - started;
    assert.deepEqual(new Set(answers.map((res) => `${res.status} ${res.body.status}`)), new Set(['200 pending']));
    const asked = lookups(order);
    console.log(`      200 concurrent verify calls in ${ms.toFixed(0)} ms: ${asked} Stripe look-up(s)`);
    assert.ok(asked >= 1, 'Stripe was asked');
    assert.ok(asked <= allowedIn(ms), `${asked} look-ups in ${ms.toFixed(0)} ms`);
  });

  it('200 calls one after another make at most one look-up per window', async () => {
    const order = await placeMainOrder(shop, t.db);
    const started = performance.now();
    for (let i = 0; i < 200; i++) assert.equal((await verify(order)).body.status, 'pending');
    const ms = performance.now() - started;
    const asked = lookups(order);
    console.log(`      200 sequential verify calls in ${ms.toFixed(0)} ms: ${asked} Stripe look-up(s)`);
    assert.ok(asked >= 1 && asked <= allowedIn(ms), `${asked} look-ups in ${ms.toFixed(0)} ms`);
  });

  it('holds the window across two server processes on one database', async () => {
    const order = await placeMainOrder(shop, t.db);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => verify(order, i % 2 ? other : shop)));
    const ms = performance.now() - started;
    assert.ok(answers.every((res) => res.status === 200 && res.body.status === 'pending'));
    const asked = lookups(order);
    console.log(`      200 verify calls over two processes in ${ms.toFixed(0)} ms: ${asked} Stripe look-up(s)`);
    assert.ok(asked <= allowedIn(ms), `${asked} look-ups in ${ms.toFixed(0)} ms`);
  });

  it('shows a payment as paid at once: the first call after it asks Stripe and books it', async () => {
    const order = await placeMainOrder(shop, t.db);
    const back = new URL(await payInSandbox(shop.url, order.checkoutUrl));
    assert.equal(back.searchParams.get('session_id'), order.sessionId);
    const res = await shop.http.get(`/api/orders/verify${back.search}`);
    assert.deepEqual([res.status, res.body.status], [200, 'paid']);
  });

  it('shows a payment made right after a flood of calls as paid to the success page’s waiting ask', async () => {
    const order = await placeMainOrder(shop, t.db);
    await Promise.all(Array.from({ length: 50 }, () => verify(order)));
    // Paid within the window the flood claimed: the next ask may not reach Stripe, but it waits for
    // the webhook's booking as the success page's asks do (an ask that gave up would read "pending").
    // How long that takes is a bench figure: `npm run bench -- purchases`.
    await payInSandbox(shop.url, order.checkoutUrl);
    const res = await verify(order, shop, '&wait=10');
    assert.deepEqual([res.status, res.body.status], [200, 'paid']);
    const stored = await t.db('orders').where({ id: order.id }).first('status');
    assert.equal(stored.status, 'paid');
  });

  it('answers expired, failed and day-old pending orders from the database without asking Stripe', async () => {
    for (const [status, age] of [
      ['expired', '40 minutes'],
      ['failed', '1 minute'],
      ['pending', '25 hours'],
    ] as const) {
      const order = await placeMainOrder(shop, t.db);
      await t
        .db('orders')
        .where({ id: order.id })
        .update({ status, created_at: t.db.raw(`now() - interval '${age}'`) });
      const res = await verify(order);
      assert.deepEqual([res.status, res.body.status], [200, status], `${status}, ${age} old`);
      assert.equal(lookups(order), 0, `${status}, ${age} old: Stripe not asked`);
    }
  });
});

describeApi('the verify call’s limit per client address', (t) => {
  const refusal =
    'Too many payment confirmations were asked for from this connection. Please wait a minute and try again.';

  it(`refuses a client beyond ${verifyRateLimit} calls a minute with 429, Retry-After and a message in its language; another address goes on`, async () => {
    // Behind a trusted proxy, so the test can speak for two clients.
    const app = supertest(buildApp({ db: t.db, config: { ...t.config, trustProxy: ['127.0.0.1', '::1'] } }).callback());
    const ask = (address: string, language = 'en') =>
      app
        .get(`/api/orders/verify?order=${'x'.repeat(43)}&session_id=cs_test_x`)
        .set('X-Forwarded-For', address)
        .set('Accept-Language', language);
    // The bucket refills evenly over the minute (one call per 60/limit s), also while this loop runs.
    const started = performance.now();
    let allowed = 0;
    let refused;
    while (allowed <= 2 * verifyRateLimit) {
      const res = await ask('203.0.113.7');
      if (res.status !== 404) {
        refused = res;
        break;
      }
      allowed++;
    }
    const refilled = Math.ceil(((performance.now() - started) / 60_000) * verifyRateLimit);
    assert.ok(
      allowed >= verifyRateLimit && allowed <= verifyRateLimit + refilled,
      `${allowed} calls allowed (${refilled} refilled)`,
    );
    assert.equal(refused?.status, 429);
    assert.equal(refused.body.message, refusal);
    assert.match(refused.headers['retry-after'], /^[1-9]\d*$/);
    assert.ok(Number(refused.headers['retry-after']) <= 60);
    // In German for a German reader (asked again while a refilled call slips through).
    let german;
    for (let i = 0; i < 5 && german?.status !== 429; i++) german = await ask('203.0.113.7', 'de');
    assert.equal(german?.status, 429);
    assert.equal(
      german.body.message,
      'Von dieser Verbindung wurden zu viele Zahlungsbestätigungen abgefragt. Bitte eine Minute warten und es dann noch einmal versuchen.',
    );
    assert.equal((await ask('198.51.100.4')).status, 404, 'another client is not refused');
  });
});
