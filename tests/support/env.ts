import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig, type Config } from '../../api/src/config.ts';
import { createDb, migrate, type Db } from '../../api/src/db.ts';
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

/**
 * Empties every table and loads the demo newspaper again, so each suite starts from the same data.
 * The sandbox's credentials stay: they belong to the installation, and every process keeps them once read.
 */
export async function resetDatabase(db: Db): Promise<void> {
  const { rows } = await db.raw<{ rows: { tablename: string }[] }>(
    `select tablename from pg_tables where schemaname = current_schema()
       and tablename not like 'knex_migrations%' and tablename <> 'stripe_sandbox_credentials'`,
  );
  // A suite's own server may still be at work when the next test resets (a sandbox retrying a
  // webhook, say); PostgreSQL then picks one of the two as a deadlock victim. It rolls back, so
  // trying again is safe.
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (trx) => {
        await trx.raw(`truncate table ${rows.map((r) => `"${r.tablename}"`).join(', ')} restart identity cascade`);
        await trx('settings').insert({ id: 1 });
        await seedOnFirstStart(trx);
      });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
    }
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
 * Declares a suite once per database engine (PGlite always, PostgreSQL when TEST_DATABASE_URL is
 * set). The database is reset to the demo newspaper before the suite; call `t.reset()` for more.
 */
export function describeApi(title: string, body: (t: ApiTest) => void): void {
  for (const name of enginesUnderTest()) {
    describe(`${title} [${name}]`, function () {
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
    });
  }
}
