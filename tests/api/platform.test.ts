import assert from 'node:assert/strict';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrate, pgCode, type Db } from '../../api/src/db/connection.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { addPaper, migratePlatform, paperDb, removePaper, schemaOf } from '../../api/src/platform/papers.ts';
import { paperConfig, startPlatform, type Platform } from '../../api/src/platform/serve.ts';
import { preparePaper } from '../../api/src/startup/paper.ts';
import { loginWithPkce } from '../support/oidc-flow.ts';

/**
 * Many papers in one process: two papers added to a fresh PostgreSQL database as `npm run paper --
 * add --demo` adds them, served by one handler that picks the paper by the request's Host. Each
 * answers with its own settings and currency, an unknown host with 404, one paper's login is refused
 * at the other's host, and PostgreSQL itself keeps one paper's role out of the other's schema.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const suite = adminUrl ? describe : describe.skip;

suite(`many papers, one process${adminUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`, function () {
  this.timeout(120_000);
  const database = `platform_test_${process.pid}`;
  // Roles belong to the whole PostgreSQL cluster, so the slugs carry the process too.
  const a = `a-${process.pid}`;
  const b = `b-${process.pid}`;
  const secret = 'platform test secret';
  let databaseUrl: string;
  let admin: Db;
  let platform: Platform;
  let server: http.Server;
  let port: number;
  const lookup = dns.lookup;

  /** A GET at the paper's host through the one listening server, as a browser sends it. */
  const get = (host: string, pathname: string, token?: string) =>
    fetch(`http://${host}:${port}${pathname}`, {
      headers: { Accept: 'application/json, text/html', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });

  before(async function () {
    // Browsers resolve every name under .localhost to this machine; Node asks the system, which may not.
    (dns as { lookup: unknown }).lookup = (host: string, ...rest: unknown[]) =>
      (lookup as (...args: unknown[]) => void)(host.endsWith('.localhost') ? '127.0.0.1' : host, ...rest);
    const root = createDb({ databaseUrl: adminUrl, dataDir: '' });
    await root.raw(`drop database if exists ${database} with (force)`);
    await root.raw(`create database ${database}`);
    await root.destroy();
    const url = new URL(adminUrl!);
    url.pathname = `/${database}`;
    databaseUrl = url.href;
    admin = createDb({ databaseUrl, dataDir: '' });

    // The one server listens first: each paper's address carries its port.
    let handle: http.RequestListener = (_req, res) => res.end();
    server = http.createServer((req, res) => handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PLATFORM_DOMAIN: 'localhost',
      PLATFORM_SECRET: secret,
      PORT: String(port),
      OIDC_ISSUER: '',
      LOG_LEVEL: 'silent',
    };
    const base = loadConfig(env);

    await migratePlatform(admin);
    for (const [slug, host, currency, country, name] of [
      [a, 'a.localhost', 'EUR', 'DE', 'Straßenblatt A'],
      [b, 'b.localhost', 'CHF', 'CH', 'Surprise B'],
    ] as const) {
      const paper = await addPaper(admin, secret, { slug, hosts: [host], currency, country });
      const db = await paperDb(admin, databaseUrl, secret, slug);
      await migrate(db);
      await preparePaper(db, { ...paperConfig(env, base, paper), seedDemo: true, seedHistory: false });
      await db('settings').where({ id: 1 }).update({ newspaper_name: name });
      await db.destroy();
    }
    platform = await startPlatform(admin, env, base, fakeBuild());
    handle = platform.handle;
  });

  after(async () => {
    (dns as { lookup: unknown }).lookup = lookup;
    await platform?.stop();
    server?.close();
    if (admin) {
      for (const slug of [a, b]) await removePaper(admin, slug).catch(() => undefined);
      await admin.destroy();
    }
    const root = createDb({ databaseUrl: adminUrl, dataDir: '' });
    await root.raw(`drop database if exists ${database} with (force)`);
    await root.destroy();
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
      platform.papers.map((p) => p.url),
      [`http://a.localhost:${port}`, `http://b.localhost:${port}`],
    );
  });

  it('answers a host no paper lists with 404, never with a paper', async () => {
    for (const host of ['c.localhost', 'localhost', '127.0.0.1']) {
      const response = await get(host, '/api/settings/');
      assert.equal(response.status, 404, host);
      assert.match(await response.text(), /No newspaper is served at this address/);
    }
  });

  it("refuses a's staff token at b's host", async () => {
    const office = await loginWithPkce(`http://a.localhost:${port}`, 'office', 'office');
    assert.equal((await get('a.localhost', '/api/vendors/', office.access_token)).status, 200);
    assert.equal((await get('b.localhost', '/api/vendors/', office.access_token)).status, 401);
  });

  it("lets PostgreSQL refuse a's role every row of b's schema", async () => {
    const db = await paperDb(admin, databaseUrl, secret, a);
    try {
      assert.equal(((await db.raw('select count(*)::int as n from vendors')).rows[0] as { n: number }).n > 0, true);
      await assert.rejects(db.raw(`select * from ${schemaOf(b)}.vendors`), (error: unknown) => {
        assert.equal(pgCode(error), '42501', String(error)); // insufficient_privilege
        return true;
      });
      await assert.rejects(db.raw('select * from platform.papers'), (error: unknown) => pgCode(error) === '42501');
      await assert.rejects(db.raw(`set role ${schemaOf(b)}`), (error: unknown) => pgCode(error) === '42501');
    } finally {
      await db.destroy();
    }
  });
});

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
