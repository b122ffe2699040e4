// `npm run bench -- papers`: many papers in one process, against one paper's installation, in the
// same run on the same PostgreSQL (BENCH_DATABASE_URL, else TEST_DATABASE_URL; skipped without):
// - BENCH_PAPERS demo papers (50 unless set) added with `npm run paper -- add --demo`, as an
//   operator adds them, into a database of the bench's own (dropped with the papers' roles after);
// - the platform started in this process and every paper's hot paths asked once, so each paper's
//   app, pool and caches are built; then the process's memory after a full garbage collection, against
//   the same process before the start: the memory one paper costs, and PostgreSQL's connections it holds;
// - the hot paths loaded from a process of their own (autocannon, 10 connections), each request at
//   the next paper's host in turn, and the same routes of a single paper's installation (the
//   embedded default's shape: one app, one pool) on a schema of that database, in turns: requests per
//   second of the platform as a share of the single paper's.
// Tiny (the tests): two papers, each route for a tenth of a second; it throws at the first error.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildApp } from '../api/src/app.ts';
import { createDb, migrate } from '../api/src/db/connection.ts';
import { loadConfig } from '../api/src/foundations/config.ts';
import { setLogSilent } from '../api/src/foundations/log.ts';
import { startPlatform } from '../api/src/platform/serve.ts';
import { resolveLocalhostNames } from '../api/src/startup/localhost-names.ts';
import { seedOnFirstStart } from '../seeds/index.ts';
import { repoRoot } from '../tests/e2e/server.ts';
import { platformDatabase, runPaper } from '../tests/support/platform.ts';
import { ensureBuild } from './build.ts';
import { runInOwnProcess } from './child.ts';
import { median, printTable, type BenchOptions, type Figure } from './figures.ts';
import type { RouteResult, RouteTask } from './route-load.ts';

const part = 'papers';
const connections = 10;
const seconds = () => Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 5) || 5, 1), 60);
const paperCount = () => Math.min(Math.max(Number(process.env.BENCH_PAPERS ?? 50) || 50, 2), 200);
/** Turns of single paper and platform, each route: the machine's speed drifts within a sitting. */
const turns = 3;
/** Papers added at a time: each `npm run paper` is a process that mostly waits on PostgreSQL. */
const addingAtOnce = 4;
const unlimited = '1000000000';
/** Longer than a pool keeps an unused connection (30 s). */
const idleWaitMs = 45_000;

const hotPaths = [
  { name: 'GET /api/vendors/check/DEMO-1/', path: '/api/vendors/check/DEMO-1/' },
  { name: 'GET /v/DEMO-1 (shop page)', path: '/v/DEMO-1' },
  { name: 'GET /api/items/', path: '/api/items/' },
];

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** The process's memory after a full collection, so what is measured is what stays. */
function settledMemory(): { rss: number; heap: number } {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  // external holds the Buffers too (the pools' sockets, the compressed pages).
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heap: heapUsed + external };
}

const mb = (bytes: number) => bytes / 1024 / 1024;

export async function benchPapers({ tiny = false }: BenchOptions = {}): Promise<Figure[]> {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    console.log(
      'Papers bench skipped: it needs PostgreSQL; set BENCH_DATABASE_URL or TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).\n',
    );
    return [];
  }
  ensureBuild();
  setLogSilent(true);
  resolveLocalhostNames();
  const count = tiny ? 2 : paperCount();
  const database = await platformDatabase(serverUrl, `bench_papers_${process.pid}`);
  const figures: Figure[] = [];
  const closing: (() => Promise<unknown>)[] = [];
  try {
    // The one server listens first: each paper's address carries its port.
    let handle: http.RequestListener = (_req, res) => res.end();
    const platformServer = await listen((req, res) => handle(req, res));
    closing.push(() => close(platformServer.server));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: database.url,
      PLATFORM_DOMAIN: 'localhost',
      PLATFORM_SECRET: `bench secret ${process.pid}`,
      PORT: String(platformServer.port),
      OIDC_ISSUER: '',
      LOG_LEVEL: 'silent',
      STRIPE_SANDBOX: 'true',
      ORDER_RATE_LIMIT: unlimited,
      VENDOR_CHECK_RATE_LIMIT: unlimited,
    };
    // Roles belong to the whole cluster: the slugs carry the process, as the tests' do.
    const slugs = Array.from({ length: count }, (_, i) => `bench-${process.pid}-${i + 1}`);
    console.log(`Papers bench: ${count} demo papers on ${database.url.replace(/\/\/[^@]*@/, '//')}`);

    const addStarted = performance.now();
    for (let i = 0; i < slugs.length; i += addingAtOnce)
      await Promise.all(
        slugs.slice(i, i + addingAtOnce).map(async (slug) => {
          const added = await runPaper(env, 'add', slug, '--demo');
          if (added.code !== 0) throw new Error(`npm run paper -- add ${slug} failed:\n${added.out}`);
        }),
      );
    const addSeconds = (performance.now() - addStarted) / 1000;
    figures.push({
      part,
      name: `adding a demo paper (npm run paper, ${addingAtOnce} at a time)`,
      value: (addSeconds / count) * addingAtOnce,
      unit: 's',
      digits: 1,
    });
    console.log(`  ${count} papers added in ${addSeconds.toFixed(0)} s`);

    const papersConnections = async () => {
      const { rows } = await database.admin.raw<{ rows: { n: number }[] }>(
        `select count(*)::integer as n from pg_stat_activity where datname = current_database() and usename like 'paper\\_%'`,
      );
      return rows[0].n;
    };
    // PostgreSQL refuses connections beyond max_connections: a start of every paper at once must fit.
    const { rows: limit } = await database.admin.raw<{ rows: { max: number }[] }>(
      `select current_setting('max_connections')::integer as max`,
    );
    let peakConnections = 0;
    const sampling = setInterval(
      () =>
        void papersConnections().then(
          (n) => (peakConnections = Math.max(peakConnections, n)),
          () => {},
        ),
      100,
    );
    const before = settledMemory();
    const startedAt = performance.now();
    const platform = await startPlatform(database.admin, env, loadConfig(env), `${repoRoot}/dist`);
    closing.unshift(() => platform.stop());
    const startSeconds = (performance.now() - startedAt) / 1000;
    handle = platform.handle;
    const unserved = platform.papers().filter((paper) => !paper.url);
    if (unserved.length) throw new Error(`papers not served: ${JSON.stringify(unserved)}`);

    const hosts = slugs.map((slug) => `${slug}.localhost:${platformServer.port}`);
    // Every paper's hot paths once: its app, pool and caches are made on the first request.
    for (const host of hosts)
      for (const route of hotPaths) {
        const response = await fetch(`http://${host}${route.path}`);
        if (!response.ok) throw new Error(`${route.name} at ${host} answered ${response.status}`);
        await response.arrayBuffer();
      }
    const after = settledMemory();
    clearInterval(sampling);
    const rssPerPaper = mb(after.rss - before.rss) / count;
    const heapPerPaper = mb(after.heap - before.heap) / count;
    figures.push(
      { part, name: `platform start, ${count} papers`, value: startSeconds, unit: 's', digits: 1 },
      { part, name: 'memory per paper (resident)', value: rssPerPaper, unit: 'MB', digits: 2 },
      { part, name: 'memory per paper (JavaScript heap and buffers)', value: heapPerPaper, unit: 'MB', digits: 2 },
      {
        part,
        name: 'PostgreSQL connections per paper, at most during the start and the first requests',
        value: peakConnections / count,
        unit: 'connections',
        digits: 1,
      },
    );
    console.log(
      `  started in ${startSeconds.toFixed(1)} s; resident ${mb(before.rss).toFixed(0)} → ${mb(after.rss).toFixed(0)} MB, heap ${mb(before.heap).toFixed(0)} → ${mb(after.heap).toFixed(0)} MB; at most ${peakConnections} connections of the papers' roles (max_connections ${limit[0].max})`,
    );

    // One paper's installation on the same PostgreSQL, as `npm start` runs one paper.
    const schema = `bench_single_${process.pid}`;
    await database.admin.raw(`create schema ${schema}`);
    const singleDb = createDb({ databaseUrl: database.url, dataDir: '', schema });
    closing.push(() => singleDb.destroy());
    await migrate(singleDb);
    await seedOnFirstStart(singleDb);
    let singleHandle: http.RequestListener = (_req, res) => res.end();
    const single = await listen((req, res) => singleHandle(req, res));
    closing.unshift(() => close(single.server));
    const singleConfig = loadConfig({
      PORT: String(single.port),
      PUBLIC_URL: `http://127.0.0.1:${single.port}`,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      ORDER_RATE_LIMIT: unlimited,
      VENDOR_CHECK_RATE_LIMIT: unlimited,
    });
    const singleApp = buildApp({ db: singleDb, config: singleConfig, distDir: `${repoRoot}/dist` }).callback();
    singleHandle = (req, res) => void singleApp(req, res);

    const load = (port: number, path: string, paperHosts?: string[]): RouteTask => ({
      url: `http://127.0.0.1:${port}${path}`,
      headers: {},
      ...(paperHosts ? { hosts: paperHosts } : {}),
      ...(tiny ? { connections: 1, seconds: 0.1, warmUpSeconds: 0 } : { connections, seconds: seconds() }),
    });
    const details: string[][] = [];
    for (const route of hotPaths) {
      const singleRuns: RouteResult[] = [];
      const platformRuns: RouteResult[] = [];
      for (let turn = 0; turn < (tiny ? 1 : turns); turn++) {
        const [one, many] = await runInOwnProcess<RouteResult[]>('bench/route-load.ts', [
          load(single.port, route.path),
          load(platformServer.port, route.path, hosts),
        ]);
        singleRuns.push(one);
        platformRuns.push(many);
      }
      const failures = [...singleRuns, ...platformRuns].reduce((sum, run) => sum + run.failures, 0);
      if (failures) throw new Error(`${route.name} answered ${failures} time(s) with an error`);
      const one = median(singleRuns.map((run) => run.rps));
      const many = median(platformRuns.map((run) => run.rps));
      figures.push(
        { part, name: `${route.name}, one paper's installation req/s`, value: one, unit: 'req/s' },
        {
          part,
          name: `${route.name}, ${count} papers, each request the next paper's req/s`,
          value: many,
          unit: 'req/s',
        },
        { part, name: `${route.name}, ${count} papers vs one paper`, value: (many / one) * 100, unit: '%', digits: 1 },
      );
      details.push([route.name, `${one.toFixed(0)}/s`, `${many.toFixed(0)}/s`, `${((many / one) * 100).toFixed(1)} %`]);
    }
    if (!tiny) {
      // A pool lets a connection go after 30 s unused (tarn's idleTimeoutMillis); the papers' jobs
      // still ask now and then. What an idle paper holds is what bounds the papers per PostgreSQL.
      await new Promise((resolve) => setTimeout(resolve, idleWaitMs));
      const idle = await papersConnections();
      figures.push({
        part,
        name: `PostgreSQL connections per paper, ${idleWaitMs / 1000} s without a request`,
        value: idle / count,
        unit: 'connections',
        digits: 2,
      });
      console.log(`  ${idle} connections of the papers' roles after ${idleWaitMs / 1000} s without a request`);
    }
    console.log('');
    printTable([['hot path', 'one paper', `${count} papers`, 'share'], ...details], [0]);
    console.log('');
  } finally {
    for (const step of closing) await step();
    await database.drop();
  }
  return figures;
}
