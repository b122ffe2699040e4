// `npm run bench -- purchases`: whole purchases with the app, the Stripe sandbox and the load
// generator each in a process of its own, so the app's throughput and its CPU time per purchase are
// its own. The app is the real server (`api/src/server.ts`) on PGlite, then on PostgreSQL
// (BENCH_DATABASE_URL, else TEST_DATABASE_URL; a database `bench_purchases`, made and dropped);
// it talks to the sandbox like to Stripe (STRIPE_API_URL, the sandbox's key and webhook secret).
// The sandbox, another server process, pays on its card page, books the card fee a moment later and
// sends its webhooks to the app. The load generator (bench/purchase-load.ts) runs 16, then 64
// customers for BENCH_SECONDS × 2 each, after a warm-up of 16 customers (BENCH_WARMUP_SECONDS). The
// app's CPU time is read from /proc before and after, a moment after the last payment (the sandbox
// books fees at once here), and divided by the purchases. Afterwards the books are checked: every
// paid order booked exactly once.
// Tiny (the tests): PGlite only, no warm-up, one load of two customers with a purchase each; it
// throws at the first failed purchase and at an order not booked exactly once.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createDb } from '../api/src/db/connection.ts';
import { mainItemOrder, placeOrder } from '../tests/e2e/purchase.ts';
import { payInSandbox } from '../tests/support/sandbox.ts';
import { freePort, removeDir, seededCopy, startServer, tempDir, type RunningServer } from '../tests/e2e/server.ts';
import { ensureBuild } from './build.ts';
import { runInOwnProcess } from './child.ts';
import { percentile, printTable, type BenchOptions, type Figure } from './figures.ts';
import { wrongBookings } from './load.ts';
import type { LoadResult, LoadTask } from './purchase-load.ts';

const customerCounts = [16, 64];
/**
 * A receipt that answers "pending" at once (an app without long polling, such as the code before issue
 * 19) is asked again this often: the shop's success page waits 2 s, the bench less, so latency shows
 * the booking.
 */
const pollMs = 100;
/** Far above any load this machine can make: the bench measures the shop, not its rate limits. */
const unlimited = '1000000000';
const seconds = () => 2 * Math.min(Math.max(Number(process.env.BENCH_SECONDS ?? 5) || 5, 1), 60);
/**
 * The warm-up before the measured loads, in seconds. V8 optimises a function once it has run often
 * enough, and at 16 customers the purchase's less frequent code gets there only after tens of seconds:
 * after a warm-up of 10 s (one load) its optimising compiler still took about 100 ms of every second
 * of the measured load (V8's log, --log-function-events), a third of the app's CPU; after 40 s about
 * 10 ms. A running shop has long paid that, so the figure would be the process's youth.
 */
const warmUpSeconds = () => Math.min(Math.max(Number(process.env.BENCH_WARMUP_SECONDS ?? 40) || 40, 1), 300);

/** CPU time a process has used, in ms, from /proc (Linux): in all, and of it in the kernel (system). */
function cpuMs(pid: number): { all: number; kernel: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // Linux counts in clock ticks of 1/100 s on every usual configuration (getconf CLK_TCK).
  const [user, system] = [Number(fields[11]) * 10, Number(fields[12]) * 10];
  return { all: user + system, kernel: system };
}

/**
 * The sandbox: a server process of its own whose PUBLIC_URL is the app's, so its webhooks go there.
 * Its database is a copy of the migrated one the app starts from (migrating anew costs seconds of
 * CPU); the demo newspaper in it is never asked for.
 */
async function startSandbox(
  appUrl: string,
  tiny: boolean,
): Promise<{ server: RunningServer; secretKey: string; webhookSecret: string }> {
  const dataDir = await seededCopy(tempDir('street-paper-bench-sandbox-'));
  const secretKey = `sk_test_bench${randomBytes(20).toString('hex')}`;
  const webhookSecret = `whsec_bench${randomBytes(16).toString('hex')}`;
  const db = createDb({ dataDir });
  try {
    await db('stripe_sandbox_credentials').insert({ id: true, secret_key: secretKey, webhook_secret: webhookSecret });
  } finally {
    await db.destroy();
  }
  const server = await startServer({
    dataDir,
    optimised: !tiny,
    env: { PUBLIC_URL: appUrl, SEED_DEMO: 'false', SANDBOX_FEE_DELAY_MS: '0' },
  });
  return { server, secretKey, webhookSecret };
}

const runLoad = (task: LoadTask) => runInOwnProcess<LoadResult>('bench/purchase-load.ts', task);

/** The sandbox books each card fee a moment after the payment: long enough for the last ones to land. */
const settleMs = (tiny: boolean) => (tiny ? 1000 : 3000);
const settle = (tiny: boolean) => new Promise((resolve) => setTimeout(resolve, settleMs(tiny)));

/** A tiny load: each customer starts one purchase, after which the load ends. */
const tinyLoad = { customers: 2, seconds: 0.1 };

async function benchEngine(part: string, adminUrl: string | undefined, tiny: boolean): Promise<Figure[]> {
  const databaseName = 'bench_purchases';
  const databaseUrl = adminUrl && Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).href;
  const onAdmin = async (sql: string) => {
    const admin = createDb({ databaseUrl: adminUrl, dataDir: '' });
    try {
      await admin.raw(sql);
    } finally {
      await admin.destroy();
    }
  };
  if (adminUrl) {
    await onAdmin(`drop database if exists ${databaseName} with (force)`);
    await onAdmin(`create database ${databaseName}`);
  }
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox(appUrl, tiny);
  // A tiny run measures nothing: its servers run on V8 as a test's do (tests/e2e/server.ts testEngine).
  const app = await startServer({
    port,
    databaseUrl,
    optimised: !tiny,
    root: process.env.BENCH_APP_DIR || undefined,
    env: {
      STRIPE_SECRET_KEY: sandbox.secretKey,
      STRIPE_WEBHOOK_SECRET: sandbox.webhookSecret,
      STRIPE_API_URL: sandbox.server.url,
      ORDER_RATE_LIMIT: unlimited,
      VENDOR_CHECK_RATE_LIMIT: unlimited,
      // Every customer, and the sandbox's webhooks, comes from 127.0.0.1.
      MAX_CONNECTIONS_PER_ADDRESS: unlimited,
    },
  });
  const figures: Figure[] = [];
  const details: string[][] = [];
  try {
    const items = (await (await fetch(`${appUrl}/api/items/`)).json()) as { id: number; name: string }[];
    const item = items.find((entry) => entry.name === 'Zeitung')?.id ?? items[0]?.id ?? 0;
    const vendors = Array.from({ length: 10 }, (_, i) => `DEMO-${i + 1}`);
    const base = { appUrl, sandboxUrl: sandbox.server.url, vendors, item, pollMs };
    if (!tiny) {
      await runLoad({ ...base, customers: customerCounts[0], seconds: warmUpSeconds() });
      await settle(tiny);
    }
    for (const customers of tiny ? [tinyLoad.customers] : customerCounts) {
      const before = cpuMs(app.process.pid!);
      const started = performance.now();
      const run = await runLoad({ ...base, customers, seconds: tiny ? tinyLoad.seconds : seconds() });
      if (tiny && run.failures) throw new Error(`Purchases bench: a purchase failed: ${run.firstFailure}`);
      await settle(tiny);
      const after = cpuMs(app.process.pid!);
      const cpu = after.all - before.all;
      // The kernel's share: sending each statement and answer (the round trips), not the app's own code.
      const kernel = after.kernel - before.kernel;
      const wall = (performance.now() - started - settleMs(tiny)) / 1000;
      const done = run.tokens.length;
      const rate = done / (run.elapsedMs / 1000);
      const perPurchase = done ? cpu / done : NaN;
      if (run.firstFailure) console.log(`  a purchase failed: ${run.firstFailure}`);
      figures.push(
        { part, name: `whole purchases, ${customers} customers`, value: rate, unit: 'purchases/s', digits: 1 },
        { part, name: `app CPU per purchase, ${customers} customers`, value: perPurchase, unit: 'ms', digits: 1 },
        {
          part,
          name: `of it in the kernel, ${customers} customers`,
          value: done ? kernel / done : NaN,
          unit: 'ms',
          digits: 1,
        },
        { part, name: `app CPU use, ${customers} customers`, value: (cpu / 1000 / wall) * 100, unit: '% of a core' },
        { part, name: `whole purchase p50, ${customers} customers`, value: percentile(run.latencies, 50), unit: 'ms' },
        { part, name: `failed purchases, ${customers} customers`, value: run.failures, unit: 'purchases', budget: 0 },
      );
      details.push([
        `${customers} customers`,
        String(done),
        `${rate.toFixed(1)}/s`,
        perPurchase.toFixed(1),
        done ? (kernel / done).toFixed(1) : '',
        `${((cpu / 1000 / wall) * 100).toFixed(0)} %`,
        percentile(run.latencies, 50).toFixed(0),
        percentile(run.latencies, 99).toFixed(0),
        String(run.failures),
      ]);
    }
    // The success page's waiting ask for an order paid right after a flood of verify calls: the flood
    // claimed the window in which Stripe is asked, so the ask waits for the webhook's booking
    // (tests/api/verify-throttle.test.ts holds that it answers paid; this is how long it takes).
    {
      const { token, checkoutUrl } = await placeOrder(appUrl, await mainItemOrder(appUrl, 'DEMO-1'));
      const sessionId = new URL(checkoutUrl).pathname.split('/').pop() ?? '';
      const verify = (extra = '') =>
        fetch(`${appUrl}/api/orders/verify?order=${token}&session_id=${sessionId}${extra}`).then(async (res) => ({
          status: res.status,
          body: (await res.json()) as { status?: string },
        }));
      await Promise.all(Array.from({ length: 50 }, () => verify()));
      await payInSandbox(sandbox.server.url, checkoutUrl);
      const asked = performance.now();
      const answer = await verify('&wait=10');
      const answeredMs = performance.now() - asked;
      if (answer.status !== 200 || answer.body.status !== 'paid')
        throw new Error(`Purchases bench: the waiting verify ask answered ${answer.status} ${answer.body.status}`);
      figures.push({
        part,
        name: 'paid shown to the waiting verify ask after a flood',
        value: answeredMs,
        unit: 'ms',
        budget: 5000,
      });
    }
    // A deploy stops the app while a customer's receipt waits for its payment (long polling):
    // the app answers it on SIGTERM and closes its connection then, not after its last resort of 5 s.
    const { token } = await placeOrder(appUrl, await mainItemOrder(appUrl, 'DEMO-1'));
    const waiting = fetch(`${appUrl}/api/orders/${token}?wait=10`).catch(() => undefined);
    // Sent after the waiting one and answered: that one waits at the app by then.
    await fetch(`${appUrl}/api/orders/${token}`);
    const stopping = performance.now();
    // The app's embedded database belongs to the app while it runs: the books are read after it stopped.
    await app.stop(30_000);
    figures.push({
      part,
      name: 'stop with a receipt waiting',
      value: performance.now() - stopping,
      unit: 'ms',
      budget: 4000,
    });
    await waiting;
    const db = createDb({ databaseUrl, dataDir: databaseUrl ? '' : app.dataDir });
    const books = await wrongBookings(db).finally(() => db.destroy());
    if (tiny && books.wrong)
      throw new Error(`Purchases bench: ${books.wrong} paid order(s) of ${books.paid} not booked exactly once`);
    figures.push({
      part,
      name: `paid orders not booked exactly once (of ${books.paid})`,
      value: books.wrong,
      unit: 'orders',
      budget: 0,
    });
    console.log('');
    printTable(
      [
        ['load', 'purchases', 'rate', 'app CPU ms/purchase', 'of it kernel', 'app CPU', 'p50 ms', 'p99 ms', 'failed'],
        ...details,
      ],
      [0],
    );
    console.log(`  ${books.paid} orders paid, ${books.wrong} of them not booked exactly once\n`);
  } finally {
    await app.stop(30_000);
    await sandbox.server.stop(30_000);
    removeDir(app.dataDir);
    removeDir(sandbox.server.dataDir);
    if (adminUrl) await onAdmin(`drop database if exists ${databaseName} with (force)`);
  }
  return figures;
}

export async function benchPurchases({ tiny = false }: BenchOptions = {}): Promise<Figure[]> {
  ensureBuild();
  // Tiny runs beside other tests, which may use the same PostgreSQL: its database would be shared.
  const adminUrl = tiny ? undefined : process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;
  console.log(
    `Whole purchases: app, Stripe sandbox and load generator in three processes, ${tiny ? tinyLoad.seconds : seconds()} s per load`,
  );
  console.log('PGlite:');
  const figures = await benchEngine('purchases PGlite', undefined, tiny);
  if (adminUrl) {
    console.log('PostgreSQL (database bench_purchases):');
    figures.push(...(await benchEngine('purchases PostgreSQL', adminUrl, false)));
  } else if (!tiny) console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to measure it too.\n');
  return figures;
}
