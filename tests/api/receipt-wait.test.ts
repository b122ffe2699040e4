import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../api/src/app.ts';
import { createDb, type Db } from '../../api/src/db/connection.ts';
import { longestWaitSeconds, recheckMs, waitingPerOrder } from '../../api/src/orders/changes.ts';
import { stopSandboxDeliveries } from '../../api/src/stripe/sandbox/webhooks.ts';
import { startServer, type RunningServer } from '../e2e/server.ts';
import { describeApi } from '../support/env.ts';
import { mainItemOrder, placeOrder } from '../e2e/purchase.ts';
import { itemId, placeMainOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The success page waits on the server for its payment's booking (`?wait=<seconds>`): the
// booking answers the waiting request at once, in this process and, by re-reading, from another.

type PlacedOrder = Awaited<ReturnType<typeof placeMainOrder>>;

/** The receipt, asked with a wait, and how long it took to answer. */
async function waitedReceipt(base: string, path: string) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { 'Accept-Language': 'en' } });
  return {
    status: res.status,
    body: (await res.json()) as { status: string; message?: string },
    ms: performance.now() - started,
  };
}

/**
 * Resolves once the app has sent `count` reads of a receipt (by its token) to the database from now
 * on. A read sent before a payment's booking began finds the order pending, and its request then
 * waits: the booking is several requests to the sandbox and a transaction away.
 */
function receiptReads(db: Db, count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const read = (query: { sql: string }) => {
      if (!/where o\.token = /.test(query.sql) || ++seen < count) return;
      db.off('query', read);
      resolve();
    };
    db.on('query', read);
  });
}

describeApi('the receipt waits for the payment’s booking (long polling)', (t) => {
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000 }));
  });
  after(() => shop.close());

  for (const [asker, path] of [
    ['the receipt', (order: PlacedOrder) => `/api/orders/${order.token}`],
    [
      'the success page’s verify call',
      (order: PlacedOrder) => `/api/orders/verify?order=${order.token}&session_id=${order.sessionId}`,
    ],
  ] as const) {
    it(`answers ${asker} "paid" in the one request that waited, as soon as the sandbox’s webhook booked the payment`, async () => {
      const order = await placeMainOrder(shop, t.db);
      const separator = path(order).includes('?') ? '&' : '?';
      const waiting = waitedReceipt(shop.url, `${path(order)}${separator}wait=${longestWaitSeconds}`);
      await payInSandbox(shop.url, order.checkoutUrl);
      const receipt = await waiting;
      assert.equal(receipt.status, 200);
      assert.equal(receipt.body.status, 'paid');
    });
  }

  it('answers a waiting receipt from the booking that woke it, reading the order again only for a digital edition’s download link', async () => {
    const reads: string[] = [];
    const count = (query: { sql: string }) => {
      if (/where o\.token = /.test(query.sql)) reads.push(query.sql);
    };
    const waitedPurchase = async (order: { token: string; checkoutUrl: string }) => {
      reads.length = 0;
      t.db.on('query', count);
      try {
        const read = receiptReads(t.db, 1);
        const waiting = waitedReceipt(shop.url, `/api/orders/${order.token}?wait=${longestWaitSeconds}`);
        // Paid once the receipt has read its order, so it waits.
        await read;
        await payInSandbox(shop.url, order.checkoutUrl);
        return {
          receipt: (await waiting).body as { status: string; paidAt: string; downloads: unknown[] },
          reads: reads.length,
        };
      } finally {
        t.db.off('query', count);
      }
    };
    const printed = await waitedPurchase(await placeMainOrder(shop, t.db));
    assert.equal(printed.receipt.status, 'paid');
    const stored = await t.db('orders').where({ status: 'paid' }).orderBy('id', 'desc').first('paid_at');
    assert.equal(printed.receipt.paidAt, stored.paid_at.toISOString());
    assert.deepEqual(printed.receipt.downloads, []);
    assert.equal(printed.reads, 1, 'read once, before the wait');

    const digital = await waitedPurchase(
      await placeOrder(shop.url, {
        vendor: 'DEMO-1',
        entries: [{ item: await itemId(t.db, 'Digitale Ausgabe'), quantity: 1 }],
        tip: 0,
        email: 'reader@example.org',
      }),
    );
    assert.equal(digital.receipt.status, 'paid');
    assert.equal(digital.receipt.downloads.length, 1, 'the link the booking made');
    assert.equal(digital.reads, 2);
  });

  it('lets at most a few requests wait for one order: more answer at once, so one order cannot take every waiting place', async () => {
    const order = await placeMainOrder(shop, t.db);
    const asks = await Promise.all(
      Array.from({ length: waitingPerOrder + 3 }, () => waitedReceipt(shop.url, `/api/orders/${order.token}?wait=2`)),
    );
    assert.ok(asks.every((ask) => ask.status === 200 && ask.body.status === 'pending'));
    const waited = asks.filter((ask) => ask.ms >= 1900).length;
    assert.equal(waited, waitingPerOrder, `answer times: ${asks.map((ask) => ask.ms.toFixed(0)).join(', ')} ms`);
  });

  it('ends the wait of a customer who left: their waiting places are free again at once', async () => {
    const order = await placeMainOrder(shop, t.db);
    const path = `${shop.url}/api/orders/${order.token}?wait=${longestWaitSeconds}`;
    // Every waiting place of the order taken, then each customer closes the page.
    const leaving = Array.from({ length: waitingPerOrder }, () => new AbortController());
    const read = receiptReads(t.db, waitingPerOrder);
    const left = leaving.map((customer) => fetch(path, { signal: customer.signal }).catch(() => 'left'));
    // Each has sent its read; a receipt asked after that and answered means they have their answers
    // too, and wait.
    await read;
    await fetch(`${shop.url}/api/orders/${order.token}`);
    for (const customer of leaving) customer.abort();
    assert.deepEqual(await Promise.all(left), Array(waitingPerOrder).fill('left'));
    // Once the server has seen each of them close, it has given up their waiting places.
    await shop.idle();
    // Were their places still taken, this request would answer at once instead of waiting its 2 s.
    const next = await waitedReceipt(shop.url, `/api/orders/${order.token}?wait=2`);
    assert.equal(next.body.status, 'pending');
    assert.ok(next.ms >= 1900, `answered after ${next.ms.toFixed(0)} ms of a 2 s wait`);
  });

  it('answers "pending" once the wait is over when nothing was paid, and at once without a wait', async () => {
    const order = await placeMainOrder(shop, t.db);
    const waited = await waitedReceipt(shop.url, `/api/orders/${order.token}?wait=2`);
    assert.equal(waited.body.status, 'pending');
    assert.ok(waited.ms >= 1900, `answered after ${waited.ms.toFixed(0)} ms of a 2 s wait`);
    const atOnce = await t.http.get(`/api/orders/${order.token}`);
    assert.equal(atOnce.body.status, 'pending');
  });

  it('refuses a wait that is not a whole number of seconds, in the reader’s language', async () => {
    const order = await placeMainOrder(shop, t.db);
    for (const wait of ['-1', '1.5', 'soon', '1e3', '9999999']) {
      const en = await t.http.get(`/api/orders/${order.token}?wait=${encodeURIComponent(wait)}`);
      assert.equal(en.status, 400, `wait=${wait}`);
      assert.equal(en.body.message, '"wait" must be a whole number of seconds.');
    }
    const de = await t.http.get(`/api/orders/${order.token}?wait=soon`).set('Accept-Language', 'de');
    assert.equal(de.body.message, '„wait“ muss eine ganze Zahl von Sekunden sein.');
    const twice = await t.http.get(`/api/orders/${order.token}?wait=1&wait=2`);
    assert.equal(twice.status, 400);
  });

  it('a payment booked by another process reaches a receipt waiting here within about a second', async function () {
    // Two processes on one PostgreSQL: a second app on a connection pool of its own, so nothing in
    // this process tells the waiting request; only its re-reading finds the booking.
    if (t.engine !== 'postgres') return this.skip();
    const { rows } = await t.db.raw<{ rows: { schema: string }[] }>('select current_schema() as schema');
    const other: Db = createDb({ databaseUrl: t.config.databaseUrl, dataDir: '', schema: rows[0].schema });
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = { ...t.config, publicUrl: url, orderRateLimit: 10_000 };
    const handle = buildApp({ db: other, config }).callback();
    server.on('request', (req, res) => void handle(req, res));
    try {
      const order = await placeOrder(url, await mainItemOrder(url, 'DEMO-2'));
      const waiting = waitedReceipt(shop.url, `/api/orders/${order.token}?wait=${longestWaitSeconds}`);
      // Paid on the other process's sandbox page: its webhook books the payment there.
      await payInSandbox(url, order.checkoutUrl);
      const receipt = await waiting;
      assert.equal(receipt.body.status, 'paid');
      assert.ok(
        receipt.ms < longestWaitSeconds * 1000 - 3 * recheckMs,
        `answered after ${receipt.ms.toFixed(0)} ms, not long after the booking`,
      );
    } finally {
      stopSandboxDeliveries(config);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await other.destroy();
    }
  });
});

describe('the server stopping while receipts wait (long polling)', function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await startServer({ env: { ORDER_RATE_LIMIT: '10000' } });
  });
  after(() => server.stop());

  it('answers a waiting receipt at once on SIGTERM and stops without waiting for its connection, so a deploy is not held up', async () => {
    const { token: order } = await placeOrder(server.url, await mainItemOrder(server.url, 'DEMO-1'));
    const waiting = waitedReceipt(server.url, `/api/orders/${order}?wait=${longestWaitSeconds}`);
    // Sent before a request that has been answered, so it is waiting at the server by then.
    await fetch(`${server.url}/api/orders/${order}`);
    const stopped = server.stop();
    // The answer comes from the wake-up on SIGTERM: the wait itself runs 10 s, and the server's last
    // resort, closing every connection 5 s after SIGTERM, would end the request without an answer.
    const receipt = await waiting;
    assert.equal(receipt.status, 200);
    assert.equal(receipt.body.status, 'pending');
    assert.equal(await stopped, 0);
    // How soon it stops with a receipt waiting (not after the last resort's 5 s) is a figure of
    // `npm run bench -- purchases`: "stop with a receipt waiting".
  });
});
