// `npm run bench -- load`: the shop under load on this machine, on loopback, with the app in this
// process and the local Stripe sandbox. First the ceiling: a bare Koa handler answering a constant
// JSON. Then, on PGlite (in memory) and on PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL,
// schema `bench_load`, emptied first; skipped with a note when neither is set), each with the demo
// newspaper:
// - whole purchases, end to end, by a fixed number of customers (16, then 64) buying one after the
//   other (a 3 s ramp-up, then twice BENCH_SECONDS counted): POST /api/orders, paying on the sandbox's
//   card page, the sandbox's webhook booking it, GET /api/orders/:token until it says paid.
//   Purchases per second and the p50/p99 of a whole purchase;
// - the hot single routes with autocannon (10 connections, 1 s warm-up, then BENCH_SECONDS) in a
//   process of its own, so that the load does not take the app's thread (bench/route-load.ts), and
//   on PostgreSQL bare Koa with one indexed pg select right before them, loaded alike: requests per
//   second, p50 and p99.
// Afterwards it checks the books: every paid order booked exactly once, no unpaid order booked.
// Tiny (the tests): PGlite only, two customers with one purchase each, and each route for a tenth of
// a second by one connection without warm-up, all routes from one load process; it throws at the
// first failure.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pg from 'pg';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/foundations/config.ts';
import { createDb, migrate, type Db } from '../api/src/db/connection.ts';
import { setLogSilent } from '../api/src/foundations/log.ts';
import { oneRow } from '../api/src/foundations/one-row.ts';
import { seedOnFirstStart } from '../seeds/index.ts';
import { buyInShop, type ShopOrder } from '../tests/e2e/purchase.ts';
import { removeDir, repoRoot, seededCopy } from '../tests/e2e/server.ts';
import { ensureBuild } from './build.ts';
import { runInOwnProcess } from './child.ts';
import { percentile, printTable, type BenchOptions, type Figure } from './figures.ts';
import type { RouteResult, RouteTask } from './route-load.ts';

const schema = 'bench_load';
const connections = 10;
const customerCounts = [16, 64];
/** How often a waiting customer asks the receipt again: short, so the figure is the booking's time. */
const pollMs = 10;
/** A purchase not paid after this long counts as failed. */
const purchaseTimeoutMs = 30_000;
/** Far above any load this machine can make: the bench measures the shop, not its rate limits. */
const unlimited = '1000000000';

const seconds = () => Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 5) || 5, 1), 60);
/** How long a tiny bench loads each route: it checks that the route answers, not how fast. */
const tinySeconds = 0.1;

interface Listening {
  server: http.Server;
  url: string;
}

async function listen(handler?: http.RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close({ server }: Listening): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

type Measured = RouteResult;

interface Target {
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

/** autocannon against each URL in turn, from one process of its own (bench/route-load.ts). */
function cannon(targets: Target[], tiny: boolean): Promise<Measured[]> {
  const tasks: RouteTask[] = targets.map(({ url, body, headers = {} }) => ({
    url,
    ...(tiny ? { connections: 1, seconds: tinySeconds, warmUpSeconds: 0 } : { connections, seconds: seconds() }),
    ...(body ? { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } } : { headers }),
  }));
  return runInOwnProcess<RouteResult[]>('bench/route-load.ts', tasks);
}

interface PurchaseRun {
  /** Whole purchases finished within the measured time, in ms each. */
  latencies: number[];
  failures: number;
  firstFailure?: string;
  tokens: string[];
}

/** Not measured: every customer is in the middle of a purchase before the clock starts. */
const rampUpMs = (tiny: boolean) => (tiny ? 0 : 3000);
/**
 * A purchase takes seconds under load: twice the bench's duration, so each customer finishes several.
 * Tiny: each customer starts one purchase, and it counts however long it takes.
 */
const purchaseSeconds = (tiny: boolean) => (tiny ? tinySeconds : 2 * seconds());

/**
 * `customers` customers buying one after the other, all at the same time: first for the ramp-up,
 * then for the measured time, in which the finished purchases are counted.
 */
async function purchases(
  base: string,
  customers: number,
  orderOf: (customer: number) => ShopOrder,
  tiny: boolean,
): Promise<PurchaseRun> {
  const from = performance.now() + rampUpMs(tiny);
  const end = from + purchaseSeconds(tiny) * 1000;
  const run: PurchaseRun = { latencies: [], failures: 0, tokens: [] };
  await Promise.all(
    Array.from({ length: customers }, async (_, customer) => {
      while (performance.now() < end) {
        const started = performance.now();
        try {
          run.tokens.push(await buyInShop(base, orderOf(customer), { pollMs, timeoutMs: purchaseTimeoutMs }));
          // One finished in the ramp-up or after the time is up is checked in the books but not counted.
          const finished = performance.now();
          if (finished >= from && (finished <= end || tiny)) run.latencies.push(finished - started);
        } catch (error) {
          run.failures++;
          run.firstFailure ??= String(error);
        }
      }
    }),
  );
  return run;
}

/**
 * Orders paid but not booked exactly once: the customers' money booked must be the order's total
 * and its card fee one row. Also orders booked although not paid. Both must be zero.
 */
export async function wrongBookings(db: Db): Promise<{ paid: number; wrong: number }> {
  const { rows } = await db.raw<{ rows: { paid: number; wrong: number }[] }>(`
    select count(*) filter (where o.status = 'paid')::integer as paid,
      count(*) filter (where (o.status = 'paid') <> (coalesce(b.received, 0) = o.amount_total and b.fees = 1) or (o.status <> 'paid' and b.rows > 0))::integer as wrong
    from orders o
    left join lateral (
      select sum(r.amount) filter (where r.sender_id = c.id) as received, count(*) filter (where r.kind = 'fee') as fees, count(*) as rows
      from ledger_rows r cross join (select id from ledger_accounts where kind = 'customers') c where r.order_id = o.id
    ) b on true`);
  return oneRow(rows);
}

/**
 * The app on a fresh database with the demo newspaper, listening on loopback. Tiny: on a copy of the
 * tests' seeded data directory (migrating and seeding anew cost seconds of CPU), which `dataDir` names.
 */
async function startShop(
  databaseUrl: string | undefined,
  tiny: boolean,
): Promise<Listening & { db: Db; dataDir?: string }> {
  if (databaseUrl) {
    const admin = createDb({ databaseUrl, dataDir: '' });
    await admin.raw(`drop schema if exists ${schema} cascade; create schema ${schema}`);
    await admin.destroy();
  }
  const dataDir = tiny ? await seededCopy() : undefined;
  const db = createDb({ databaseUrl, dataDir: dataDir ?? 'memory://', schema: databaseUrl ? schema : undefined });
  await migrate(db);
  await seedOnFirstStart(db);
  const shop = await listen();
  // The sandbox calls back (API, webhooks) at PUBLIC_URL, so it is the address just opened.
  const config = loadConfig({
    PORT: '0',
    PUBLIC_URL: shop.url,
    DATA_DIR: 'memory://',
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    ORDER_RATE_LIMIT: unlimited,
    VENDOR_CHECK_RATE_LIMIT: unlimited,
  });
  const handle = buildApp({ db, config, distDir: `${repoRoot}/dist` }).callback();
  shop.server.on('request', (req, res) => void handle(req, res));
  return { ...shop, db, dataDir };
}

/**
 * The ceiling of a route that reads the database: bare Koa answering the vendor of one indexed
 * select through a pg pool of the app's size, on the schema the app uses.
 */
async function selectCeiling(databaseUrl: string): Promise<Measured> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema}` });
  const app = new Koa();
  app.use(async (ctx) => {
    const { rows } = await pool.query<{ license_id: string; first_name: string; account_proof_url: string | null }>(
      'select license_id, first_name, account_proof_url from vendors where lower(license_id) = lower($1) and deleted_at is null',
      ['DEMO-1'],
    );
    ctx.body = rows[0];
  });
  const handle = app.callback();
  const server = await listen((req, res) => void handle(req, res));
  try {
    const [measured] = await cannon([{ url: server.url }], false);
    return measured;
  } finally {
    await close(server);
    await pool.end();
  }
}

/** In a tiny bench, anything that failed ends it: a route it calls changed under it. */
function failTiny(tiny: boolean, failed: boolean, what: () => string): void {
  if (tiny && failed) throw new Error(`Load bench: ${what()}`);
}

async function benchEngine(
  part: string,
  databaseUrl: string | undefined,
  ceiling: number,
  tiny: boolean,
): Promise<Figure[]> {
  const shop = await startShop(databaseUrl, tiny);
  const figures: Figure[] = [];

  const ms = (name: string, value: number) => figures.push({ part, name, value, unit: 'ms', digits: 1 });
  try {
    const item = (await shop.db('items').where({ name: 'Zeitung' }).first<{ id: number }>('id')).id;
    const vendors = (await shop
      .db('vendors')
      .where({ is_disabled: false })
      .whereNull('deleted_at')
      .orderBy('id')
      .pluck('license_id')) as string[];
    // Each customer buys a paper from their own vendor, as at the street corners.
    const orderOf = (customer: number): ShopOrder => ({
      vendor: vendors[customer % vendors.length],
      entries: [{ item, quantity: 1 }],
      tip: 0,
    });
    const paidToken = await buyInShop(shop.url, orderOf(0)); // warm-up, and a receipt to ask for

    const details: string[][] = [];
    for (const customers of tiny ? [2] : customerCounts) {
      const run = await purchases(shop.url, customers, orderOf, tiny);
      if (run.firstFailure) console.log(`  a purchase failed: ${run.firstFailure}`);
      failTiny(tiny, run.failures > 0, () => `a purchase failed: ${run.firstFailure}`);
      const rate = run.latencies.length / purchaseSeconds(tiny);
      figures.push({
        part,
        name: `whole purchases, ${customers} customers`,
        value: rate,
        unit: 'purchases/s',
        digits: 1,
      });
      ms(`whole purchase p50, ${customers} customers`, percentile(run.latencies, 50));
      ms(`whole purchase p99, ${customers} customers`, percentile(run.latencies, 99));
      figures.push({
        part,
        name: `failed purchases, ${customers} customers`,
        value: run.failures,
        unit: 'purchases',
        budget: 0,
      });
      details.push([
        `whole purchases, ${customers} customers`,
        `${rate.toFixed(1)}/s`,
        percentile(run.latencies, 50).toFixed(1),
        percentile(run.latencies, 99).toFixed(1),
        '',
        '',
        String(run.failures),
      ]);
      console.log(
        `  measured ${customers} customers: ${run.latencies.length} purchases within the time, ${run.tokens.length} in all`,
      );
    }

    // On PostgreSQL the hot routes are held against bare Koa with one indexed select (≥ 50 %),
    // measured right before them, when the purchases' last webhooks have settled alike for both.
    let selectBase: Measured | undefined;
    if (databaseUrl) {
      selectBase = await selectCeiling(databaseUrl);
      console.log(
        `  ceiling, bare Koa + one indexed pg select: ${selectBase.rps.toFixed(0)} req/s, p50 ${selectBase.p50.toFixed(1)} ms, p99 ${selectBase.p99.toFixed(1)} ms`,
      );
      figures.push({
        part,
        name: 'ceiling: bare Koa + one indexed pg select req/s',
        value: selectBase.rps,
        unit: 'req/s',
      });
    }
    const routes = [
      { name: 'GET /api/vendors/check/DEMO-1/', url: `${shop.url}/api/vendors/check/DEMO-1/`, hot: true },
      { name: 'GET /api/items/', url: `${shop.url}/api/items/` },
      { name: 'GET /v/DEMO-1 (shop page)', url: `${shop.url}/v/DEMO-1`, hot: true },
      // As phones ask for it: compressed (414/s with brotli against 500/s without, when last measured).
      { name: 'GET /v/DEMO-1, brotli', url: `${shop.url}/v/DEMO-1`, headers: { 'accept-encoding': 'br' } },
      { name: 'GET /api/orders/:token (receipt)', url: `${shop.url}/api/orders/${paidToken}` },
      { name: 'POST /api/orders', url: `${shop.url}/api/orders`, body: JSON.stringify(orderOf(1)) },
    ];
    let failedRequests = 0;
    // Tiny: every route from one load process; else each from its own, each printed as it ends.
    const loaded = tiny ? await cannon(routes, true) : [];
    for (const [i, route] of routes.entries()) {
      const measured = tiny ? loaded[i] : (await cannon([route], false))[0];
      failTiny(tiny, measured.failures > 0, () => `${route.name} answered ${measured.failures} time(s) with an error`);
      figures.push({ part, name: `${route.name} req/s`, value: measured.rps, unit: 'req/s' });
      ms(`${route.name} p50`, measured.p50);
      ms(`${route.name} p99`, measured.p99);
      failedRequests += measured.failures;
      const ofSelect = selectBase && (measured.rps / selectBase.rps) * 100;
      // the vendor check and the shop page reach at least half of the select ceiling.
      if (ofSelect !== undefined && 'hot' in route)
        figures.push({
          part,
          name: `${route.name} vs bare Koa + pg select`,
          value: ofSelect,
          unit: '%',
          digits: 1,
          minimum: 50,
        });
      details.push([
        route.name,
        `${measured.rps.toFixed(0)}/s`,
        measured.p50.toFixed(1),
        measured.p99.toFixed(1),
        `${((measured.rps / ceiling) * 100).toFixed(1)} %`,
        ofSelect === undefined ? '' : `${ofSelect.toFixed(1)} %`,
        String(measured.failures),
      ]);
      console.log(`  measured ${route.name}`);
    }
    figures.push({
      part,
      name: 'failed requests of the single routes',
      value: failedRequests,
      unit: 'requests',
      budget: 0,
    });

    // The last payments' events may still be on their way (the sandbox sends more than one per
    // payment); they land first, so a second booking by a late one would show in the check.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const books = await wrongBookings(shop.db);
    failTiny(tiny, books.wrong > 0, () => `${books.wrong} paid order(s) not booked exactly once`);
    figures.push({
      part,
      name: `paid orders not booked exactly once (of ${books.paid})`,
      value: books.wrong,
      unit: 'orders',
      budget: 0,
    });

    console.log('');
    printTable([['target', 'rate', 'p50 ms', 'p99 ms', 'vs bare', 'vs select', 'failed'], ...details], [0]);
    console.log(`  ${books.paid} orders paid, ${books.wrong} of them not booked exactly once\n`);
  } finally {
    await close(shop);
    await shop.db.destroy();
    if (shop.dataDir) removeDir(shop.dataDir);
  }
  return figures;
}

export async function benchLoad({ tiny = false }: BenchOptions = {}): Promise<Figure[]> {
  ensureBuild();
  setLogSilent(true);
  // Tiny runs beside other tests, which may use the same PostgreSQL: its schema would be shared.
  const databaseUrl = tiny ? undefined : process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
  console.log(
    `Load bench: loopback; the app and its purchases in this process, the single routes loaded from another; ${tiny ? tinySeconds : seconds()} s per measurement (BENCH_SECONDS)`,
  );

  const bareApp = new Koa();
  bareApp.use((ctx) => {
    ctx.body = { status: 'ok' };
  });
  const bareHandle = bareApp.callback();
  const bare = await listen((req, res) => void bareHandle(req, res));
  const [ceiling] = await cannon([{ url: bare.url }], tiny).finally(() => close(bare));
  failTiny(tiny, ceiling.failures > 0, () => 'bare Koa answered with an error');
  console.log(
    `  ceiling, bare Koa with a constant JSON: ${ceiling.rps.toFixed(0)} req/s, p50 ${ceiling.p50.toFixed(1)} ms, p99 ${ceiling.p99.toFixed(1)} ms\n`,
  );
  const figures: Figure[] = [
    { part: 'load', name: 'ceiling: bare Koa, constant JSON req/s', value: ceiling.rps, unit: 'req/s' },
    { part: 'load', name: 'ceiling: bare Koa p50', value: ceiling.p50, unit: 'ms', digits: 1 },
    { part: 'load', name: 'ceiling: bare Koa p99', value: ceiling.p99, unit: 'ms', digits: 1 },
  ];

  console.log('PGlite (in memory):');
  figures.push(...(await benchEngine('load PGlite', undefined, ceiling.rps, tiny)));
  if (databaseUrl) {
    console.log(`PostgreSQL (schema ${schema}):`);
    figures.push(...(await benchEngine('load PostgreSQL', databaseUrl, ceiling.rps, false)));
  } else if (!tiny) {
    console.log(
      'PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to measure it too.\n',
    );
  }
  return figures;
}
