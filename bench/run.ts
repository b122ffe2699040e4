// `npm run bench`: throughput and latency of the public shop endpoints against a bare Koa handler,
// on loopback only, with the demo newspaper in an in-memory PGlite. Bounded: a short warm-up and
// BENCH_SECONDS (default 5) per target, then it stops by itself. Then the books under a long
// history (bench/books.ts); `npm run bench -- books` runs only that part. The shop's first screen
// in a throttled Chromium (bench/shop.ts): `npm run bench -- shop`. The JavaScript of the back
// office's first screen and of /me (bench/admin.ts): `npm run bench -- admin`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Koa from 'koa';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/config.ts';
import { createDb, migrate } from '../api/src/db.ts';
import { setLogSilent } from '../api/src/log.ts';
import { seedOnFirstStart } from '../seeds/index.ts';
import { benchAdmin } from './admin.ts';
import { benchBooks } from './books.ts';
import { benchShop } from './shop.ts';

const parts: Record<string, () => unknown> = { books: benchBooks, shop: benchShop, admin: benchAdmin };
const only = process.argv[2];
if (only) {
  if (!parts[only]) {
    console.error(`There is no bench part "${only}"; choose one of ${Object.keys(parts).join(', ')}.`);
    process.exit(2);
  }
  await parts[only]();
  process.exit();
}

const seconds = Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 5) || 5, 1), 60);
const connections = 10;

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

setLogSilent(true);
const config = loadConfig({ PORT: '0', PUBLIC_URL: 'http://127.0.0.1', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
const db = createDb({ dataDir: 'memory://' });
await migrate(db);
await seedOnFirstStart(db);

const shop = await listen(buildApp({ db, config }).callback());
const bareApp = new Koa();
bareApp.use((ctx) => {
  ctx.body = { status: 'ok' };
});
const bare = await listen(bareApp.callback());

const targets = [
  { name: 'GET /api/vendors/check/DEMO-1/', url: `${shop.url}/api/vendors/check/DEMO-1/` },
  { name: 'GET /api/items/', url: `${shop.url}/api/items/` },
  { name: 'bare Koa, constant JSON', url: `${bare.url}/` },
];

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}
const rows: Row[] = [];
console.log(`Benchmark: ${connections} connections, ${seconds} s per target, loopback, PGlite in memory with the demo seed\n`);
for (const target of targets) {
  const probe = await fetch(target.url);
  if (!probe.ok) throw new Error(`${target.name} answers ${probe.status}; nothing to measure`);
  await autocannon({ url: target.url, connections, duration: 1 }); // warm-up
  const result = await autocannon({ url: target.url, connections, duration: seconds });
  rows.push({
    name: target.name,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  });
  console.log(`  measured ${target.name}`);
}

const baseline = rows[rows.length - 1].rps;
const table = [
  ['target', 'req/s', 'p50 ms', 'p99 ms', 'vs bare', 'errors'],
  ...rows.map((r) => [r.name, r.rps.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), `${((r.rps / baseline) * 100).toFixed(1)} %`, String(r.failures)]),
];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log('');
console.log(line(table[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table.slice(1)) console.log(line(row));

await new Promise((resolve) => shop.server.close(resolve));
await new Promise((resolve) => bare.server.close(resolve));
await db.destroy();
await benchShop();
benchAdmin();
if (rows.some((r) => r.failures > 0)) {
  console.error('\nSome requests failed; the numbers above are not comparable.');
  process.exitCode = 1;
}

console.log('');
await benchBooks();
