import http from 'node:http';
import path from 'node:path';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/foundations/config.ts';
import { createDb, migrate, type Db } from '../../api/src/db/connection.ts';
import { setLogSilent } from '../../api/src/foundations/log.ts';
import { startTestIssuer, type TestIssuer } from './issuer.ts';
import { resetDatabase } from './reset.ts';

setLogSilent(process.env.TEST_LOG !== '1');

export type EngineName = 'pglite' | 'postgres';

/** One database engine under test, shared by every test file for the whole run. */
export interface TestEngine {
  name: EngineName;
  db: Db;
  config: Config;
  app: ReturnType<typeof buildApp>;
  /**
   * The app listening on a loopback port for the engine's suites. Given the app's callback instead,
   * supertest would open a server for each request and close it after (about a third of a
   * millisecond of CPU each, tens of thousands of times a run).
   */
  server: http.Server;
  issuer: TestIssuer;
}

// One schema per test process, so parallel runs against the same PostgreSQL never meet.
const testSchema = `shop_test_${process.pid}`;
const engines = new Map<EngineName, Promise<TestEngine>>();
let issuerPromise: Promise<TestIssuer> | undefined;

export function testIssuer(): Promise<TestIssuer> {
  return (issuerPromise ??= startTestIssuer());
}

export function enginesUnderTest(): EngineName[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

async function onPostgres(url: string, sql: string): Promise<void> {
  const admin = createDb({ databaseUrl: url, dataDir: '' });
  try {
    await admin.raw(sql);
  } finally {
    await admin.destroy();
  }
}

async function startEngine(name: EngineName): Promise<TestEngine> {
  const issuer = await testIssuer();
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    PUBLIC_URL: 'http://shop.test',
    OIDC_ISSUER: issuer.issuer,
    OIDC_AUDIENCE: issuer.audience,
    DATABASE_URL: name === 'postgres' ? process.env.TEST_DATABASE_URL : '',
    DATA_DIR: 'memory://',
    // The suites book the card fee with the payment; tests of the later fee ask for it.
    SANDBOX_FEE_DELAY_MS: '0',
  });
  if (name === 'postgres')
    await onPostgres(config.databaseUrl!, `drop schema if exists ${testSchema} cascade; create schema ${testSchema}`);
  const db = createDb({ databaseUrl: config.databaseUrl, dataDir: 'memory://', schema: testSchema });
  await migrate(db);
  const app = buildApp({ db, config });
  const handle = app.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The test process ends when its tests do, not when this server would.
  server.unref();
  return { name, db, config, issuer, app, server };
}

export function engine(name: EngineName): Promise<TestEngine> {
  let started = engines.get(name);
  if (!started) {
    started = startEngine(name);
    engines.set(name, started);
  }
  return started;
}

export async function closeEngines(): Promise<void> {
  for (const started of engines.values()) {
    const e = await started;
    await e.db.destroy();
    if (e.name === 'postgres') await onPostgres(e.config.databaseUrl!, `drop schema if exists ${testSchema} cascade`);
  }
  engines.clear();
  if (issuerPromise) await (await issuerPromise).close();
  issuerPromise = undefined;
}

/** What a test body gets: the running app on one engine, an HTTP client and tokens by role. */
export interface ApiTest {
  engine: EngineName;
  db: Db;
  config: Config;
  http: supertest.Agent;
  /** A bearer header value for a user in these groups. */
  auth(groups?: string[], claims?: Record<string, unknown>): Promise<string>;
  /** Shortcut for the most common caller. */
  office(): Promise<string>;
  reset(): Promise<void>;
}

/**
 * The suites (by file, under tests/) that run on PostgreSQL as well as on PGlite when
 * TEST_DATABASE_URL is set, and why the engine can change what they check. Every other suite runs on
 * PGlite alone (TEST_ALL_ON_POSTGRES=1 runs every suite on both); docs/tests.md names those and why.
 *
 * PGlite is PostgreSQL itself compiled to WebAssembly: the same SQL, types, constraints, triggers and
 * migrations. What differs is around it: PostgreSQL has a pool of connections where PGlite has one
 * (concurrent bookings, row locks, claims with SKIP LOCKED, leases, upserts racing, a slow statement
 * beside quick ones); its driver parses what PGlite hands over as it is (int8 sums of cents, numeric,
 * bytea as Buffer, timestamps in the session's time zone); the hot reads are prepared statements there
 * (db/connection.ts hotRows); and its session has timeouts and a schema of its own. A suite that
 * touches none of these (wording, access rules, HTML and PDFs, a plain read or write of rows, Stripe's
 * shapes over HTTP) checks the same on both engines, so its second run would only cost CPU.
 */
const onPostgresToo: Record<string, string> = {
  // Money: amounts and sums of cents as the driver parses them, and the books' row locks.
  'api/ledger.test.ts': 'the booking functions: cents summed as int8, rows locked while a booking settles',
  'api/ledger-guard.test.ts': 'the triggers that refuse a change of a booked row, as the pg driver reports them',
  'api/ledger-bulk.test.ts': 'bulk booking against the booking functions: many rows in one statement, sums as parsed',
  'api/ledger-bulk-cash-book.test.ts': 'the cash book booked in bulk, payout by payout (PostgreSQL only: its size)',
  'api/payouts.test.ts': 'credit, payout and reversal: sums of cents and a payout racing a sale',
  'api/cash-rounding.test.ts': 'the constraints and unique indexes that tie a cash rounding to its visit or payout',
  'api/credit.test.ts': 'one credit in every list and answer: the sums as each engine’s driver parses them',
  'api/counter.test.ts': 'the till and its cash book: concurrent visits and bookings, running balances',
  'api/cash-day.test.ts': 'the daily close: sums over what moved since the last close',
  'api/till-concurrency.test.ts': 'bookings at the same time on a pool of connections',
  'api/refunds.test.ts': 'a refund booked in reverse while its order is locked',
  'api/stripe-money.test.ts': 'refunds and disputes to the cent',
  'api/stripe-reconciliation.test.ts': 'Stripe’s balance beside the books’ sums',
  'api/accounting.test.ts': 'totals per account as the driver parses them',
  'api/statistics.test.ts': 'sums and counts per period as the driver parses them',
  'api/statements.test.ts': 'a vendor’s sums per period',
  'api/datev-books.test.ts': 'every account’s figure summed, read beside concurrent credit reads',
  'api/vouchers.test.ts': 'one gap-free numbering held by a lock across receipts, cash book and payouts',
  'api/currency-path.test.ts': 'a sale, a counter visit, a payout and a close in five currencies, summed per account',
  // Locks and concurrency: a pool of connections where PGlite serialises everything.
  'api/orders.test.ts': 'one order per cart when "Pay" is sent many times at once',
  'api/payments.test.ts': 'hundreds of purchases at once, webhooks racing each other',
  'api/shop-forms.test.ts': 'one order when the form’s "Pay" is sent 100 times at once',
  'api/protocol.test.ts': 'concurrent changes of one row queued behind its lock',
  'api/rate-limits.test.ts': 'limits counted in the database by concurrent requests',
  'api/login-throttle.test.ts': 'failed logins counted by concurrent requests',
  'api/verify-throttle.test.ts': 'one look-up per window claimed by concurrent calls and two processes',
  'api/deliveries.test.ts': 'the outbox: deliveries claimed with SKIP LOCKED and leased',
  'api/webhooks-out.test.ts': 'outbound deliveries claimed, leased and retried',
  'api/sandbox.test.ts': 'the sandbox’s idempotency keys upserted by racing requests',
  'api/stripe-idempotency.test.ts': 'idempotency keys stored by upserts',
  'api/stripe-event-order.test.ts': 'events arriving before the payment they belong to, held and claimed',
  'api/receipt-wait.test.ts': 'long polling beside bookings, and a second process on one database',
  'api/vendor-deletion.test.ts': 'a vendor’s deletion racing a booking',
  'api/privacy.test.ts': 'anonymisation beside booked sales, erasure by a worker beside requests',
  'api/security.test.ts': 'a request timing out (the session’s statement timeout) while others are served',
  'api/independent-reads.test.ts': 'reads in a transaction one at a time on its one connection, which pg 9 demands',
  // Types, prepared statements and the session.
  'api/files.test.ts': 'bytea as the driver hands it over (a Buffer)',
  'api/fuzz.test.ts': 'huge and malformed numbers reaching the driver',
  'api/hot-rows.test.ts': 'the hot reads, prepared statements on PostgreSQL only',
  'api/period.test.ts': 'dates and time zones in SQL, in the session’s time zone',
  'api/backup.test.ts': 'backup, restore and the move between the engines',
  'unit/seed.test.ts': 'the demo seeded through each driver (dates, sequences)',
  'unit/reset.test.ts': 'the tests’ reset, which empties PostgreSQL by DELETE and PGlite by TRUNCATE',
};

/** Where a suite's file lies under tests/ (`api/ledger.test.ts`), as `onPostgresToo` names it. */
const testsDir = path.resolve(import.meta.dirname, '..');
const underTests = (file: string) => path.relative(testsDir, file).split(path.sep).join('/');

/** Whether a suite of this file runs on PostgreSQL too (when TEST_DATABASE_URL is set). */
export function runsOnPostgres(file: string): boolean {
  return process.env.TEST_ALL_ON_POSTGRES === '1' || underTests(file) in onPostgresToo;
}

/**
 * Declares a suite once per database engine: PGlite always, PostgreSQL when TEST_DATABASE_URL is set
 * and its file is in `onPostgresToo`. The database is reset to the demo newspaper before the suite;
 * call `t.reset()` for more. The body learns which engine it declares for, so that a test which does
 * not use the suite's database (a command run on a database of its own) is declared on one alone.
 */
export function describeApi(title: string, body: (t: ApiTest, engine: EngineName) => void): void {
  let file: string | undefined;
  for (const name of enginesUnderTest()) {
    if (name === 'postgres' && !(file && runsOnPostgres(file))) continue;
    file = describe(`${title} [${name}]`, function () {
      const t = {} as ApiTest;
      before(async function () {
        this.timeout(60_000);
        const e = await engine(name);
        Object.assign(t, {
          engine: name,
          db: e.db,
          config: e.config,
          // The suites read the API's English messages; tests/api/messages.test.ts covers the others.
          http: supertest.agent(e.server).set('Accept-Language', 'en'),
          auth: async (groups: string[] = ['backoffice'], claims: Record<string, unknown> = {}) =>
            `Bearer ${await e.issuer.mint({ groups, ...claims })}`,
          office: async () => `Bearer ${await e.issuer.mint({ groups: ['backoffice'], preferred_username: 'office' })}`,
          reset: () => resetDatabase(e.db),
        } satisfies ApiTest);
        await t.reset();
      });
      body(t, name);
    }).file;
  }
}
