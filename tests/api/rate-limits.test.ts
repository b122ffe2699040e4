import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/foundations/config.ts';
import { perProcess, TokenBuckets } from '../../api/src/http/rate-limit.ts';
import type { Db } from '../../api/src/db/connection.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { listenShop } from '../support/shop-server.ts';

// Rate limits count per client address and minute: new orders in the database (every process behind
// a load balancer shares the count), look-ups of a licence id in each process's token buckets, each
// allowing its share (PROCESS_COUNT). The address is the socket's peer unless a trusted proxy names one.

/**
 * The limits count per minute of the database's clock. A test that needs its requests in one minute
 * runs them through this: on an empty count, and once more should the minute turn while they run
 * (two windows in rate_limits), which the next try cannot meet, a whole minute away. The assertions
 * follow on the try that stayed in one minute.
 */
async function inOneMinute<T>(db: Db, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    await db('rate_limits').delete();
    const result = await attempt();
    const windows = await db('rate_limits').where({ bucket: 'order' }).distinct('window_start');
    if (windows.length <= 1) return result;
    assert.ok(tries < 3, 'the requests fell into one minute');
  }
}

const refusal = 'Too many vendor IDs were looked up from this connection. Please wait a minute and try again.';

describeApi('rate limit of the vendor check', (t) => {
  const app = (overrides: Partial<Config> = {}) =>
    supertest(buildApp({ db: t.db, config: { ...t.config, vendorCheckRateLimit: 3, ...overrides } }).callback());
  const check = (client: supertest.Agent | ReturnType<typeof app>, forwardedFor?: string) => {
    const req = client.get('/api/vendors/check/DEMO-1');
    return forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req;
  };

  it('refuses look-ups beyond the limit with 429, Retry-After and a message, on every path that looks one up', async () => {
    const shop = app();
    // The check, the shop page of a vendor and the widget's boot call share one allowance.
    assert.equal((await shop.get('/api/vendors/check/DEMO-1')).status, 200);
    assert.equal((await shop.get('/v/DEMO-1')).status, 200);
    assert.equal((await shop.get('/api/shop/boot?vendor=DEMO-1')).status, 200);
    for (const path of [
      '/api/vendors/check/DEMO-1',
      '/api/vendors/check/NOBODY',
      '/v/DEMO-1',
      '/api/shop/boot?vendor=DEMO-1',
    ]) {
      const res = await shop.get(path).set('Accept-Language', 'en');
      assert.equal(res.status, 429, path);
      if (path.startsWith('/v/')) {
        // The customer who scanned a badge gets a page in their language, not JSON.
        assert.match(res.headers['content-type'], /^text\/html/, path);
        assert.match(res.text, /Please wait a minute, then reload the page/, path);
      } else {
        assert.equal(res.body.message, refusal, path);
      }
      assert.match(res.headers['retry-after'], /^([1-9]|[1-5]\d|60)$/, path);
    }
    assert.match(
      (await shop.get('/v/DEMO-1')).text,
      /Bitte warten Sie eine Minute/,
      'German without a language preference',
    );
    // What needs no look-up stays open: the shop without a vendor, the settings.
    assert.equal((await shop.get('/api/shop/boot')).status, 200);
    assert.equal((await shop.get('/api/settings')).status, 200);
  });

  it('gives each of PROCESS_COUNT processes its share of the limit, so all of them together allow the limit', async () => {
    // Two processes (apps), one client whose requests a balancer spreads over both.
    const first = app({ vendorCheckRateLimit: 4, processCount: 2 });
    const second = app({ vendorCheckRateLimit: 4, processCount: 2 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await check(first)).status, (await check(second)).status);
    assert.deepEqual(answers, [200, 200, 200, 200, 429, 429, 429, 429]);
    assert.equal(
      await t
        .db('rate_limits')
        .count({ n: '*' })
        .first()
        .then((row) => Number(row?.n)),
      0,
      'no write',
    );
    assert.equal(loadConfig({}).processCount, 1);
    assert.equal(loadConfig({ PROCESS_COUNT: '4' }).processCount, 4);
  });

  it('refills a client’s bucket evenly over the minute and forgets full ones', () => {
    let now = 0;
    const buckets = new TokenBuckets(2, () => now);
    assert.deepEqual([buckets.take('a'), buckets.take('a'), buckets.take('a')], [0, 0, 30]);
    now += 30_000;
    assert.deepEqual([buckets.take('a'), buckets.take('a')], [0, 30]);
    assert.equal(buckets.take('b'), 0, 'another client has its own');
    now += 10 * 60_000;
    assert.equal(buckets.take('c'), 0, 'a sweep keeps working');
    assert.equal(perProcess(120, 4), 30);
    assert.equal(perProcess(3, 8), 1, 'at least one look-up a minute');
  });

  it('does not let a client escape the limit with a forged X-Forwarded-For', async () => {
    const shop = app();
    const answers = [];
    for (let i = 1; i <= 5; i++) answers.push((await check(shop, `203.0.113.${i}`)).status);
    assert.deepEqual(answers, [200, 200, 200, 429, 429], 'counted by the socket’s address');
  });

  it('counts by the forwarded address behind a trusted proxy, and never by what the client wrote left of it', async () => {
    const behindProxy = app({ trustProxy: ['127.0.0.0/8', '::1'] });
    for (let i = 0; i < 3; i++) assert.equal((await check(behindProxy, '198.51.100.7')).status, 200);
    assert.equal((await check(behindProxy, '198.51.100.7')).status, 429, 'one client behind the proxy');
    assert.equal((await check(behindProxy, '198.51.100.8')).status, 200, 'another client behind the same proxy');
    // A client sends its own X-Forwarded-For; the proxy appends the address it saw.
    assert.equal(
      (await check(behindProxy, '198.51.100.8, 198.51.100.7')).status,
      429,
      'the forged entry is not believed',
    );
    // Proxies in a chain (both trusted) are walked past to the client.
    assert.equal((await check(behindProxy, '198.51.100.9, 127.0.0.2')).status, 200);
    assert.equal((await check(behindProxy, '198.51.100.8')).status, 200, '198.51.100.8 was counted once');
  });

  it('counts an IPv6 network by its /64 (RATE_LIMIT_IPV6_PREFIX), so a client cannot hop through its addresses', async () => {
    const behindProxy = app({ trustProxy: ['127.0.0.1', '::1'] });
    const answers = [];
    for (const address of [
      '2001:db8:5:6::1',
      '2001:db8:5:6:a:b:c:d',
      '2001:db8:5:6:ffff:ffff:ffff:ffff',
      '2001:db8:5:6::2',
    ]) {
      answers.push((await check(behindProxy, address)).status);
    }
    assert.deepEqual(answers, [200, 200, 200, 429]);
    assert.equal((await check(behindProxy, '2001:db8:5:7::1')).status, 200, 'the next /64 is another client');

    const by56 = app({ trustProxy: ['127.0.0.1', '::1'], ipv6Prefix: 56 });
    const answers56 = [];
    for (const address of ['2001:db8:5:7::2', '2001:db8:5:8::2', '2001:db8:5:9::2', '2001:db8:5:a::2'])
      answers56.push((await check(by56, address)).status);
    assert.deepEqual(answers56, [200, 200, 200, 429], 'one client per /56');
    assert.equal(loadConfig({}).ipv6Prefix, 64);
    assert.equal(loadConfig({ RATE_LIMIT_IPV6_PREFIX: '48' }).ipv6Prefix, 48);
    assert.throws(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: '129' }), /RATE_LIMIT_IPV6_PREFIX must be 1 to 128/);
  });

  it('falls back to the proxy’s own address when the forwarded one is garbage', async () => {
    const behindProxy = app({ trustProxy: ['127.0.0.1', '::1'] });
    for (let i = 0; i < 2; i++) assert.equal((await check(behindProxy, "1' or '1'='1")).status, 200);
    assert.equal((await check(behindProxy)).status, 200);
    assert.equal((await check(behindProxy, '198.51.100.20')).status, 200, 'a real address is its own client');
    assert.equal((await check(behindProxy)).status, 429, 'garbage and the proxy itself are one client');
  });

  it('reads VENDOR_CHECK_RATE_LIMIT and TRUST_PROXY, refusing entries that are no address or range', () => {
    assert.equal(loadConfig({}).vendorCheckRateLimit, 120);
    assert.deepEqual(loadConfig({}).trustProxy, []);
    assert.equal(loadConfig({ VENDOR_CHECK_RATE_LIMIT: '10' }).vendorCheckRateLimit, 10);
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.10 ,fd00::/8' }).trustProxy, [
      '10.0.0.0/8',
      '192.168.1.10',
      'fd00::/8',
    ]);
    for (const wrong of ['loopback', '10.0.0.0/33', '10.0.0.1/', '*', '10.0.0.0/8/1']) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: wrong }),
        /TRUST_PROXY must list IP addresses or ranges like 10\.0\.0\.0\/8/,
        wrong,
      );
    }
  });
});

describeApi('rate limit of new orders, shared through the database', (t) => {
  it('counts the orders of two app instances together and refuses with 429 beyond ORDER_RATE_LIMIT', async function () {
    this.timeout(30_000);
    const shops = [
      await listenShop(t, () => ({ orderRateLimit: 1 })),
      await listenShop(t, () => ({ orderRateLimit: 1 })),
    ];
    try {
      const order = { vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }] };
      const { before, placed, refused, after } = await inOneMinute(t.db, async () => {
        const before = Number((await t.db('orders').count({ n: '*' }))[0].n);
        const placed = await shops[0].http.post('/api/orders').send(order);
        const refused = await shops[1].http.post('/api/orders').send(order);
        return { before, placed, refused, after: Number((await t.db('orders').count({ n: '*' }))[0].n) };
      });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.message, 'Too many orders from this connection. Please wait a minute and try again.');
      assert.equal(after, before + 1, 'the refused order was not stored');
    } finally {
      await Promise.all(shops.map((shop) => shop.close()));
    }
  });

  it('stores exactly ORDER_RATE_LIMIT of 100 orders sent at once by one client, and refuses the rest in German', async function () {
    this.timeout(60_000);
    const shop = await listenShop(t, () => ({ orderRateLimit: 5 }));
    try {
      const order = { vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }] };
      const { before, answers } = await inOneMinute(t.db, async () => ({
        before: Number((await t.db('orders').max({ id: 'id' }))[0].id ?? 0),
        answers: await Promise.all(
          Array.from({ length: 100 }, () => shop.http.post('/api/orders').set('Accept-Language', 'de').send(order)),
        ),
      }));
      const statuses = answers.map((res) => res.status);
      assert.equal(statuses.filter((status) => status === 201).length, 5, statuses.join(' '));
      assert.equal(statuses.filter((status) => status === 429).length, 95, statuses.join(' '));
      const refused = answers.find((res) => res.status === 429)!;
      assert.equal(
        refused.body.message,
        'Zu viele Bestellungen von dieser Verbindung. Bitte eine Minute warten und es dann noch einmal versuchen.',
      );
      const stored = await t.db('orders').where('id', '>', before).select('id');
      assert.equal(stored.length, 5, 'only the allowed ones stored');
      // Each with its entry: the order and its entries are stored by one statement.
      const entries = await t
        .db('order_entries')
        .whereIn(
          'order_id',
          stored.map((row) => row.id),
        )
        .select('order_id');
      assert.equal(new Set(entries.map((row) => row.order_id)).size, 5);
      assert.equal(entries.length, 5);
      assert.equal(Number((await t.db('rate_limits').sum({ n: 'requests' }))[0].n), 100, 'every order counted');
    } finally {
      await shop.close();
    }
  });
});
