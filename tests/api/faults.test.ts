import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/foundations/config.ts';
import { createDb, migrate, type Db } from '../../api/src/db/connection.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { capturedLog } from '../support/log.ts';
import { reconcilePending } from '../../api/src/orders/reconcile.ts';
import { testIssuer } from '../support/env.ts';
import { resetDatabase } from '../support/reset.ts';
import { assertBalanced, bookedRows, eventually, itemId, vendorId } from '../support/orders.ts';
import { noFeeCard, sell } from '../support/sales.ts';
import { payInSandbox } from '../support/sandbox.ts';
import type { ListeningShop } from '../support/shop-server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

// Faults, the database half (tests/api/stripe-outage.test.ts is the Stripe half): the API reaches PostgreSQL through a TCP proxy that the test cuts
// in the middle of a purchase, of the booking a webhook makes, and of a payout. Every such request
// fails with a 503 a person understands; a direct connection then finds no half-written order,
// booking or payout; and the same app instance works again as soon as the database is back.
// "Stripe" is the sandbox of a second app on a direct connection, as the real Stripe does not go
// down with our database. The whole suite runs in mocha's process: an 'error' event of pg that
// nobody handles would end the run here.

const databaseUrl = process.env.TEST_DATABASE_URL;
const schema = `faults_${process.pid}`;
/** Masked in every log line: the test's server takes no password, so any value connects. */
const password = 'faults-secret-password';
/** Names the shop's connections in pg_stat_activity. */
const applicationName = 'faults-shop';
const unreachable = 'The database cannot be reached right now. Please try again in a moment.';

/** A loopback server whose app is attached once every address is known; counts the webhook deliveries it receives. */
async function loopback() {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served = {
    url,
    http: supertest.agent(url).set('Accept-Language', 'en'),
    webhooks: 0,
    serve(app: ReturnType<typeof buildApp>) {
      const handle = app.callback();
      server.on('request', (req, res) => {
        if (req.url?.startsWith('/api/webhooks/stripe')) served.webhooks++;
        void handle(req, res);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return served;
}

/** What must hold after any cut, read over a direct connection. */
async function assertNothingHalfWritten(direct: Db): Promise<void> {
  const count = async (sql: string) =>
    (await direct.raw<{ rows: { n: number }[] }>(`select count(*)::int as n from (${sql}) as broken`)).rows[0].n;
  assert.equal(
    await count(`select o.id from orders o where not exists (select 1 from order_entries e where e.order_id = o.id)`),
    0,
    'orders without entries',
  );
  assert.equal(
    await count(
      `select o.id from orders o where o.amount_total <> (select coalesce(sum(e.amount), 0) from order_entries e where e.order_id = o.id and e.kind <> 'licence')`,
    ),
    0,
    'orders whose entries do not add up to their total',
  );
  assert.equal(
    await count(
      `select r.id from ledger_rows r join orders o on o.id = r.order_id where o.status not in ('paid', 'refunded')`,
    ),
    0,
    'ledger rows of an order that is not paid',
  );
  assert.equal(
    await count(
      `select o.id from orders o where o.status in ('paid', 'refunded') and not exists (select 1 from ledger_rows r where r.order_id = o.id and r.kind = 'sale')`,
    ),
    0,
    'paid orders without their booking',
  );
  assert.equal(
    await count(
      `select p.id from payouts p where not exists (select 1 from ledger_rows r where r.payout_id = p.id and r.kind = 'payout')`,
    ),
    0,
    'payouts without their cash row',
  );
  // Every row a payout stamped, signed from the vendor's side, adds up to the payout: no half stamping.
  assert.equal(
    await count(`
      select p.id from payouts p join ledger_accounts a on a.vendor_id = p.vendor_id and a.kind = 'vendor'
      where p.amount <> (
        select coalesce(sum(case when r.receiver_id = a.id then r.amount when r.sender_id = a.id then -r.amount else 0 end), 0)
        from ledger_rows r where r.payout_id = p.id and r.kind <> 'payout')`),
    0,
    'payouts whose stamped rows do not add up to them',
  );
  await assertBalanced(direct);
}

/** Lines the app logs while `action` runs, parsed. */
const logLines = async (action: () => Promise<unknown>): Promise<Record<string, unknown>[]> =>
  (await capturedLog(action)).map((line) => JSON.parse(line));

(databaseUrl ? describe : describe.skip)(
  `faults: the database connection cut during purchases, webhooks and payouts [postgres]${databaseUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`,
  () => {
    let direct: Db;
    let proxied: Db;
    let proxy: TcpProxy;
    let shop: Awaited<ReturnType<typeof loopback>>;
    let stripe: Awaited<ReturnType<typeof loopback>>;
    let shopConfig: Config;
    let office = '';

    before(async function () {
      this.timeout(60_000);
      const admin = createDb({ databaseUrl, dataDir: '' });
      await admin.raw(`drop schema if exists ${schema} cascade; create schema ${schema}`);
      await admin.destroy();
      direct = createDb({ databaseUrl, dataDir: '', schema });
      await migrate(direct);

      const target = new URL(databaseUrl!);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) || 5432 });
      const throughProxy = new URL(proxy.via(databaseUrl!));
      throughProxy.password = password;
      throughProxy.searchParams.set('application_name', applicationName);
      proxied = createDb({ databaseUrl: throughProxy.href, dataDir: '', schema });

      const issuer = await testIssuer();
      office = `Bearer ${await issuer.mint({ groups: ['backoffice'], preferred_username: 'office' })}`;
      const base = loadConfig({
        ...process.env,
        PORT: '0',
        OIDC_ISSUER: issuer.issuer,
        OIDC_AUDIENCE: issuer.audience,
        DATABASE_URL: throughProxy.href,
        DATA_DIR: 'memory://',
        ORDER_RATE_LIMIT: '10000',
        // Eight webhook attempts within about 2.5 s, so a test can watch them all fail.
        SANDBOX_WEBHOOK_RETRY_MS: '20',
        // The fee with the payment: these tests cut the database, not Stripe's timing.
        SANDBOX_FEE_DELAY_MS: '0',
      });
      shop = await loopback();
      stripe = await loopback();
      shopConfig = { ...base, publicUrl: shop.url, stripe: { ...base.stripe, apiUrl: stripe.url } };
      shop.serve(buildApp({ db: proxied, config: shopConfig }));
      // Stripe's customers and webhooks go to the shop, like Stripe's own.
      stripe.serve(buildApp({ db: direct, config: { ...base, databaseUrl, publicUrl: shop.url } }));
    });

    after(async () => {
      await proxy?.close();
      await shop?.close();
      await stripe?.close();
      await proxied?.destroy();
      await direct?.destroy();
      const admin = createDb({ databaseUrl, dataDir: '' });
      await admin.raw(`drop schema if exists ${schema} cascade`);
      await admin.destroy();
    });

    beforeEach(async () => {
      await proxy.restore();
      await resetDatabase(direct);
    });

    const order = async (vendor = 'DEMO-1') =>
      shop.http
        .post('/api/orders')
        .send({ vendor, entries: [{ item: await itemId(direct, 'Zeitung'), quantity: 1 }], tip: 100 });

    const assertUnreachable = (res: supertest.Response) => {
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.deepEqual(res.body, { message: unreachable });
      assert.equal(res.headers['retry-after'], '5');
    };

    it('a purchase cut while its order and its entries are written: 503 with a message, nothing stored, and the next purchases succeed without a restart', async () => {
      // One statement writes both (orders/place.ts); the cut comes as it reaches the database.
      const cut = proxy.cutOn('insert into order_entries');
      const during = await Promise.all([1, 2, 3, 4, 5, 6].map(() => order()));
      await cut;
      for (const res of during) assertUnreachable(res);
      assert.equal((await direct('orders').count({ n: '*' }))[0].n, 0, 'no order was kept');

      // While the database is away every request fails the same way, and /readyz says so.
      assertUnreachable(await order());
      assertUnreachable(await shop.http.get('/api/vendors/').set('Authorization', office));
      assert.equal((await shop.http.get('/readyz')).status, 503);

      await proxy.restore();
      assert.equal((await shop.http.get('/readyz')).status, 200, 'ready again at once');
      const after = await Promise.all([1, 2, 3, 4, 5, 6].map(() => order()));
      assert.deepEqual(
        after.map((res) => res.status),
        [201, 201, 201, 201, 201, 201],
      );
      const stored = await direct('orders').select('status', 'stripe_session_id');
      assert.equal(stored.length, 6);
      assert.ok(
        stored.every((o) => o.status === 'pending' && o.stripe_session_id),
        'each has its Checkout Session',
      );
      await assertNothingHalfWritten(direct);
    });

    it('the server ends the shop’s idle connections (a restart or failover): the process lives on and the next requests get fresh ones', async () => {
      const vendors = () => shop.http.get('/api/vendors/').set('Authorization', office);
      await Promise.all([vendors(), vendors(), vendors()]);
      const ended = await direct.raw<{ rows: unknown[] }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = ? and state = 'idle'`,
        [applicationName],
      );
      assert.ok(ended.rows.length > 0, 'the pool kept idle connections to end');
      // pg reports the termination to each idle client as an 'error' event; unhandled, it would end this process.
      await eventually(() => Promise.resolve(proxy.open === 0), 'the connections are closed');
      const answers = await Promise.all([vendors(), vendors(), vendors()]);
      assert.deepEqual(
        answers.map((res) => res.status),
        [200, 200, 200],
      );
    });

    it('logs an outage once per request, without the database password', async () => {
      await proxy.cut();
      let res: supertest.Response | undefined;
      const lines = await logLines(async () => {
        res = await shop.http.get('/api/vendors/').set('Authorization', office);
      });
      assertUnreachable(res!);
      const besideAccessLog = lines.filter((line) => line.msg !== 'request');
      assert.deepEqual(
        besideAccessLog.map((line) => [line.level, line.msg, line.requestId]),
        [['warn', 'database unreachable', res!.headers['x-request-id']]],
      );
      assert.equal(besideAccessLog[0].stack, undefined);
      assert.ok(!JSON.stringify(lines).includes(password), 'the password is in no log line');
    });

    it('the webhook’s booking cut mid-way: nothing booked; the sandbox delivers again once the database is back; paid and booked once', async () => {
      const placed = await order();
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const { id } = await direct('orders').where({ token: placed.body.order }).first('id');

      // After the ledger rows are written, at the statement that marks the order paid. A prepared
      // statement (hotRows) sends its text only once per connection, its values each time: the
      // protocol entry's action, written by the same statement, is one of them.
      const cut = proxy.cutOn('payment.confirmed');
      await payInSandbox(stripe.url, placed.body.checkoutUrl);
      await cut;
      const cutAt = shop.webhooks;
      assert.equal((await direct('orders').where({ id }).first('status')).status, 'pending');
      assert.deepEqual(await bookedRows(direct, id), [], 'the booking was rolled back');
      await assertNothingHalfWritten(direct);

      await proxy.restore();
      await eventually(
        async () => (await direct('orders').where({ id }).first('status')).status === 'paid',
        'a later delivery books the order',
      );
      assert.ok(shop.webhooks > cutAt, 'by a retried delivery');
      assert.deepEqual(
        (await bookedRows(direct, id)).map((row) => row.kind),
        ['sale', 'tip', 'fee', 'fee_cover'],
      );
      assert.equal(
        (await direct('protocol_entries').where({ action: 'payment.confirmed', record_id: String(id) })).length,
        1,
      );
      await assertNothingHalfWritten(direct);
    });

    it('every webhook lost while the database is away: the reconciliation job books the order once it is back', async () => {
      const placed = await order();
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const { id } = await direct('orders').where({ token: placed.body.order }).first('id');

      await proxy.cut();
      const before = shop.webhooks;
      await payInSandbox(stripe.url, placed.body.checkoutUrl);
      // The sandbox tries eight times, like Stripe (over three days there, 2.5 s here), then gives up.
      await eventually(() => Promise.resolve(shop.webhooks - before >= 8), 'the sandbox gives up');
      assert.equal((await direct('orders').where({ id }).first('status')).status, 'pending');

      await proxy.restore();
      await direct('orders')
        .where({ id })
        .update({ created_at: direct.raw(`now() - interval '4 minutes'`) });
      assert.deepEqual(await reconcilePending(proxied, shopConfig), [id]);
      assert.equal((await direct('orders').where({ id }).first('status')).status, 'paid');
      assert.deepEqual(
        (await bookedRows(direct, id)).map((row) => row.kind),
        ['sale', 'tip', 'fee', 'fee_cover'],
      );
      await assertNothingHalfWritten(direct);
    });

    it('a payout cut while it stamps the settled rows: 503, no payout, the credit still open; paid once when retried', async () => {
      await sell({ url: stripe.url, http: shop.http } as ListeningShop, direct, {
        vendor: 'DEMO-2',
        tip: 100,
        card: noFeeCard,
      });
      const vendor = await vendorId(direct, 'DEMO-2');
      const payOut = () =>
        shop.http
          .post('/api/payments/payout/')
          .set('Authorization', office)
          .send({ vendor: 'DEMO-2', expectedAmount: 400 });

      const cut = proxy.cutOn('update "ledger_rows" set "payout_id"');
      assertUnreachable(await payOut());
      await cut;
      assert.equal((await direct('payouts').count({ n: '*' }))[0].n, 0, 'no payout');
      assert.equal((await direct('ledger_rows').whereNotNull('payout_id').count({ n: '*' }))[0].n, 0, 'no row stamped');
      assert.equal((await vendorAccountSummary(direct, vendor)).credit, 400, 'the credit is still open');
      await assertNothingHalfWritten(direct);

      await proxy.restore();
      const paid = await payOut();
      assert.equal(paid.status, 201, JSON.stringify(paid.body));
      assert.equal(paid.body.amount, 400);
      assert.equal((await payOut()).status, 409, 'nothing left to pay twice');
      assert.equal((await direct('payouts').where({ vendor_id: vendor }).count({ n: '*' }))[0].n, 1);
      assert.equal((await vendorAccountSummary(direct, vendor)).credit, 0);
      await assertNothingHalfWritten(direct);
    });
  },
);
