import assert from 'node:assert/strict';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { assertBalanced, balanceOf, eventually, itemId, signedEvent, vendorId } from '../support/orders.ts';
import { Browser, exchangeCode, loginWithPkce, openLoginPage, tokenRequest } from '../support/oidc-flow.ts';
import { startCluster, type Cluster } from '../support/processes.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { smtpServer } from '../support/smtp.ts';

/**
 * two API processes on one PostgreSQL behind a round-robin
 * balancer. Purchases, webhooks, receipts, payouts, the reconciliation job and logins run across
 * both, and the database shows every order booked once and every payout made once.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const suite = adminUrl ? describe : describe.skip;

suite(`two API processes on one PostgreSQL${adminUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`, function () {
  // Two servers and a sandbox on a 2-core machine that runs another test lane beside them: generous.
  this.timeout(180_000);
  const vendors = ['DEMO-1', 'DEMO-2', 'DEMO-3'];
  const purchases = 18;
  let cluster: Cluster;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let office: string;

  /** A JSON call: GET, or POST when there is a body. */
  const call = async (base: string, path: string, init: { body?: unknown; token?: string } = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  before(async function () {
    smtp = await smtpServer();
    cluster = await startCluster(adminUrl!, `scale_${process.pid}`, {
      env: { ORDER_RATE_LIMIT: '100000', RECONCILE_INTERVAL_SECONDS: '1', SMTP_URL: smtp.url },
    });
    office = (await loginWithPkce(cluster.url, 'office', 'office')).access_token;
  });

  after(async () => {
    await cluster?.stop();
    await smtp?.close();
  });

  it('logs in starting on one process and finishing on the other; the token works on both', async () => {
    const [a, b] = cluster.servers;
    const redirectUri = `${cluster.url}/backoffice/auth-callback`;
    // Authorize on A; the login page's steps go through the balancer, the code is redeemed on B.
    const page = await openLoginPage(a.url, { redirectUri }, new Browser(cluster.url));
    const { code } = await page.submit('office', 'office');
    assert.ok(code, 'the login gave no code');
    const tokens = await exchangeCode(b.url, code, page.pkce.verifier, redirectUri);
    for (const server of cluster.servers) {
      const vendorsList = await call(server.url, '/api/vendors/', { token: tokens.access_token });
      assert.equal(vendorsList.status, 200, `back office on ${server.url}: ${JSON.stringify(vendorsList.body)}`);
    }
    // The refresh token B issued renews on A, and once used it is spent on B too.
    const renewed = await tokenRequest(a.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    const reused = await tokenRequest(b.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
  });

  it('redeems a code or a refresh token once when both processes are asked at the same time', async () => {
    const [a, b] = cluster.servers;
    const page = await openLoginPage(cluster.url);
    const { code } = await page.submit('office', 'office');
    assert.ok(code, 'the login gave no code');
    const form = {
      grant_type: 'authorization_code',
      code,
      code_verifier: page.pkce.verifier,
      redirect_uri: page.redirectUri,
    };
    const redeemed = await Promise.all([a, b].map((server) => tokenRequest(server.url, form)));
    assert.deepEqual(
      redeemed.map((r) => r.status).sort(),
      [200, 400],
      JSON.stringify(redeemed.map((r) => r.body.error)),
    );
    assert.equal(redeemed.find((r) => r.status === 400)!.body.error, 'invalid_grant');

    const tokens = await loginWithPkce(cluster.url, 'office', 'office');
    const renewals = await Promise.all(
      [a, b].map((server) =>
        tokenRequest(server.url, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
      ),
    );
    assert.deepEqual(
      renewals.map((r) => r.status).sort(),
      [200, 400],
      JSON.stringify(renewals.map((r) => r.body.error)),
    );
  });

  it('counts failed logins on both processes together', async () => {
    const throttleRules = loadConfig({}).loginThrottle;
    const username = `nobody-${process.pid}`;
    const redirectUri = `${cluster.url}/backoffice/auth-callback`;
    // The login page and its form on one process (relative links stay there), the next attempt on the other.
    const loginOn = (n: number) => {
      const server = cluster.servers[n % cluster.servers.length];
      return openLoginPage(server.url, { redirectUri }, new Browser(server.url));
    };
    for (let n = 0; n < throttleRules.perPair; n++) {
      const failed = await (await loginOn(n)).submit(username, 'wrong');
      assert.equal(failed.status, 200, 'a wrong password shows the form again');
      assert.equal(failed.code, undefined);
    }
    for (let n = 0; n < cluster.servers.length; n++) {
      const locked = await (await loginOn(n)).submit(username, 'wrong');
      assert.equal(locked.status, 429, `attempt after ${throttleRules.perPair} failures: ${locked.html.slice(0, 300)}`);
    }
  });

  it('books every order and sends every mail once while webhooks, duplicates, verify and receipt calls race across both', async () => {
    const { db } = cluster;
    const zeitung = await itemId(db, 'Zeitung');
    const digital = await itemId(db, 'Digitale Ausgabe');
    // Every third order is a digital edition with an e-mail address: its links go out by mail.
    const reader = (n: number) => (n % 3 === 0 ? `reader-${n}@example.org` : undefined);
    const buy = async (n: number) => {
      const vendor = vendors[n % vendors.length];
      const entries = [{ item: zeitung, quantity: 1 }, ...(reader(n) ? [{ item: digital, quantity: 1 }] : [])];
      const placed = await call(cluster.url, '/api/orders', {
        body: { vendor, entries, tip: 100 + n, email: reader(n) },
      });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const token = placed.body.order as string;
      const success = new URL(await payInSandbox(cluster.url, placed.body.checkoutUrl));
      const sessionId = success.searchParams.get('session_id')!;
      const { id } = await db('orders').where({ token }).first('id');
      // The sandbox's own webhook goes through the balancer; this copy of the event reaches both processes at once.
      const duplicate = signedEvent(
        'checkout.session.completed',
        { id: sessionId, object: 'checkout.session', metadata: { order: String(id) } },
        (await sandboxCredentials(db)).webhookSecret,
      );
      const [verified, ...deliveries] = await Promise.all([
        call(cluster.url, `/api/orders/verify?order=${token}&session_id=${sessionId}`),
        ...cluster.servers.map((server) =>
          fetch(`${server.url}/api/webhooks/stripe`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Stripe-Signature': duplicate.header },
            body: duplicate.payload,
          }),
        ),
      ]);
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.status, 'paid');
      assert.deepEqual(
        deliveries.map((d) => d.status),
        [200, 200],
      );
      const receipt = await call(cluster.url, `/api/orders/${token}`);
      assert.equal(receipt.body.status, 'paid');
      return id as number;
    };
    const bought = await Promise.all(Array.from({ length: purchases }, (_, n) => buy(n)));

    // Every sandbox webhook has arrived and been handled (besides the duplicates sent above).
    const completedEvents = () =>
      db('stripe_events')
        .where({ type: 'checkout.session.completed' })
        .whereNotNull('processed_at')
        .count<{ count: number }[]>({ count: '*' });
    await eventually(
      async () => (await completedEvents())[0].count === 2 * purchases,
      'every sandbox webhook processed',
    );
    // The sandbox books each fee a moment after its payment (charge.updated), on either process.
    const withFee = () =>
      db('orders').whereIn('id', bought).where('fee', '>', 0).count<{ count: number }[]>({ count: '*' });
    // Under the other lane's load the fees have been seen to take longer than the default wait.
    await eventually(async () => Number((await withFee())[0].count) === purchases, 'every fee booked', 2400);

    const { orga_covers_transaction_costs: orgaCovers } = await db('settings')
      .where({ id: 1 })
      .first('orga_covers_transaction_costs');
    for (const id of bought) {
      const order = await db('orders').where({ id }).first('status', 'fee');
      assert.equal(order.status, 'paid');
      assert.ok(order.fee > 0, `order ${id} has its fee`);
      // One row per entry (sale, tip, licence share) and one fee (with its cover when the newspaper pays it).
      const entries = (await db('order_entries').where({ order_id: id }).where('amount', '>', 0).select('kind')).map(
        (row) => row.kind as string,
      );
      const expected = [...entries, 'fee', ...(orgaCovers ? ['fee_cover'] : [])].sort();
      const kinds = (await db('ledger_rows').where({ order_id: id }).select('kind'))
        .map((row) => row.kind as string)
        .sort();
      assert.deepEqual(kinds, expected, `ledger rows of order ${id}`);
      const confirmations = await db('protocol_entries')
        .where({ action: 'payment.confirmed', record_type: 'order', record_id: String(id) })
        .count<{ count: number }[]>({ count: '*' });
      assert.equal(confirmations[0].count, 1, `payment.confirmed entries of order ${id}`);
    }
    // Both processes' outbox workers ran after the payments; each mail reached the mail server once.
    const readers = Array.from({ length: purchases }, (_, n) => reader(n))
      .filter((r) => r !== undefined)
      .sort();
    await eventually(
      async () => (await db('outbox').where({ status: 'sent' })).length === readers.length,
      'every mail sent',
    );
    const recipients = smtp.messages.map((message) => /^To: (.*)$/m.exec(message)?.[1]).sort();
    assert.deepEqual(recipients, readers, 'one mail per digital order');
    // Both processes took part: each one received orders and the sandbox's webhooks.
    for (const path of ['/api/orders', '/api/webhooks/stripe']) {
      const backends = new Set(
        cluster.balancer.forwarded.filter((f) => f.method === 'POST' && f.url === path).map((f) => f.backend),
      );
      assert.deepEqual([...backends].sort(), [0, 1], `${path} reached both processes`);
    }
    await assertBalanced(db);
  });

  it('pays out each vendor once when both processes are asked at the same time', async () => {
    const { db } = cluster;
    for (const licenseId of vendors) {
      const vendor = await vendorId(db, licenseId);
      // The credit adds up from the vendor's paid orders: prices and tips, less licence shares and fees, plus covered fees.
      const [{ credit }] = await db('ledger_rows as r')
        .join('orders as o', 'o.id', 'r.order_id')
        .where('o.vendor_id', vendor)
        .select<{ credit: number }[]>(
          db.raw(
            `coalesce(sum(case when r.kind in ('fee', 'licence') then -r.amount else r.amount end), 0)::integer as credit`,
          ),
        );
      const shown = await call(cluster.url, `/api/payments/forpayout?vendor=${licenseId}`, { token: office });
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      assert.equal(shown.body.balance, credit, `credit of ${licenseId}`);
      assert.ok(credit > 0);

      const answers = await Promise.all(
        cluster.servers.map((server) =>
          call(server.url, '/api/payments/payout', {
            body: { vendor: licenseId, expectedAmount: credit },
            token: office,
          }),
        ),
      );
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [201, 409],
        JSON.stringify(answers.map((a) => a.body.message)),
      );
      const refused = answers.find((a) => a.status === 409)!;
      assert.ok(refused.body.message, 'the refusal says why');

      const payouts = await db('payouts').where({ vendor_id: vendor }).select('amount');
      assert.deepEqual(payouts, [{ amount: credit }], `payouts of ${licenseId}`);
      const cashRows = await db('ledger_rows as r')
        .join('payouts as p', 'p.id', 'r.payout_id')
        .where({ 'r.kind': 'payout', 'p.vendor_id': vendor })
        .select('r.amount');
      assert.deepEqual(cashRows, [{ amount: credit }], `payout rows in the ledger for ${licenseId}`);
      assert.equal(await balanceOf(db, 'vendor', vendor), 0, `${licenseId} has nothing open after the payout`);
    }
    await assertBalanced(db);
  });

  it('runs the reconciliation job in one process at a time: each due order is closed at Stripe once', async () => {
    const { db } = cluster;
    const zeitung = await itemId(db, 'Zeitung');
    const placed = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const answer = await call(cluster.url, '/api/orders', {
          body: { vendor: 'DEMO-4', entries: [{ item: zeitung, quantity: 1 }], tip: 0 },
        });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return answer.body.order as string;
      }),
    );
    // Abandoned at the card page ten minutes ago: due for the job, which both processes run every second.
    const orders = await db('orders')
      .whereIn('token', placed)
      .update({
        created_at: db.raw(`now() - interval '10 minutes'`),
        expires_at: db.raw(`now() - interval '1 minute'`),
      })
      .returning(['id', 'stripe_session_id']);
    await eventually(
      async () => (await db('orders').whereIn('token', placed).where({ status: 'expired' })).length === placed.length,
      'the job expired every abandoned order',
    );
    for (const order of orders) {
      const expiries = cluster.balancer.forwarded.filter(
        (f) => f.method === 'POST' && f.url === `/v1/checkout/sessions/${order.stripe_session_id}/expire`,
      );
      assert.equal(
        expiries.length,
        1,
        `Stripe was asked to expire the session of order ${order.id} ${expiries.length} times`,
      );
    }
  });
});
