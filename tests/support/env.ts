import path from 'node:path';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/config.ts';
import { clientConfig, createDb, migrate, type Db } from '../../api/src/db/connection.ts';
import { listTables, quoteIdent, readSequences } from '../../api/src/maintenance/tables.ts';
import { oneRow } from '../../api/src/one-row.ts';
import { setLogSilent } from '../../api/src/log.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { startTestIssuer, type TestIssuer } from './issuer.ts';

setLogSilent(process.env.TEST_LOG !== '1');

export type EngineName = 'pglite' | 'postgres';

/** One database engine under test, shared by every test file for the whole run. */
export interface TestEngine {
  name: EngineName;
  db: Db;
  config: Config;
  app: ReturnType<typeof buildApp>;
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
  return { name, db, config, issuer, app: buildApp({ db, config }) };
}

export function engine(name: EngineName): Promise<TestEngine> {
  let started = engines.get(name);
  if (!started) {
    started = startEngine(name);
    engines.set(name, started);
  }
  return started;
}

/** The tables a reset empties: all but knex's and the sandbox's credentials. */
const resetTables = (db: Db) =>
  db
    .raw<{ rows: { tablename: string }[] }>(
      `select tablename from pg_tables where schemaname = current_schema()
         and tablename not like 'knex_migrations%' and tablename <> 'stripe_sandbox_credentials'`,
    )
    .then(({ rows }) => rows.map((r) => r.tablename));

/**
 * Runs `work` (one transaction) again when PostgreSQL chose it as a deadlock victim: a suite's own
 * server may still be at work when the next test resets (a sandbox retrying a webhook, say), and the
 * victim rolls back, so trying again is safe.
 */
async function retryDeadlock(work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
    }
  }
}

/**
 * The demo newspaper as seeding it left a schema: its rows (as JSON, with the statement that puts them
 * back) and every serial's position. Loading it back costs a handful of statements where seeding
 * again ran the seed's JavaScript.
 */
interface SeededSnapshot {
  tables: string[];
  /** Per table with seeded rows, in the order of their foreign keys: its insert and the rows' JSON. */
  inserts: { sql: string; rows: string }[];
  /** One statement setting every serial where the seed left it, as `restart identity` and the seed would. */
  sequences?: string;
  /**
   * How the tables are emptied. PostgreSQL takes about a second to TRUNCATE 34 tables (new files for
   * each table and index, hundreds of times per run), so there a superuser DELETEs with triggers off
   * and vacuums now and then. PGlite truncates in memory in tens of milliseconds, and its tables stay
   * as fresh as a new database's: a DELETE there would leave dead rows that nothing vacuums, and its
   * queries would grow several times slower within a few hundred resets.
   */
  empty: 'delete' | 'truncate';
  /** Resets since the last vacuum (DELETE only). */
  sinceVacuum: number;
}

/** DELETE leaves dead rows behind; a vacuum this often keeps the seeded tables a page or two. */
const vacuumEvery = 25;

const snapshots = new WeakMap<Db, Promise<SeededSnapshot>>();

/** Empties every table and seeds the demo as a first start does, and keeps what that left. */
async function seedAndSnapshot(db: Db): Promise<SeededSnapshot> {
  const tables = await resetTables(db);
  let snapshot: SeededSnapshot | undefined;
  await retryDeadlock(() =>
    db.transaction(async (trx) => {
      await trx.raw(`truncate table ${tables.map(quoteIdent).join(', ')} restart identity cascade`);
      await trx('settings').insert({ id: 1 });
      await seedOnFirstStart(trx);
      // Every now() of the seed is this transaction's start; a reset stamps its own instead.
      const seeded = oneRow(
        (
          await trx.raw<{ rows: { at: string; superuser: string }[] }>(
            `select now()::text as at, current_setting('is_superuser') as superuser`,
          )
        ).rows,
      );
      const seededAt = `'${seeded.at}'::timestamptz`;
      const listed = (await listTables(trx)).filter((t) => tables.includes(t.name));
      const inserts: SeededSnapshot['inserts'] = [];
      for (const table of listed) {
        const name = quoteIdent(table.name);
        const order = table.key.map((k) => quoteIdent(k.name)).join(', ');
        const { rows } = await trx.raw<{ rows: { rows: string | null }[] }>(
          `select json_agg(t)::text as rows from (select * from ${name} order by ${order}) t`,
        );
        if (!rows[0]?.rows) continue;
        const { rows: columns } = await trx.raw<{ rows: { name: string; type: string }[] }>(
          `select column_name as name, data_type as type from information_schema.columns
             where table_schema = current_schema() and table_name = ? and is_generated = 'NEVER'
             order by ordinal_position`,
          [table.name],
        );
        const values = columns.map(({ name: column, type }) =>
          type === 'timestamp with time zone'
            ? `case when x.${quoteIdent(column)} = ${seededAt} then now() else x.${quoteIdent(column)} end`
            : `x.${quoteIdent(column)}`,
        );
        inserts.push({
          sql: `insert into ${name} (${columns.map((c) => quoteIdent(c.name)).join(', ')})
                select ${values.join(', ')} from json_populate_recordset(null::${name}, ?::json) x`,
          rows: rows[0].rows,
        });
      }
      const serials = await readSequences(
        trx,
        tables.map((name) => ({ name, key: [], hasBytes: false })),
      );
      const sequences = serials.map(
        (s) => `setval(pg_get_serial_sequence('${quoteIdent(s.table)}', '${s.column}'), ${s.value}, ${s.isCalled})`,
      );
      snapshot = {
        tables,
        inserts,
        sequences: sequences.length ? `select ${sequences.join(', ')}` : undefined,
        empty: clientConfig(db).client === 'pg' && seeded.superuser === 'on' ? 'delete' : 'truncate',
        sinceVacuum: 0,
      };
    }),
  );
  return snapshot!;
}

/**
 * Empties every table and loads the demo newspaper again, so each suite starts from the same data:
 * the same rows, ids and serial positions as seeding again would give, stamped with this reset's
 * time. The first reset of a database seeds it and keeps a snapshot; later ones load the snapshot.
 * The sandbox's credentials stay: they belong to the installation, and every process keeps them once read.
 */
export async function resetDatabase(db: Db): Promise<void> {
  const known = snapshots.get(db);
  if (!known) {
    const made = seedAndSnapshot(db);
    snapshots.set(db, made);
    // A failed first seed is tried again by the next reset.
    made.catch(() => snapshots.delete(db));
    await made;
    return;
  }
  const snapshot = await known;
  await retryDeadlock(() =>
    db.transaction(async (trx) => {
      if (snapshot.empty === 'delete') {
        // Without triggers: the ledger's guards refuse a DELETE, and the rows go in any order.
        await trx.raw(`set local session_replication_role = replica`);
        await trx.raw(snapshot.tables.map((table) => `delete from ${quoteIdent(table)}`).join('; '));
        await trx.raw(`set local session_replication_role = origin`);
      } else {
        await trx.raw(`truncate table ${snapshot.tables.map(quoteIdent).join(', ')} cascade`);
      }
      // With triggers, as the seed's own inserts: a change of settings and items raises the shop's revision.
      for (const { sql, rows } of snapshot.inserts) await trx.raw(sql, [rows]);
      if (snapshot.sequences) await trx.raw(snapshot.sequences);
    }),
  );
  if (snapshot.empty === 'delete' && ++snapshot.sinceVacuum >= vacuumEvery) {
    snapshot.sinceVacuum = 0;
    await db.raw(`vacuum ${snapshot.tables.map(quoteIdent).join(', ')}`);
  }
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
 * The API suites (by file) that run on PGlite alone, also when TEST_DATABASE_URL is set, and why the
 * engine cannot change what they check. TEST_ALL_ON_POSTGRES=1 runs them on PostgreSQL too.
 *
 * Every other suite has a twin on PostgreSQL, a file added later too, because there the engines
 * differ: PostgreSQL has a pool of connections where PGlite has one (concurrent bookings, locks,
 * claims with SKIP LOCKED, leases, upserts racing, a slow statement beside quick ones), its driver
 * parses types PGlite hands over as they are (int8 sums of cents, numeric, bytea as Buffer), the hot
 * reads are prepared statements there (db/connection.ts hotRows), and its session has timeouts and a schema of
 * its own. In particular:
 * - money and the books: ledger*, payouts, payout-lines, credit, counter, till-concurrency,
 *   test-mode-cash, refunds, payments, orders, statements, statistics, accounting, datev, csv (sums
 *   and amounts as the driver parses them), vendors and vendor-me (each vendor's credit), privacy
 *   (erasure beside booked sales), vendor-deletion (deletion racing a booking), protocol;
 * - Stripe and the purchase: stripe-*, sandbox (deliveries claimed and leased), receipt-wait (long
 *   polling, and a second process on PostgreSQL), shop-page and hot-rows (the prepared hot reads);
 * - concurrency and locks: rate-limits, login-throttle, deliveries (the outbox), webhooks-out (claims
 *   and retries), security (a request timing out while others are served);
 * - types and SQL: files (bytea), fuzz (huge and malformed numbers reaching the driver), period and
 *   seed (dates and time zones in SQL), backup (copies between the engines), items and settings (the
 *   shop's copy and its revision trigger), health (readiness asks the database), external-provider
 *   (a vendor's credit as the driver parses it).
 */
const pgliteOnly: Record<string, string> = {
  'access.test.ts': 'who may call which route, by role; the rules behind a refusal have their own files',
  'embed-cors.test.ts': 'CORS and return addresses: headers and URLs made from the configuration',
  'http-contract.test.ts': 'the shape of answers and refusals (status, JSON, headers) before and beside queries',
  'login.test.ts': 'the embedded OpenID provider: its sessions and grants, JSON records by key',
  'map.test.ts': 'the vendor map: a plain read of locations',
  'messages.test.ts': 'the wording of refusals in German and English',
  'refusal-language.test.ts': 'the words of every refusal in German and English',
  'vendor-comments.test.ts': 'comments on a vendor: plain rows in and out',
  'vendor-locations.test.ts': 'a vendor’s places and working times: plain rows in and out',
};

/**
 * Declares a suite once per database engine: PGlite always, PostgreSQL when TEST_DATABASE_URL is set
 * (unless its file is in `pgliteOnly`). The database is reset to the demo newspaper before the suite;
 * call `t.reset()` for more.
 */
export function describeApi(title: string, body: (t: ApiTest) => void): void {
  let file: string | undefined;
  for (const name of enginesUnderTest()) {
    const alone = file && pgliteOnly[path.basename(file)] && process.env.TEST_ALL_ON_POSTGRES !== '1';
    if (name === 'postgres' && alone) continue;
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
          http: supertest.agent(e.app.callback()).set('Accept-Language', 'en'),
          auth: async (groups: string[] = ['backoffice'], claims: Record<string, unknown> = {}) =>
            `Bearer ${await e.issuer.mint({ groups, ...claims })}`,
          office: async () => `Bearer ${await e.issuer.mint({ groups: ['backoffice'], preferred_username: 'office' })}`,
          reset: () => resetDatabase(e.db),
        } satisfies ApiTest);
        await t.reset();
      });
      body(t);
    }).file;
  }
}
