import assert from 'node:assert/strict';
import fs from 'node:fs';
import pg from 'pg';
import { DEMO_NEWSPAPER_NAME, DEMO_VENDOR_COUNT } from '../../seeds/demo.ts';
import { testIssuer } from '../support/env.ts';
import { removeDir, startServer, tempDir, type RunningServer } from './server.ts';

// The foundation as a person meets it: `npm start` on an empty machine seeds the demo newspaper once,
// serves it, stops cleanly on SIGTERM and finds everything again on the next start.

async function json(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep null */
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown> & unknown[] };
}

/** Total from `Content-Range: vendors 0-30/31`, else the length of the page. */
async function vendorCount(server: RunningServer, token: string): Promise<number> {
  const res = await json(`${server.url}/api/vendors/?range=[0,999]`, { Authorization: `Bearer ${token}` });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
  return total ? Number(total) : (res.body as unknown[]).length;
}

/** Where the server's data lives in one run, and how to throw it away. */
interface Storage {
  databaseUrl?: string;
  dataDir: string;
  dispose(): Promise<void>;
}

const storages: Record<string, () => Promise<Storage>> = {
  pglite: () => {
    const dataDir = tempDir();
    return Promise.resolve({ dataDir, dispose: () => Promise.resolve(removeDir(dataDir)) });
  },
};
if (process.env.TEST_DATABASE_URL) {
  // A database of its own on the test PostgreSQL server, dropped afterwards.
  storages.postgres = async () => {
    const name = `street_paper_e2e_${process.pid}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const dataDir = tempDir(); // unused by PostgreSQL, but the server must not touch ./data
    return {
      databaseUrl: url.toString(),
      dataDir,
      dispose: async () => {
        removeDir(dataDir);
        await admin(`drop database if exists ${name} with (force)`);
      },
    };
  };
}

for (const [engine, makeStorage] of Object.entries(storages)) {
  describe(`e2e: the real server starts, seeds once, stops and restarts [${engine}]`, function () {
    this.timeout(120_000);
    let storage: Storage;
    let server: RunningServer | undefined;
    let token: string;

    before(async () => {
      storage = await makeStorage();
      const issuer = await testIssuer();
      token = await issuer.mint({ groups: ['backoffice'], preferred_username: 'office' });
    });

    after(async () => {
      await server?.stop().catch(() => undefined);
      await storage?.dispose();
    });

    const start = async () => {
      const issuer = await testIssuer();
      server = await startServer({
        dataDir: storage.dataDir,
        databaseUrl: storage.databaseUrl,
        env: { OIDC_ISSUER: issuer.issuer, OIDC_AUDIENCE: issuer.audience },
      });
      return server;
    };
    const stop = async () => {
      const code = await server!.stop(10_000);
      assert.equal(code, 0, `the server exits with 0 on SIGTERM\n${server!.stderr()}`);
      server = undefined;
    };

    it('serves the demo newspaper, survives a restart, and seeds only on the first start', async () => {
      // first start: an empty database gets the demo newspaper
      const first = await start();
      const out = first.stdout();
      assert.match(out, /Street newspaper shop is running \(demo newspaper seeded\)\./);
      assert.ok(out.includes(`Shop:        ${first.url}/v/DEMO-1`), out);
      assert.ok(out.includes(`Back office: ${first.url}/backoffice`), out);
      assert.ok(out.includes(`API:         ${first.url}/api/settings/`), out);
      assert.ok(
        out.includes(engine === 'pglite' ? `embedded PostgreSQL in ${storage.dataDir}` : 'PostgreSQL (DATABASE_URL)'),
        out,
      );
      // LOG_LEVEL=silent: the start banner, but no log lines
      assert.ok(!out.split('\n').some((line) => line.startsWith('{')), `log lines although LOG_LEVEL=silent:\n${out}`);
      if (engine === 'pglite')
        assert.ok(fs.readdirSync(storage.dataDir).length > 0, 'the data directory holds the database');

      const settings = await json(`${first.url}/api/settings/`);
      assert.equal(settings.status, 200);
      assert.equal(settings.body.newspaperName, DEMO_NEWSPAPER_NAME);

      const items = await json(`${first.url}/api/items/`);
      assert.equal(items.status, 200, JSON.stringify(items.body));
      const list = items.body as unknown as { name: string; price: number }[];
      assert.ok(Array.isArray(list) && list.length >= 3, JSON.stringify(list));
      assert.equal(list[0].name, 'Zeitung', 'the main item comes first');
      assert.equal(list[0].price, 300);

      assert.equal((await json(`${first.url}/api/vendors/check/DEMO-1/`)).status, 200);
      assert.equal((await json(`${first.url}/api/vendors/check/DEMO-OFF/`)).status, 404);
      assert.equal((await json(`${first.url}/api/vendors/check/NOBODY-99/`)).status, 404);
      assert.equal(await vendorCount(first, token), DEMO_VENDOR_COUNT + 1);

      await stop();

      // second start on the same data: everything is still there, nothing seeded twice
      const second = await start();
      assert.match(second.stdout(), /Street newspaper shop is running\./);
      assert.ok(!second.stdout().includes('demo newspaper seeded'), second.stdout());
      // publicUrl is the address this start serves at (a new port), not stored data: the rest is the same.
      const again = await json(`${second.url}/api/settings/`).then((r) => r.body);
      assert.equal(again.publicUrl, second.url);
      assert.deepEqual({ ...again, publicUrl: settings.body.publicUrl }, settings.body);
      assert.deepEqual(await json(`${second.url}/api/items/`).then((r) => r.body), items.body);
      assert.equal((await json(`${second.url}/api/vendors/check/DEMO-1/`)).status, 200);
      assert.equal(await vendorCount(second, token), DEMO_VENDOR_COUNT + 1);

      await stop();
    });
  });
}
