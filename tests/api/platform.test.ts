import assert from 'node:assert/strict';
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import Koa from 'koa';
import { unzipSync } from 'fflate';
import { pgCode, type Db } from '../../api/src/db/connection.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { parseQrCode } from '../../api/src/fiscal/de/standard-v1.ts';
import type { DeSignature } from '../../api/src/fiscal/port.ts';
import { fiscalSandbox } from '../../api/src/fiscal/sandbox/index.ts';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
import { serialOf, transactionLogMessage } from '../../api/src/fiscal/sandbox/tss.ts';
import { addPaper, findPaper, paperDb, schemaOf, setPaperFiscal } from '../../api/src/platform/papers.ts';
import { platformWebhookSecrets, Stripe, stripeClient } from '../../api/src/stripe/adapter.ts';
import { paperConfig, startPlatform, type Platform } from '../../api/src/platform/serve.ts';
import { reconcilePending } from '../../api/src/orders/reconcile.ts';
import { journalFile } from '../../api/src/accounting/journal.ts';
import { readDatevSettings } from '../../api/src/accounting/datev-settings.ts';
import { trialBalance } from '../../api/src/accounting/trial-balance.ts';
import { localDay, readPeriod } from '../../api/src/foundations/period.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { openDatabase } from '../../api/src/maintenance/open.ts';
import { readBackupLines, restoreBackup } from '../../api/src/maintenance/restore.ts';
import { installationCurrency } from '../../api/src/settings/currency.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { bookPaidOrder } from '../support/books.ts';
import { resolveLocalhostNames } from '../../api/src/startup/localhost-names.ts';
import { preparePaper } from '../../api/src/startup/paper.ts';
import type { Access, RouteDef } from '../../api/src/http/routes.ts';
import { routes } from '../../api/src/routes.ts';
import { plantMarker } from '../support/marker.ts';
import { loginWithPkce } from '../support/oidc-flow.ts';
import { assertBalanced, eventually, itemId, vendorId } from '../support/orders.ts';
import {
  demoPassword,
  nameNewspaper,
  platformDatabase,
  processSlug,
  runPaper as paper,
  type PlatformDatabase,
} from '../support/platform.ts';
import { payInSandbox } from '../support/sandbox.ts';

/**
 * Many papers in one process: papers added to a fresh PostgreSQL database with `npm run paper`, served
 * by one handler that picks the paper by the request's Host. Each answers with its own settings and
 * currency, an unknown host with 404, a suspended paper and one behind the migrations with 503; one
 * paper's logins are refused at the other's host on every route, nothing of the other paper is in
 * any of its answers, and PostgreSQL itself keeps one paper's role out of the other's schema.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const suite = adminUrl ? describe : describe.skip;

suite(`many papers, one process${adminUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`, function () {
  // Each `npm run paper` is a process of its own that opens the database; two seed the demo.
  this.timeout(300_000);
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(processSlug) as [string, string, string, string];
  const secret = 'platform test secret';
  let database: PlatformDatabase;
  let databaseUrl: string;
  let admin: Db;
  let platform: Platform;
  let server: http.Server;
  let port: number;
  let env: NodeJS.ProcessEnv;
  /** The webhook calls the one server took, as `POST <host><path>`, in the order they came. */
  const webhookCalls: string[] = [];
  /** The demo's office and vendor logins of a and b, with the passwords `npm run paper -- add` printed. */
  let passwords: Record<string, { office: string; vendor: string }>;
  const logins = (out: string) => ({ office: demoPassword(out, 'office'), vendor: demoPassword(out, 'vendor') });
  const tokens = new Map<string, Promise<string>>();
  /** The access token of a demo login of paper a or b, logged in once at its own host. */
  const tokenOf = (paper: 'a' | 'b', login: 'office' | 'vendor') => {
    const key = `${paper} ${login}`;
    if (!tokens.has(key))
      tokens.set(
        key,
        loginWithPkce(`http://${paper}.localhost:${port}`, login, passwords[paper][login]).then((t) => t.access_token),
      );
    return tokens.get(key)!;
  };

  /** A GET at the paper's host through the one listening server, as a browser sends it. */
  const get = (host: string, pathname: string, token?: string) =>
    fetch(`http://${host}:${port}${pathname}`, {
      headers: { Accept: 'application/json, text/html', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });

  /** a's and b's books, each through its own role, for the length of `use`. */
  async function withBooks(use: (dbA: Db, dbB: Db) => Promise<void>): Promise<void> {
    const [dbA, dbB] = [await paperDb(admin, databaseUrl, secret, a), await paperDb(admin, databaseUrl, secret, b)];
    try {
      await use(dbA, dbB);
    } finally {
      await Promise.all([dbA.destroy(), dbB.destroy()]);
    }
  }

  /** What b did left a's ledger as it was (`rowsOfA`, counted before), and both books balance. */
  async function assertAUntouched(dbA: Db, dbB: Db, rowsOfA: unknown): Promise<void> {
    assert.deepEqual(await dbA('ledger_rows').count<{ count: number }[]>('* as count'), rowsOfA);
    await assertBalanced(dbA);
    await assertBalanced(dbB);
  }

  before(async function () {
    // As the server does: a.localhost is this machine, for the test's requests and the paper's own calls.
    resolveLocalhostNames();
    database = await platformDatabase(adminUrl!, `platform_test_${process.pid}`);
    ({ url: databaseUrl, admin } = database);

    // The one server listens first: each paper's address carries its port.
    let handle: http.RequestListener = (_req, res) => res.end();
    server = http.createServer((req, res) => handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PLATFORM_DOMAIN: 'localhost',
      PLATFORM_SECRET: secret,
      PORT: String(port),
      OIDC_ISSUER: '',
      LOG_LEVEL: 'silent',
      // A paper at a.localhost counts as public: test mode on purpose, the demo's passwords replaced.
      STRIPE_SANDBOX: 'true',
    };
    const base = loadConfig(env);

    // Two operators' commands at once, the first two of the database: both make the schema `platform`.
    const [added, addedB] = await Promise.all([
      paper(env, 'add', a, '--host', 'a.localhost', '--currency', 'EUR', '--country', 'DE', '--demo'),
      paper(env, 'add', b, '--host', 'b.localhost', '--currency', 'CHF', '--country', 'CH', '--demo'),
    ]);
    assert.equal(added.code, 0, added.out);
    assert.equal(addedB.code, 0, addedB.out);
    assert.match(added.out, /The demo newspaper is seeded/);
    passwords = { a: logins(added.out), b: logins(addedB.out) };
    // c is suspended; d is listed with its role and an empty schema, as when its migration failed.
    assert.equal((await paper(env, 'add', c, '--host', 'c.localhost')).code, 0);
    assert.equal((await paper(env, 'suspend', c)).code, 0);
    await addPaper(admin, secret, { slug: d, hosts: ['d.localhost'] });
    await nameNewspaper(database, secret, a, 'Straßenblatt A');
    await nameNewspaper(database, secret, b, 'Surprise B');
    platform = await startPlatform(admin, env, base, fakeBuild());
    handle = (req, res) => {
      if (req.url?.startsWith('/api/webhooks/')) webhookCalls.push(`${req.method} ${req.headers.host}${req.url}`);
      platform.handle(req, res);
    };
  });

  after(async () => {
    await platform?.stop();
    server?.close();
    await database?.drop();
  });

  it('answers each host with its own paper: settings, currency and shop page', async () => {
    for (const [host, name, currency] of [
      ['a.localhost', 'Straßenblatt A', 'EUR'],
      ['b.localhost', 'Surprise B', 'CHF'],
    ]) {
      const settings = await get(host, '/api/settings/');
      assert.equal(settings.status, 200, host);
      const body = (await settings.json()) as { newspaperName: string; currency: string };
      assert.equal(body.newspaperName, name);
      assert.equal(body.currency, currency);
      const page = await get(host, '/v/DEMO-1');
      assert.equal(page.status, 200, host);
      const html = await page.text();
      assert.ok(html.includes(name), `${host}'s page names ${name}`);
      assert.ok(html.includes(`"currency":"${currency}"`), `${host}'s page is in ${currency}`);
    }
    assert.deepEqual(
      platform
        .papers()
        .filter((p) => p.url)
        .map((p) => p.url),
      [`http://a.localhost:${port}`, `http://b.localhost:${port}`],
    );
  });

  it('answers a host no paper lists with 404, never with a paper', async () => {
    for (const host of ['e.localhost', 'localhost', '127.0.0.1', 'www.a.localhost']) {
      const response = await get(host, '/api/settings/');
      assert.equal(response.status, 404, host);
      assert.match(await response.text(), /No newspaper is served at this address/);
    }
  });

  it('answers a suspended paper and one whose schema is behind with 503 and a sentence', async () => {
    const suspended = await get('c.localhost', '/api/settings/');
    assert.equal(suspended.status, 503);
    assert.match(await suspended.text(), /closed for the time being/);
    const behind = await get('d.localhost', '/v/DEMO-1');
    assert.equal(behind.status, 503);
    assert.match(await behind.text(), /being updated/);
    assert.deepEqual(
      platform.papers().map((p) => [p.slug, p.url !== undefined]),
      [
        [a, true],
        [b, true],
        [c, false],
        [d, false],
      ],
    );
  });

  it('lists the papers, migrates each on its own, and refuses to run without PostgreSQL', async () => {
    const listed = await paper(env, 'list');
    assert.equal(listed.code, 0, listed.out);
    assert.match(listed.out, new RegExp(`^${c}\\tsuspended\\tEUR\\tDE\\tEurope/Berlin\\tc.localhost`, 'm'));
    assert.match(listed.out, new RegExp(`^${b}\\tactive\\tCHF\\tCH\\tEurope/Zurich\\tb.localhost`, 'm'));
    const migrated = await paper(env, 'migrate');
    assert.equal(migrated.code, 0, migrated.out);
    assert.match(migrated.out, new RegExp(`^${a}: up to date$`, 'm'));
    assert.match(migrated.out, new RegExp(`^${d}: migrated to \\d+`, 'm'));
    // The server takes the migrated paper up at its next look at the list, without a restart.
    await platform.refresh();
    assert.equal((await get('d.localhost', '/api/settings/')).status, 200);
    const refused = await paper({ ...env, DATABASE_URL: '' }, 'list');
    assert.equal(refused.code, 1);
    assert.match(refused.out, /Many papers need PostgreSQL: set DATABASE_URL/);
    const unconfirmed = await paper(env, 'remove', d);
    assert.equal(unconfirmed.code, 1);
    assert.match(unconfirmed.out, /Run it again with --yes/);
  });

  it("books a purchase at b's host in CHF in b's books only, through b's own sandbox and webhook", async () => {
    await withBooks(async (dbA, dbB) => {
      const rowsOfA = await dbA('ledger_rows').count<{ count: number }[]>('* as count');
      const item = await itemId(dbB, 'Zeitung');
      const placed = await fetch(`http://b.localhost:${port}/api/orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item, quantity: 1 }], tip: 100 }),
      });
      const order = (await placed.json()) as { order: string; checkoutUrl: string };
      assert.equal(placed.status, 201, JSON.stringify(order));
      await payInSandbox(`http://b.localhost:${port}`, order.checkoutUrl);
      const paid = await eventually(
        () =>
          dbB('orders')
            .where({ token: order.order, status: 'paid' })
            .first<{ currency: string } | undefined>('currency'),
        "the order paid in b's books",
      );
      assert.equal(paid.currency, 'chf'); // as Stripe writes it
      await assertAUntouched(dbA, dbB, rowsOfA);
    });
  });

  it("sells at b.localhost on b's connected account in CHF, and the platform's Connect endpoint books its events in b's books only", async () => {
    const configB = paperConfig(env, loadConfig(env), await findPaper(admin, b));
    await withBooks(async (dbA, dbB) => {
      // b's Standard account, made on the platform and onboarded through its account link.
      const stripe = stripeClient(dbB, configB);
      const account = await stripe.accounts.create({ type: 'standard', country: 'CH' });
      const link = await stripe.accountLinks.create({
        account: account.id,
        type: 'account_onboarding',
        refresh_url: `${configB.publicUrl}/backoffice`,
        return_url: `${configB.publicUrl}/backoffice`,
      });
      assert.equal((await fetch(link.url, { redirect: 'manual' })).status, 303);
      const connected = await paper(env, 'connect', b, account.id);
      assert.equal(connected.code, 0, connected.out);
      assert.equal((await findPaper(admin, b)).stripeAccount, account.id);
      assert.equal(
        (await dbB('settings').first<{ stripe_account: string }>('stripe_account')).stripe_account,
        account.id,
      );
      const taken = await paper(env, 'connect', a, account.id);
      assert.equal(taken.code, 1);
      assert.match(taken.out, new RegExp(`The Stripe account ${account.id} is connected to the paper "${b}" already`));
      assert.equal((await findPaper(admin, a)).stripeAccount, null);
      assert.match((await paper(env, 'list')).out, new RegExp(`^${b}\\t.*\\t${account.id}$`, 'm'));

      const rowsOfA = await dbA('ledger_rows').count<{ count: number }[]>('* as count');
      webhookCalls.length = 0;
      const placed = await fetch(`http://b.localhost:${port}/api/orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item: await itemId(dbB, 'Zeitung'), quantity: 2 }] }),
      });
      const order = (await placed.json()) as { order: string; checkoutUrl: string };
      assert.equal(placed.status, 201, JSON.stringify(order));
      const { stripe_session_id: sessionId } = await dbB('orders')
        .where({ token: order.order })
        .first<{ stripe_session_id: string }>('stripe_session_id');
      // A direct charge: the session is b's account's, in francs, and the platform has none of it.
      const session = await stripe.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: account.id });
      assert.equal(session.currency, 'chf');
      await assert.rejects(stripe.checkout.sessions.retrieve(sessionId), { code: 'resource_missing' });

      await payInSandbox(`http://b.localhost:${port}`, order.checkoutUrl);
      const paid = await eventually(
        () =>
          dbB('orders')
            .where({ token: order.order, status: 'paid' })
            .whereNotNull('fee')
            .first<{ id: number } | undefined>('id'),
        "the order paid and its card fee known in b's books",
      );
      const completed = await dbB('stripe_events')
        .where({ type: 'checkout.session.completed' })
        .whereRaw(`payload->'data'->'object'->>'id' = ?`, [sessionId])
        .first<{ payload: { account?: string } }>('payload');
      assert.equal(completed.payload.account, account.id);
      assert.ok(
        webhookCalls.includes(`POST b.localhost:${port}/api/webhooks/stripe-connect`),
        `the sandbox sent the account's events to the platform's Connect endpoint: ${webhookCalls.join(', ')}`,
      );
      const [booked] = await dbB('ledger_rows').where({ order_id: paid.id }).count<{ count: string }[]>('* as count');
      assert.ok(Number(booked.count) > 0, "the sale booked in b's ledger");
      await assertAUntouched(dbA, dbB, rowsOfA);
    });
  });

  it("answers the platform's Connect endpoint at any host: b's event again is a duplicate, an unknown account's or the platform's own changes nothing, a bad signature is 400, a suspended paper's 503", async () => {
    await withBooks(async (dbA, dbB) => {
      const [platformSecret] = platformWebhookSecrets(loadConfig(env));
      /** A delivery of `event` to the platform's endpoint at a host no paper lists, as Stripe signs it. */
      const deliver = (event: object, signWith = platformSecret) => {
        const payload = JSON.stringify(event);
        return fetch(`http://stripe.localhost:${port}/api/webhooks/stripe-connect`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: signWith }),
          },
          body: payload,
        });
      };
      /** What an event could change: the ledger rows and the events stored, of both papers. */
      const counts = async () =>
        Promise.all(
          [dbA, dbB].flatMap((db) => [
            db('ledger_rows').count<{ count: number }[]>('* as count'),
            db('stripe_events').count<{ count: number }[]>('* as count'),
          ]),
        );
      const { payload: completed } = await dbB('stripe_events')
        .where({ type: 'checkout.session.completed' })
        .whereRaw(`payload->>'account' is not null`)
        // Stored as Stripe sent it; only its id and account are changed below (typed as Stripe.Event, a
        // union of some 250 events, each spread of it cost the type check seconds).
        .first<{ payload: { id: string; account: string } & Record<string, unknown> }>('payload');
      const before = await counts();

      const again = await deliver(completed);
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), { received: true, duplicate: true }, "b's books know the event");

      for (const event of [
        { ...completed, id: `evt_unknown_${process.pid}`, account: 'acct_1UnknownPaper00000' },
        { ...completed, id: `evt_platform_${process.pid}`, account: undefined },
      ]) {
        const answer = await deliver(event);
        assert.equal(answer.status, 200);
        assert.deepEqual(await answer.json(), { received: true, ignored: true });
      }
      const { webhookSecret: secretOfB } = await sandboxCredentials(dbB);
      assert.equal((await deliver({ ...completed, id: `evt_forged_${process.pid}` }, secretOfB)).status, 400);
      assert.deepEqual(await counts(), before, 'no row and no event stored anywhere');

      // c is suspended: its account's event is answered so that Stripe delivers it again.
      await admin('platform.papers').where({ slug: c }).update({ stripe_account: 'acct_1SuspendedPaper000' });
      try {
        const waiting = await deliver({
          ...completed,
          id: `evt_suspended_${process.pid}`,
          account: 'acct_1SuspendedPaper000',
        });
        assert.equal(waiting.status, 503);
        assert.equal(waiting.headers.get('retry-after'), '300');
        assert.match(((await waiting.json()) as { message: string }).message, /bitte erneut zustellen/);
      } finally {
        await admin('platform.papers').where({ slug: c }).update({ stripe_account: null });
      }

      // b's sandbox registers a Connect endpoint at the platform's address too, and at no other.
      const configB = paperConfig(env, loadConfig(env), await findPaper(admin, b));
      const stripe = stripeClient(dbB, configB);
      const endpoint = await stripe.webhookEndpoints.create({
        url: `${configB.publicUrl}/api/webhooks/stripe-connect`,
        connect: true,
        enabled_events: ['checkout.session.completed'],
      });
      await stripe.webhookEndpoints.del(endpoint.id);
      await assert.rejects(
        stripe.webhookEndpoints.create({
          url: `http://stripe.localhost:${port}/api/webhooks/stripe-connect`,
          connect: true,
          enabled_events: ['checkout.session.completed'],
        }),
        { code: 'url_invalid' },
      );
    });
  });

  it("refuses a's staff and vendor tokens at b's host on every route that is not public", async () => {
    const [office, vendor] = [await tokenOf('a', 'office'), await tokenOf('a', 'vendor')];
    // At their own host they open what they are for.
    assert.equal((await get('a.localhost', '/api/vendors/', office)).status, 200);
    assert.equal((await get('a.localhost', '/api/vendors/me', vendor)).status, 200);
    const dbB = await paperDb(admin, databaseUrl, secret, b);
    try {
      const guarded = routes.filter((r) => r.access !== 'public');
      assert.ok(guarded.length > 80, `${guarded.length} routes`);
      const calls = guarded.flatMap((route) => [
        { route, caller: 'staff', token: office },
        { route, caller: 'vendor', token: vendor },
      ]);
      const paths = new Map<RouteDef, string>();
      for (const route of guarded) paths.set(route, await concretePath(route.path, firstOf(dbB)));
      const answers = await inTurns(calls, async ({ route, caller, token }) => {
        const response = await fetch(`http://b.localhost:${port}${paths.get(route)}`, {
          method: route.method,
          headers: { Accept: 'application/json', Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: route.method === 'GET' ? undefined : '{}',
        });
        await response.arrayBuffer();
        return `${route.method} ${route.path} as a's ${caller}: ${response.status}`;
      });
      assert.deepEqual(
        answers.filter((answer) => !/: 40[13]$/.test(answer)),
        [],
      );
    } finally {
      await dbB.destroy();
    }
  });

  it("lets PostgreSQL refuse a's role every table, view and sequence of b's schema", async () => {
    const db = await paperDb(admin, databaseUrl, secret, a);
    try {
      assert.equal(((await db.raw('select count(*)::int as n from vendors')).rows[0] as { n: number }).n > 0, true);
      const { rows } = await admin.raw<{ rows: { name: string }[] }>(
        `select relname as name from pg_class where relnamespace = ?::regnamespace and relkind in ('r', 'p', 'v', 'm', 'S', 'f')
          order by relname`,
        [schemaOf(b)],
      );
      assert.ok(rows.length > 50, `${rows.length} relations in b's schema`);
      const allowed: string[] = [];
      for (const { name } of rows) {
        try {
          await db.raw(`select * from ${schemaOf(b)}."${name}" limit 1`);
          allowed.push(name);
        } catch (error) {
          if (pgCode(error) !== '42501') allowed.push(`${name}: ${String(error)}`); // insufficient_privilege
        }
      }
      assert.deepEqual(allowed, []);
      await assert.rejects(db.raw('select * from platform.papers'), (error: unknown) => pgCode(error) === '42501');
      await assert.rejects(db.raw(`set role ${schemaOf(b)}`), (error: unknown) => pgCode(error) === '42501');
    } finally {
      await db.destroy();
    }
  });

  it("shows nothing of b at a's host: a marker in every table of b and b's own sum are in no answer of a's to any GET route", async function () {
    this.timeout(120_000);
    const marker = `MARKERB${process.pid}`;
    const [dbA, dbB] = [await paperDb(admin, databaseUrl, secret, a), await paperDb(admin, databaseUrl, secret, b)];
    const callers = {
      a: { staff: await tokenOf('a', 'office'), vendor: await tokenOf('a', 'vendor'), anyone: undefined },
      b: { staff: await tokenOf('b', 'office'), vendor: await tokenOf('b', 'vendor'), anyone: undefined },
    };
    await officeWorkAtA(dbA, callers.a.staff);
    // b's own sum: a tip no other booking has (CHF 735.19, 73519 in the API's cents), in b's books.
    await bookPaidOrder(dbB, await vendorId(dbB, 'DEMO-2'), new Date(), { prints: 0, digital: 0, tip: 73_519 });
    const sumOfB = /(?<![\dA-Za-z])735[.,’']?19(?![\dA-Za-z])/;
    const planted = await plantMarker(admin, schemaOf(b), marker);
    try {
      assert.ok(planted.tables.size > 50, `${planted.tables.size} tables in b's schema`);
      // The tables that hold no text the marker could be put in: their checks allow only their own words.
      assert.deepEqual(
        [...planted.tables].filter(([, { columns }]) => !columns.length).map(([table]) => table),
        [
          'fiscal_sandbox_state', // the signing simulator's counters
          'fiscal_tills', // a till's signing mode and country
          'knex_migrations_lock',
          'ledger_accounts', // an account's kind and its vendor
          'order_entries', // an entry's kind, item, quantity and amounts
          'shop_revision',
          'till_voucher_counters',
        ],
      );
      // The rows that carry the marker are asked for by their ids at a's host too: a's answer must be a's, or none.
      const plantedOf: Pick = async (table, column) => {
        const key = planted.tables.get(table)?.key;
        const row = key
          ? await admin(`${schemaOf(b)}.${table}`)
              .where(key)
              .first<Record<string, string | number | null> | undefined>(column)
          : undefined;
        return row?.[column] === undefined || row[column] === null ? undefined : String(row[column]);
      };
      const gets = routes.filter((r) => r.method === 'GET');
      // Each route is asked by the callers it answers; what it refuses the others is access.test.ts's.
      const mayCall: Record<Access, string[]> = {
        public: ['staff', 'vendor', 'anyone'],
        authenticated: ['staff', 'vendor'],
        vendor: ['vendor'],
        backoffice: ['staff'],
      };
      assert.ok(gets.length > 60, `${gets.length} GET routes`);

      /** Every GET route's answers at `host` to each caller, with the ids of each of `picks`, and the shop's pages. */
      const answersAt = async (
        host: string,
        tokens: Record<string, string | undefined>,
        picks: Pick[],
        formats: string[],
      ) => {
        const today = localDay(new Date(), 'Europe/Berlin');
        const requests: { label: string; url: string; token?: string; queries: string[] }[] = [];
        for (const pick of picks) {
          const licence = (await pick('vendors', 'license_id')) ?? '';
          // What a route may ask for beside the path: a period (of days, of a year, of months), a vendor.
          const queries = (
            [
              { from: localDay(new Date(Date.now() - 60 * 86_400_000), 'Europe/Berlin'), to: today },
              { year: today.slice(0, 4) },
              { from: today.slice(0, 7), to: today.slice(0, 7) },
              { vendor: licence },
            ] as Record<string, string>[]
          ).map((query) => new URLSearchParams(query).toString());
          for (const route of gets) {
            const url = `http://${host}:${port}${await concretePath(route.path, pick)}`;
            for (const [caller, token] of Object.entries(tokens))
              if (mayCall[route.access].includes(caller))
                requests.push({ label: `${route.path} as ${caller}`, url, token, queries });
          }
          // The shop's pages, which carry the paper's settings and a vendor's record inline.
          for (const [label, page] of [
            ['/', '/'],
            ['/v/:licenseId', `/v/${encodeURIComponent(licence)}`],
          ])
            requests.push({ label, url: `http://${host}:${port}${page}`, queries: [] });
        }
        // A path the same for both rows is asked once, with the queries of both.
        const unique = new Map<string, (typeof requests)[number]>();
        for (const r of requests) {
          const key = `${r.url} ${r.token ?? ''}`;
          const same = unique.get(key);
          unique.set(key, same ? { ...same, queries: [...new Set([...same.queries, ...r.queries])] } : r);
        }
        const asked = [...unique.values()];
        const answers = await inTurns(asked, (r) => readAll(r.url, r.token, r.queries, formats));
        return answers.flatMap((some, i) =>
          some.map((answer) => ({ ...answer, label: `${asked[i].label}${answer.query}` })),
        );
      };
      const markerPattern = new RegExp(marker, 'i');
      /** The routes whose answers show `pattern`, beyond what the request said (a refusal may repeat the id asked for). */
      const showing = (answers: Awaited<ReturnType<typeof answersAt>>, pattern: RegExp) => [
        ...new Set(
          answers
            .filter(({ url, body }) => {
              const asked = new URL(url);
              const said = [...asked.pathname.split('/').map(decodeURIComponent), ...asked.searchParams.values()];
              return pattern.test(
                said
                  .filter((value) => markerPattern.test(value))
                  .reduce((text, value) => text.split(value).join(''), body),
              );
            })
            .map((answer) => answer.label),
        ),
      ];

      // b's own answers show the marker and the sum: what is looked for at a's host is there to be
      // found, and has passed through this process, in every caller's answers.
      const ofB = await answersAt('b.localhost', callers.b, [firstOf(dbB), plantedOf], []);
      const markedAtB = showing(ofB, markerPattern);
      for (const seen of [
        '/api/settings as anyone',
        '/api/vendors as staff',
        '/api/vendors/me as vendor',
        '/v/:licenseId',
      ])
        assert.ok(
          markedAtB.some((label) => label.startsWith(seen)),
          `b's ${seen} shows the marker: ${markedAtB.join(', ')}`,
        );
      assert.ok(showing(ofB, sumOfB).includes('/api/payments as staff'), "b's payments show b's sum");

      const ofA = await answersAt('a.localhost', callers.a, [firstOf(dbA), plantedOf], ['csv', 'html']);
      assert.deepEqual(showing(ofA, markerPattern), [], "a's answers with b's marker");
      assert.deepEqual(showing(ofA, sumOfB), [], "a's answers with b's sum");
      assert.deepEqual(
        ofA.filter((answer) => answer.status >= 500).map((answer) => `${answer.label}: ${answer.status}`),
        [],
      );
      // What a's host answers with rows of a's own: every GET route but those a has no rows for (payouts,
      // digital editions, webhook deliveries, a checkout at Stripe: a's credit is test money, it sells
      // no PDF, its endpoint is off, its order is booked without one) and Austria's signing.
      const answered = new Set(ofA.filter((x) => x.status === 200).map((x) => x.label.replace(/ as .*|\?.*/, '')));
      assert.deepEqual(
        gets.map((route) => route.path).filter((path) => !answered.has(path)),
        [
          '/api/orders/verify',
          '/api/payouts/:id',
          '/api/payouts/:id/receipt',
          '/api/payouts/:id/reversal/receipt',
          '/api/tills/dep7',
          '/api/tills/:id/rksv',
          '/api/webhook-deliveries/:id',
          '/api/pdf/:id/validate',
          '/api/pdf/:id',
        ],
      );
    } finally {
      await planted.undo();
      await Promise.all([dbA.destroy(), dbB.destroy()]);
    }
  });

  /**
   * a's shop and office at work: an order paid, copies sold at the counter, the day's close, a webhook
   * endpoint and the DATEV numbers, so that a's receipts, reports and exports have rows to show. (A
   * payout is refused: a's credit is test money.)
   */
  async function officeWorkAtA(db: Db, token: string): Promise<void> {
    const call = async (method: string, pathname: string, body?: object) => {
      const response = await fetch(`http://a.localhost:${port}${pathname}`, {
        method,
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: body && JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const done = (answer: { status: number; body: object }, status: number) =>
      assert.equal(answer.status, status, JSON.stringify(answer.body));
    await bookPaidOrder(db, await vendorId(db, 'DEMO-1'), new Date(), { prints: 2, digital: 0, tip: 50 });
    const till = await db('tills').orderBy('id').first<{ id: number }>('id');
    const copy = await db('items')
      .where({ name: 'Zeitung' })
      .first<{ id: number; counter_price: number }>('id', 'counter_price');
    const sale = {
      visitId: randomUUID(),
      vendor: 'DEMO-3',
      tillId: till.id,
      items: [{ itemId: copy.id, quantity: 2 }],
      cash: 2 * copy.counter_price,
      payOut: false,
      expectedCredit: 0,
    };
    done(await call('POST', '/api/counter/visits', sale), 201);
    const { tills } = (await call('GET', '/api/tills')).body as { tills: { id: number; balance: number }[] };
    const balance = tills.find((t) => t.id === till.id)!.balance;
    done(await call('POST', `/api/tills/${till.id}/closes`, { counted: balance, expected: balance }), 201);
    const endpoint = { url: 'https://erp.example.org/a', eventTypes: ['payout.created'], active: false };
    done(await call('POST', '/api/webhook-endpoints', endpoint), 201);
    const { chartDefaults: _defaults, ...datev } = (await call('GET', '/api/accounting/datev/settings')).body;
    done(
      await call('PUT', '/api/accounting/datev/settings', { ...datev, adviserNumber: '29098', clientNumber: '55003' }),
      200,
    );
  }

  it('suspends and resumes a paper without a restart, the other paper served throughout', async () => {
    assert.equal((await paper(env, 'suspend', b)).code, 0);
    await platform.refresh();
    assert.equal((await get('b.localhost', '/api/settings/')).status, 503);
    assert.equal((await get('a.localhost', '/api/settings/')).status, 200);
    assert.equal((await paper(env, 'resume', b)).code, 0);
    await platform.refresh();
    const resumed = await get('b.localhost', '/api/settings/');
    assert.equal(resumed.status, 200);
    assert.equal(((await resumed.json()) as { currency: string }).currency, 'CHF');
  });

  it("backs up b alone with npm run paper -- backup: restored as an installation of its own, its credits, trial balance and journal are b's to the byte", async () => {
    const file = path.join(os.tmpdir(), `paper-${b}.backup.gz`);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-restored-'));
    const [dbA, dbB] = [await paperDb(admin, databaseUrl, secret, a), await paperDb(admin, databaseUrl, secret, b)];
    let restored: Db | undefined;
    try {
      await bookPaidOrder(dbB, await vendorId(dbB, 'DEMO-2'), new Date(), { prints: 3, digital: 1, tip: 250 });
      // Marks of a's own that b's backup must not hold: a vendor's name and the sandbox's secret key.
      const onlyInA = `Nur im Blatt A ${process.pid}`;
      await dbA('vendors').where({ license_id: 'DEMO-3' }).update({ last_name: onlyInA });
      const secretOfA = (await sandboxCredentials(dbA)).secretKey;

      const done = await paper(env, 'backup', b, '--out', file);
      assert.equal(done.code, 0, done.out);
      assert.match(done.out, /npm run restore -- .* COUNTRY=CH CURRENCY=CHF TIME_ZONE=Europe\/Zurich/);
      let text = '';
      for await (const line of readBackupLines(file)) text += `${line}\n`;
      for (const mark of ['Straßenblatt A', onlyInA, secretOfA, schemaOf(a)])
        assert.ok(!text.includes(mark), `b's backup holds ${mark}`);
      assert.ok(text.includes('Surprise B'));

      restored = await openDatabase({ dataDir }, { existing: false });
      await restoreBackup(restored, file);

      /** What the bookkeeper compares: every vendor's credit, the trial balance, the journal's CSV. */
      const books = async (db: Db) => {
        const { timeZone } = await findPaper(admin, b);
        const vendors = await db('vendors').orderBy('license_id').select<{ id: number; license_id: string }[]>();
        const credits = [];
        for (const v of vendors) credits.push([v.license_id, (await vendorAccountSummary(db, v.id)).credit]);
        const settings = await readDatevSettings(db);
        const today = localDay(new Date(), timeZone);
        const period = readPeriod({ from: `${today.slice(0, 4)}-01-01`, to: today }, timeZone);
        const firstDay = localDay(period.from!, timeZone);
        const journal = {
          ...period,
          from: period.from!,
          to: period.to!,
          firstDay,
          lastDay: today,
          fiscalYearStart: firstDay,
        };
        const chunks: Buffer[] = [];
        const csv = journalFile(db, settings, journal, await installationCurrency(db), timeZone, 'de');
        for await (const chunk of csv) chunks.push(Buffer.from(chunk));
        return { credits, trialBalance: await trialBalance(db, settings, period), journal: Buffer.concat(chunks) };
      };
      const [original, copy] = [await books(dbB), await books(restored)];
      assert.ok(original.credits.some(([licence, credit]) => licence === 'DEMO-2' && Number(credit) > 0));
      assert.ok(original.journal.toString().includes('CHF'));
      assert.deepEqual(copy.credits, original.credits);
      assert.deepEqual(copy.trialBalance, original.trialBalance);
      assert.ok(copy.journal.equals(original.journal), 'the journal, byte for byte');
      const [settings] = await restored('settings').select('newspaper_name', 'currency', 'country');
      assert.deepEqual(settings, { newspaper_name: 'Surprise B', currency: 'CHF', country: 'CH' });
      assert.equal((await restored('vendors').where({ last_name: onlyInA }).first()) ?? null, null);
    } finally {
      await Promise.all([dbA.destroy(), dbB.destroy(), restored?.destroy()]);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(file, { force: true });
    }
  });

  it("runs b's reconciliation while a's holds its lock, and a's second run finds the lock taken", async () => {
    const base = loadConfig(env);
    const opened = await Promise.all(
      [a, b].map(async (slug) => {
        const db = await paperDb(admin, databaseUrl, secret, slug);
        return { db, config: paperConfig(env, base, await findPaper(admin, slug)) };
      }),
    );
    const [paperA, paperB] = opened as [(typeof opened)[number], (typeof opened)[number]];
    /** An order placed at the paper's host and left unpaid: due for the run at a start. */
    const pendingOrder = async ({ db, config }: typeof paperA) => {
      const placed = await fetch(`${config.publicUrl}/api/orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item: await itemId(db, 'Zeitung'), quantity: 1 }] }),
      });
      assert.equal(placed.status, 201, await placed.clone().text());
      const { order } = (await placed.json()) as { order: string };
      return (await db('orders').where({ token: order }).first<{ id: number }>('id')).id;
    };
    let hold: Knex.Transaction | undefined;
    try {
      const [orderA, orderB] = [await pendingOrder(paperA), await pendingOrder(paperB)];
      // A's first run is held inside its claim, after it took the job's lock: the orders table is locked.
      hold = await paperA.db.transaction();
      const startedAt = new Date();
      await hold.raw('lock table orders in exclusive mode');
      const firstOfA = reconcilePending(paperA.db, paperA.config, { startedAt });
      await eventually(async () => {
        const { rows } = await admin.raw<{ rows: { waiting: boolean }[] }>(
          `select exists (select 1 from pg_locks l join pg_stat_activity s on s.pid = l.pid
             where s.usename = ? and not l.granted) as waiting`,
          [schemaOf(a)],
        );
        return rows[0]?.waiting;
      }, "a's first run waiting for its orders");
      // Other orders of the papers may be due as well: what counts is who claims these two.
      assert.ok((await reconcilePending(paperB.db, paperB.config, { startedAt })).includes(orderB));
      assert.deepEqual(await reconcilePending(paperA.db, paperA.config, { startedAt }), [], "a's lock is held");
      await hold.rollback();
      assert.ok((await firstOfA).includes(orderA));
    } finally {
      if (hold && !hold.isCompleted()) await hold.rollback();
      await Promise.all(opened.map(({ db }) => db.destroy()));
    }
  });

  it("signs a's cash sale with a's own TSE simulator and d's with d's own fiskaly account: each signature holds under its own device's key and not under the other's", async () => {
    const base = loadConfig(env);
    if (!platform.papers().some((p) => p.slug === d && p.url)) {
      assert.equal((await paper(env, 'migrate')).code, 0);
      await platform.refresh();
    }
    const [dbA, dbD] = [await paperDb(admin, databaseUrl, secret, a), await paperDb(admin, databaseUrl, secret, d)];
    // d's fiskaly organisation: the TSE simulator on a loopback port of its own, its state in d's schema.
    const signingService = new Koa().use(fiscalSandbox(dbD)).callback();
    const fiskaly = http.createServer((req, res) => void signingService(req, res));
    await new Promise<void>((resolve) => fiskaly.listen(0, '127.0.0.1', resolve));
    try {
      const { newPasswords } = await preparePaper(dbD, {
        ...paperConfig(env, base, await findPaper(admin, d)),
        seedDemo: true,
        seedHistory: false,
      });
      const officeOfD = newPasswords.find((login) => login.username === 'office')!.password;
      const account = await simulatorCredentials(dbD);
      const [tss, client] = [randomUUID(), randomUUID()];
      const apiUrl = `http://127.0.0.1:${(fiskaly.address() as AddressInfo).port}/fiscal-sandbox/api/v2`;
      const given = await paper(
        env,
        'fiscal',
        d,
        '--api-key',
        account.apiKey,
        '--api-secret',
        account.apiSecret,
        '--tss',
        tss,
        '--client',
        client,
        '--api-url',
        apiUrl,
      );
      assert.equal(given.code, 0, given.out);
      assert.match(given.out, new RegExp(`Paper ${d} signs with its own fiskaly account: TSS ${tss}`));
      assert.ok(!given.out.includes(account.apiSecret), 'the secret is not printed');
      const listed = JSON.stringify(await admin('platform.papers').where({ slug: d }).first());
      assert.ok(!listed.includes(account.apiKey) && !listed.includes(account.apiSecret), 'sealed in the list');
      // d's account and d's TSS are never another paper's: given to a, each is refused.
      const sameKey = await paper(
        env,
        'fiscal',
        a,
        '--api-key',
        account.apiKey,
        '--api-secret',
        's',
        '--tss',
        randomUUID(),
        '--client',
        randomUUID(),
      );
      assert.equal(sameKey.code, 1, sameKey.out);
      assert.match(sameKey.out, new RegExp(`The paper "${d}" signs with this API key or this TSS`));
      await assert.rejects(
        setPaperFiscal(admin, secret, a, { apiKey: 'another key', apiSecret: 's', tssId: tss, clientId: randomUUID() }),
        new RegExp(`The paper "${d}" signs with this API key or this TSS`),
      );
      assert.equal((await findPaper(admin, a)).fiscal, null);
      await platform.refresh();

      /** The paper's first till switched to test mode, a cash sale of two copies at it, and its signing now. */
      const sellAndSign = async (host: string, db: Db, password: string, simulator: boolean) => {
        const url = `http://${host}:${port}`;
        const { access_token: token } = await loginWithPkce(url, 'office', password);
        const call = (method: string, pathname: string, body?: object) =>
          fetch(`${url}${pathname}`, {
            method,
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: body && JSON.stringify(body),
          });
        const till = ((await (await call('GET', '/api/tills')).json()) as { tills: { id: number }[] }).tills[0].id;
        const set = await call('PUT', `/api/tills/${till}/fiscal`, { mode: 'test', country: 'DE' });
        assert.equal(set.status, 200, await set.clone().text());
        assert.equal(((await set.json()) as { simulator: boolean }).simulator, simulator, host);
        const zeitung = await itemId(db, 'Zeitung');
        const { counter_price: price } = await db('items')
          .where({ id: zeitung })
          .first<{ counter_price: number }>('counter_price');
        const vendor = await call('GET', '/api/counter/vendor?vendor=DEMO-4');
        const sold = await call('POST', '/api/counter/visits', {
          visitId: randomUUID(),
          vendor: 'DEMO-4',
          tillId: till,
          items: [{ itemId: zeitung, quantity: 2 }],
          cash: 2 * price,
          payOut: false,
          expectedCredit: ((await vendor.json()) as { credit: number }).credit,
        });
        assert.equal(sold.status, 201, await sold.clone().text());
        const { id: visit } = (await sold.json()) as { id: string };
        assert.equal((await call('POST', '/api/fiscal/retry', {})).status, 200);
        const rows = await db('fiscal_transactions')
          .where({ till_id: till })
          .orderBy('id')
          .select<{ state: string; tx_id: string; counter_visit_id: string | null; signature: DeSignature }[]>(
            'state',
            'tx_id',
            'counter_visit_id',
            'signature',
          );
        assert.deepEqual(
          rows.map((row) => row.state),
          rows.map(() => 'signed'),
          host,
        );
        const sale = rows.find((row) => row.counter_visit_id === visit);
        assert.ok(sale, `the sale at ${host} is signed`);
        return { sale: sale.signature, txIds: rows.map((row) => row.tx_id) };
      };
      const signedA = await sellAndSign('a.localhost', dbA, passwords.a.office, true);
      const signedD = await sellAndSign('d.localhost', dbD, officeOfD, false);

      // Each paper's device, as its own schema holds it: a's simulator's TSS, d's TSS at its account.
      const device = async (db: Db, id: string) =>
        db('fiscal_sandbox_tss').where({ id }).first<{ public_key: string; serial_number: string }>();
      const [deviceA, deviceD] = [await device(dbA, (await simulatorCredentials(dbA)).tssId), await device(dbD, tss)];
      assert.deepEqual(
        [signedA.sale.tssId, signedA.sale.publicKey],
        [(await simulatorCredentials(dbA)).tssId, deviceA.public_key],
      );
      assert.deepEqual([signedD.sale.tssId, signedD.sale.publicKey], [tss, deviceD.public_key]);
      assert.notEqual(deviceA.public_key, deviceD.public_key);
      assert.ok(finishHolds(signedA.sale.qr, deviceA.public_key), "a's sale under a's key");
      assert.ok(!finishHolds(signedA.sale.qr, deviceD.public_key), "a's sale not under d's key");
      assert.ok(finishHolds(signedD.sale.qr, deviceD.public_key), "d's sale under d's key");
      assert.ok(!finishHolds(signedD.sale.qr, deviceA.public_key), "d's sale not under a's key");
      // Each device's log holds its own paper's transactions and none of the other's.
      const logged = async (db: Db) =>
        (await db('fiscal_sandbox_transactions').select<{ id: string }[]>('id')).map((row) => row.id).sort();
      assert.deepEqual(await logged(dbA), [...signedA.txIds].sort());
      assert.deepEqual(await logged(dbD), [...signedD.txIds].sort());
    } finally {
      fiskaly.closeAllConnections();
      await new Promise((resolve) => fiskaly.close(resolve));
      await Promise.all([dbA.destroy(), dbD.destroy()]);
    }
  });
});

/**
 * Whether the finish signature of a DSFinV-K QR code holds under a TSE's public key (base64 of its
 * uncompressed P-384 point): the TR-03151 log message the QR code's fields make, checked by node:crypto.
 */
function finishHolds(qr: string, publicKey: string): boolean {
  const fields = parseQrCode(qr);
  const message = transactionLogMessage({
    operationType: 'FinishTransaction',
    clientSerial: fields.clientSerial,
    processData: fields.processData,
    processType: fields.processType,
    transactionNumber: fields.transactionNumber,
    tssSerial: serialOf(fields.publicKey),
    signatureCounter: fields.signatureCounter,
    logTime: Date.parse(fields.end) / 1000,
  });
  const point = Buffer.from(publicKey, 'base64');
  const coordinate = (from: number) => point.subarray(from, from + 48).toString('base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-384', x: coordinate(1), y: coordinate(49) }, format: 'jwk' });
  return verify('sha384', message, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(fields.signature, 'base64'));
}

/** A stand-in of the widget's build: the shop page's HTML, into which the server inlines its data. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-dist-'));
  fs.mkdirSync(path.join(dir, 'shop-widget'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'shop-widget', 'index.html'),
    '<!doctype html>\n<html lang="de"><head><meta charset="utf-8" /><title>Straßenzeitung</title></head>' +
      '<body><div id="shop"></div></body></html>\n',
  );
  return dir;
}

/** A value of `column` in a row of `table` of one paper, for a path; undefined where it has none. */
type Pick = (table: string, column: string) => Promise<string | undefined>;

/** The paper's first row of each table (least id, first licence): a row that is there. */
const firstOf =
  (db: Db): Pick =>
  async (table, column) => {
    const row = await db(table)
      .whereNotNull(column)
      // An image: the shop's /files/:id serves no other file.
      .whereRaw(table === 'files' ? "content_type like 'image/%'" : 'true')
      .orderBy(column)
      .first<Record<string, unknown> | undefined>(column)
      .catch(() => undefined);
    return row ? String(row[column]) : undefined;
  };

/** The table a path's parameter names a row of, by the segment before it. */
const tableBefore: Record<string, string> = {
  check: 'vendors',
  closes: 'till_closes',
  comments: 'vendor_comments',
  disputes: 'stripe_disputes',
  files: 'files',
  items: 'items',
  locations: 'vendor_locations',
  'login-locks': 'login_throttle',
  orders: 'orders',
  pdf: 'download_links',
  payout: 'payouts',
  payouts: 'payouts',
  tills: 'tills',
  vendors: 'vendors',
  visits: 'counter_visits',
  'webhook-deliveries': 'webhook_deliveries',
  'webhook-endpoints': 'webhook_endpoints',
};
const columnOf: Record<string, string> = { licenseId: 'license_id', token: 'token', username: 'username' };

/** A declared path with its parameters filled from `pick`'s rows ("1" where no table is known). */
async function concretePath(path: string, pick: Pick): Promise<string> {
  const segments = path.split('/');
  for (const [i, segment] of segments.entries()) {
    if (!segment.startsWith(':')) continue;
    const table = tableBefore[segments[i - 1] ?? ''];
    const value = table ? await pick(table, columnOf[segment.slice(1)] ?? 'id') : undefined;
    segments[i] = encodeURIComponent(value ?? '1');
  }
  return segments.join('/');
}

/** `work` on every item, a few at a time: the machine's cores are shared with the server under test. */
async function inTurns<T, R>(items: T[], work: (item: T) => Promise<R>, width = 4): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

/**
 * A GET's answers as the caller reads them: plain, or, where the route asks for more, with the first
 * of `queries` it takes; where it answers a logged-in caller, also in each of `formats` (CSV, the
 * printable page) that it knows. A ZIP's files are read unpacked.
 */
async function readAll(
  url: string,
  token: string | undefined,
  queries: string[],
  formats: string[],
): Promise<{ url: string; query: string; status: number; body: string }[]> {
  const read = async (query: string) => {
    const asked = query ? `${url}?${query}` : url;
    const response = await fetch(asked, {
      headers: {
        Accept: 'application/json, text/html, */*',
        // Unpacked as sent: compressing and inflating every answer would only cost the machine's time.
        'Accept-Encoding': 'identity',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const body = /zip/.test(response.headers.get('content-type') ?? '')
      ? Object.entries(unzipSync(bytes))
          .map(([name, file]) => `${name}\n${Buffer.from(file).toString('latin1')}`)
          .join('\n')
      : Buffer.from(bytes).toString('latin1');
    return { url: asked, query: query ? `?${query}` : '', status: response.status, body };
  };
  const answers = [await read('')];
  for (const query of queries) {
    if (answers.at(-1)!.status !== 400) break;
    answers.push(await read(query));
  }
  const plain = answers.at(-1)!;
  if (plain.status === 200 && token)
    for (const format of formats) {
      const formatted = await read([plain.query.slice(1), `format=${format}`].filter(Boolean).join('&'));
      // A route that answers the same has no formats: the next one would be the same again.
      if (formatted.body === plain.body) break;
      answers.push(formatted);
    }
  return answers;
}
