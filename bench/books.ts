// The books under a long history: seeds vendors, orders and their ledger rows (with a payout every
// four weeks per vendor) set-based, booked by the ledger's bulk twins (api/src/ledger/bulk.ts),
// then times the back office's money queries, the counter, the cash book, the daily close, DATEV,
// the statements and the start screen through the real HTTP app. With BENCH_DATABASE_URL:
// 1,000 vendors and about 2,000,000 ledger rows over three years in PostgreSQL (schema
// `bench_books`, seeded once and reused). Without: a smaller history in PGlite, said so in the
// output. BENCH_RUNS (default 15) runs per query after two warm-up runs; BENCH_ONLY measures only the
// queries whose names hold it.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../api/src/app.ts';
import { loadConfig } from '../api/src/foundations/config.ts';
import { createDb, migrate, type Db } from '../api/src/db/connection.ts';
import { bookPaidOrdersInBulk, bookTillDaysInBulk, insertOrderEntriesInBulk } from '../api/src/ledger/bulk.ts';
import { setLogSilent } from '../api/src/foundations/log.ts';
import { oneRow } from '../api/src/foundations/one-row.ts';
import { seedOnFirstStart } from '../seeds/index.ts';
import { startTestIssuer } from '../tests/support/issuer.ts';
import { median, printTable, type BenchOptions, type Figure } from './figures.ts';
import { localDay } from '../api/src/foundations/period.ts';

interface Scale {
  vendors: number;
  orders: number;
}

const postgresScale: Scale = { vendors: 1000, orders: 578_000 }; // ≈ 3.4 rows per order + payouts ≈ 2,000,000
const pgliteScale: Scale = { vendors: 100, orders: 20_000 };
const tinyScale: Scale = { vendors: 5, orders: 300 };
const schema = 'bench_books';
const years = 3;
const payoutEveryDays = 28;

/** Seeds the history unless this schema already holds one of this scale. */
async function seedHistory(db: Db, scale: Scale): Promise<'seeded' | 'reused'> {
  await db.raw(
    'create table if not exists bench_seed (vendors integer not null, orders integer not null, seeded_at timestamptz not null default now())',
  );
  const done = await db('bench_seed').first<{ vendors: number; orders: number } | undefined>();
  if (done?.vendors === scale.vendors && done?.orders === scale.orders) return 'reused';
  if (done)
    throw new Error(
      `The schema holds a history of another scale (${done.vendors} vendors, ${done.orders} orders); drop it first.`,
    );
  await seedOnFirstStart(db);
  await db.transaction(async (trx) => {
    const run = (sql: string, bindings: Knex.RawBinding[] = []) => trx.raw(sql, bindings);
    // the app's statement timeout is for requests; inserting millions of rows takes longer
    await run('set local statement_timeout = 0');
    await run('select setseed(0.42)');
    await run(
      `insert into vendors (license_id, first_name, last_name, is_disabled, created_at)
       select 'BENCH-' || i, 'Vendor', 'Nr. ' || i, i % 20 = 0, now() - interval '${years} years' from generate_series(1, ?) i`,
      [scale.vendors],
    );
    // One plan row per order: its vendor (by number), time and contents, drawn once.
    await run(
      `create temporary table plan on commit drop as
       select i, 1 + floor(random() * ?)::integer as v,
         now() - interval '${years} years' + random() * interval '${years} years' as at,
         1 + floor(random() * 3)::integer as prints, random() < 0.2 as digital,
         case when random() < 0.5 then 0 when random() < 0.5 then 100 else 200 end as tip
       from generate_series(1, ?) i`,
      [scale.vendors, scale.orders],
    );
    await run(`create temporary table vendor_of on commit drop as
      select row_number() over (order by v.id)::integer as v, v.id as vendor_id,
        now() - interval '${years} years' + (row_number() over (order by v.id) % ${payoutEveryDays}) * interval '1 day' + interval '10 hours' as first_payout
      from vendors v where v.license_id like 'BENCH-%'`);
    await run(`create temporary table prices on commit drop as select
      (select price from items where name = 'Zeitung') as print, (select id from items where name = 'Zeitung') as print_id,
      (select price from items where name = 'Digitale Ausgabe') as digital, (select id from items where name = 'Digitale Ausgabe') as digital_id`);
    // Orders with ids derived from the plan row; the cart of each as lines, split into entries by the ledger's rule.
    await run(`insert into orders (id, token, vendor_id, status, amount_total, tip, fee, expires_at, paid_at, created_at)
      select p.i, 'bench' || lpad(p.i::text, 38, '0'), o.vendor_id, 'paid', t.total, p.tip, round(t.total * 0.015) + 25, p.at, p.at, p.at
      from plan p join vendor_of o using (v) cross join prices pr
      cross join lateral (select p.prints * pr.print + (case when p.digital then pr.digital else 0 end) + p.tip as total) t`);
    await run(`create temporary table lines on commit drop as
      select p.i as order_id, pr.print_id as item_id, p.prints as quantity from plan p cross join prices pr
      union all select p.i, pr.digital_id, 1 from plan p cross join prices pr where p.digital`);
    await insertOrderEntriesInBulk(trx, 'lines');
    // Each vendor is paid out every four weeks (on their own weekday); row k of a vendor belongs to
    // payout number floor((at - first payout) / 4 weeks) + 1, unless that payout is still to come.
    await run('analyze plan, vendor_of, orders, order_entries');
    await run(`create temporary table booked on commit drop as
      select p.i as order_id, case when n.payout_at < now() then o.v * 100 + n.k end as payout_id, n.payout_at
      from plan p join vendor_of o using (v)
      cross join lateral (select k, o.first_payout + k * interval '${payoutEveryDays} days' as payout_at
        from (select greatest(0, ceil(extract(epoch from p.at - o.first_payout) / (86400 * ${payoutEveryDays})))::integer) as number (k)) n`);
    // Payouts go through a till: the demo's, with the cash the history's payouts take out
    // (about 2 × 10^8 cents over three years; the cash book refuses a negative balance) and the
    // payouts measured below.
    await run('update tills set opening_balance = 10000000000 where id = (select min(id) from tills)');
    // Booked as bookOrder, bookFee and payOut book, set-based (api/src/ledger/bulk.ts).
    await bookPaidOrdersInBulk(trx, { plan: 'booked', authorisedBy: 'bench', timeZone: 'Europe/Berlin' });
    for (const table of ['orders', 'order_entries']) {
      await run(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    }
    await run('insert into bench_seed (vendors, orders) values (?, ?)', [scale.vendors, scale.orders]);
  });
  // Fresh statistics and visibility maps, as autovacuum would have them on a database in use.
  await db.raw('vacuum analyze vendors, ledger_accounts, orders, order_entries, payouts, ledger_rows, cash_movements');
  return 'seeded';
}

interface Measured {
  name: string;
  target: number;
  runs: number[];
  /** The longest the event loop was blocked during each run, ms. */
  blocks: number[];
  note: string;
}

/** No request may hold the event loop longer: every other request of the server waits meanwhile. */
const blockBudgetMs = 100;

export async function benchBooks({ tiny = false }: BenchOptions = {}): Promise<Figure[]> {
  setLogSilent(true);
  const url = tiny ? undefined : process.env.BENCH_DATABASE_URL;
  const scale = tiny ? tinyScale : url ? postgresScale : pgliteScale;
  const runs = tiny ? 1 : Math.min(Math.max(Number(process.env.BENCH_RUNS ?? 15) || 15, 3), 200);
  const warmUps = tiny ? 0 : 2;
  const issuer = await startTestIssuer();
  const config = loadConfig({
    PORT: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    OIDC_ISSUER: issuer.issuer,
    OIDC_AUDIENCE: issuer.audience,
    ...(url ? { DATABASE_URL: url } : {}),
  });
  if (url) {
    const admin = createDb({ databaseUrl: url, dataDir: '' });
    await admin.raw(`create schema if not exists ${schema}`);
    await admin.destroy();
  }
  const db = createDb({ databaseUrl: url, dataDir: 'memory://', schema: url ? schema : undefined });
  const server = http.createServer();
  // The server's event loop (the bench's client shares it, and its own work is small beside the
  // server's): how late a timer every millisecond fires is how long something held the loop.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  try {
    await migrate(db);
    console.log(
      url
        ? `Books bench: PostgreSQL, schema ${schema}, ${scale.vendors} vendors, ${scale.orders} orders over ${years} years`
        : `Books bench: PGlite in memory with a SMALLER history (${scale.vendors} vendors, ${scale.orders} orders over ${years} years); set BENCH_DATABASE_URL for the full 2,000,000 rows in PostgreSQL`,
    );
    const seedStart = performance.now();
    const seeded = await seedHistory(db, scale);
    const seedSeconds = (performance.now() - seedStart) / 1000;
    const [{ rows: ledgerRows }] = await db('ledger_rows').count({ rows: '*' });
    console.log(
      `  history ${seeded} in ${seedSeconds.toFixed(1)} s: ${Number(ledgerRows).toLocaleString('en')} ledger rows`,
    );

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The Stripe sandbox is this server's own, reached at its public address.
    const handle = buildApp({ db, config: { ...config, publicUrl: base, timeZone: 'Europe/Berlin' } }).callback();
    server.on('request', (req, res) => void handle(req, res));
    const token = `Bearer ${await issuer.mint({ groups: ['backoffice'], preferred_username: 'bench' })}`;
    const call = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(base + path, {
        ...init,
        headers: { Authorization: token, 'Content-Type': 'application/json', ...init.headers },
      });
      const body = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${body.slice(0, 300)}`);
      return { body, headers: res.headers };
    };
    /**
     * The size of a download in bytes, read as it arrives: decoding megabytes into one string would
     * hold the event loop the server shares with this client, and count as the server's block.
     */
    const download = async (path: string): Promise<number> => {
      const res = await fetch(base + path, { headers: { Authorization: token } });
      if (!res.ok || !res.body)
        throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      let bytes = 0;
      const reader = res.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
      return bytes;
    };
    /** Median material: `prepare` (untimed) finds what a run needs, `request` is the timed call. */
    const timed = async <P>(
      name: string,
      target: number,
      request: (prepared: P, run: number) => Promise<string>,
      prepare: (run: number) => Promise<P> = () => Promise.resolve(undefined as P),
    ): Promise<Measured> => {
      let note = '';
      for (let warmUp = 0; warmUp < warmUps; warmUp++) await request(await prepare(runs + warmUp), runs + warmUp);
      const times: number[] = [];
      const blocks: number[] = [];
      for (let run = 0; run < runs; run++) {
        const prepared = await prepare(run);
        loop.reset();
        const started = performance.now();
        note = await request(prepared, run);
        times.push(performance.now() - started);
        blocks.push(loop.max / 1e6);
      }
      return { name, target, runs: times, blocks, note };
    };

    const now = new Date();
    const today = localDay(now, 'Europe/Berlin');
    const monthAgo = localDay(new Date(now.getTime() - 30 * 86_400_000), 'Europe/Berlin');
    const lastMonth = { from: `${today.slice(0, 7)}-01`, to: today };
    const yearAgo = localDay(new Date(now.getTime() - 365 * 86_400_000), 'Europe/Berlin');
    const period = (p: { from: string; to: string }) => `from=${p.from}&to=${p.to}`;
    const [year, month] = today.split('-').map(Number);
    const previousMonth = {
      from: new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10),
      to: new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10),
    };
    const lastYear = { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
    const mainTill = oneRow(await db('tills').min<{ id: number }[]>('id as id')).id;
    /** A new till with a year of movements (three a day, today's too), closed every day before today. */
    const closedTill = async (run: number): Promise<number> => {
      const till = JSON.parse(
        (
          await call('/api/tills/', {
            method: 'POST',
            body: JSON.stringify({ name: `Bench close ${Date.now()}-${run}`, openingBalance: 100_000 }),
          })
        ).body,
      ) as { id: number };
      await db.transaction((trx) =>
        bookTillDaysInBulk(trx, {
          tillId: till.id,
          startBalance: 100_000,
          from: yearAgo,
          to: today,
          perDay: [5000, -2000, 1000],
          staff: 'bench',
        }),
      );
      // A year of one till's movements in one statement is what no counter does: autovacuum, which
      // keeps the planner's statistics after the counter's steady trickle, would not see it in time.
      await db.raw('analyze tills, till_closes, cash_movements');
      return till.id;
    };
    const datevSettings = {
      adviserNumber: '29098',
      clientNumber: '55003',
      fiscalYearMonth: 1,
      fiscalYearDay: 1,
      chart: 'SKR03',
      accountLength: 4,
      vendorAccounts: 'collective',
      accounts: {
        customers: '1360',
        orga: '8300',
        cash: '1000',
        bank: '1200',
        provider: '4970',
        disputes: '2400',
        vendors: '1600',
        otherIncome: '2700',
        otherExpense: '4980',
        shortfall: '4900',
        surplus: '2705',
      },
      vendorBase: '70000',
    };
    const results: Measured[] = [];
    // BENCH_ONLY measures only the queries whose names hold it (a reused history re-measures one route in seconds).
    const only = tiny ? undefined : process.env.BENCH_ONLY?.toLowerCase();
    const measure = async <P>(...args: Parameters<typeof timed<P>>) => {
      if (only && !args[0].toLowerCase().includes(only)) return;
      results.push(await timed(...args));
      console.log(`  measured ${args[0]}`);
    };

    await measure('vendor list sorted by credit', 100, async () => {
      const res = await call('/api/vendors/?sort=["credit","DESC"]&range=[0,24]');
      return `${res.headers.get('content-range')}`;
    });
    await measure("one vendor's forpayout", 100, async (_, run) => {
      const res = await call(`/api/payments/forpayout/?vendor=BENCH-${((run * 37) % scale.vendors) + 1}`);
      return `${(JSON.parse(res.body) as { payments: unknown[] }).payments.length} open rows`;
    });
    await measure('accounting, one month: first page + totals', 100, async () => {
      const page = await call(`/api/payments/?${period({ from: monthAgo, to: today })}&range=[0,24]`);
      const totals = JSON.parse(
        (await call(`/api/payments/totals/?${period({ from: monthAgo, to: today })}`)).body,
      ) as { count: number };
      return `${page.headers.get('content-range')}, total ${totals.count} rows`;
    });
    await measure('sales, one month: first page + totals', 100, async () => {
      const page = await call(`/api/payments/?${period({ from: monthAgo, to: today })}&kind=sales&range=[0,24]`);
      await call(`/api/payments/totals/?${period({ from: monthAgo, to: today })}&kind=sales`);
      return `${page.headers.get('content-range')}`;
    });
    await measure('statistics, one year', 300, async () => {
      const stats = JSON.parse((await call(`/api/payments/statistics/?from=${yearAgo}&to=${today}`)).body) as {
        series: unknown[];
        granularity: string;
        vendors: { active: number; total: number };
      };
      return `${stats.series.length} ${stats.granularity}s, ${stats.vendors.active}/${stats.vendors.total} vendors active`;
    });
    // Each run pays out the vendor with the most open rows (a month of sales, as at the counter),
    // for the credit staff would have read. The payouts are reversed afterwards: the credit is open
    // again as one row, so the next bench picks other vendors.
    const paid: number[] = [];
    await measure<{ license_id: string; credit: number }>(
      'a payout with its cash-book row',
      100,
      async (vendor) => {
        const body = JSON.stringify({ vendor: vendor.license_id, expectedAmount: vendor.credit });
        const payout = JSON.parse((await call('/api/payments/payout/', { method: 'POST', body })).body) as {
          id: number;
          rows: unknown[];
        };
        paid.push(payout.id);
        return `${payout.rows.length} rows settled`;
      },
      async () => {
        const { rows } = await db.raw<{ rows: { license_id: string; credit: number }[] }>(
          `select v.license_id, sum(case when r.receiver_id = a.id then r.amount else -r.amount end)::bigint as credit
           from vendors v join ledger_accounts a on a.vendor_id = v.id
           join ledger_rows r on (r.receiver_id = a.id or r.sender_id = a.id) and r.payout_id is null
           where v.license_id like 'BENCH-%' and v.deleted_at is null group by v.id order by count(*) desc, v.id limit 1`,
        );
        return oneRow(rows);
      },
    );
    // The counter: the visit screen and a visit that takes 10 copies from the credit and
    // pays out the rest, for the vendor with the most open rows, as above.
    const [counterItem] = await db('items')
      .whereNotNull('counter_price')
      .whereNull('deleted_at')
      .orderBy('id')
      .select<{ id: number; counter_price: number }[]>('id', 'counter_price');
    const mostOpen = async () => {
      const { rows } = await db.raw<{ rows: { license_id: string; credit: number }[] }>(
        `select v.license_id, sum(case when r.receiver_id = a.id then r.amount else -r.amount end)::bigint as credit
         from vendors v join ledger_accounts a on a.vendor_id = v.id
         join ledger_rows r on (r.receiver_id = a.id or r.sender_id = a.id) and r.payout_id is null
         where v.license_id like 'BENCH-%' and v.deleted_at is null group by v.id order by count(*) desc, v.id limit 1`,
      );
      return oneRow(rows);
    };
    await measure<string>(
      'counter: the visit screen',
      100,
      async (vendor) => {
        const screen = JSON.parse((await call(`/api/counter/vendor?vendor=${vendor}`)).body) as { rows: unknown[] };
        return `${screen.rows.length} open rows`;
      },
      (run) => Promise.resolve(`BENCH-${((run * 37) % scale.vendors) + 1}`),
    );
    await measure<{ license_id: string; credit: number }>(
      'counter: a visit, 10 copies from credit and the payout',
      100,
      async (vendor) => {
        const visitId = randomUUID();
        const body = JSON.stringify({
          visitId,
          vendor: vendor.license_id,
          tillId: mainTill,
          items: [{ itemId: counterItem.id, quantity: 10 }],
          cash: 0,
          payOut: true,
          expectedCredit: Number(vendor.credit),
        });
        await call('/api/counter/visits/', { method: 'POST', body });
        const visit = await db('counter_visits')
          .where({ id: visitId })
          .first<{ payout_id: number | null }>('payout_id');
        if (visit?.payout_id) paid.push(visit.payout_id);
        return `${visit?.payout_id ? 'paid out' : 'nothing to pay out'}`;
      },
      mostOpen,
    );
    await measure("cash book, one month (the payouts' till)", 100, async () => {
      const book = JSON.parse(
        (await call(`/api/tills/${mainTill}/book?${period({ from: monthAgo, to: today })}`)).body,
      ) as {
        movements: unknown[];
      };
      return `${book.movements.length} movements`;
    });
    await measure('cash book, one month: CSV', 2000, async () => {
      const bytes = await download(`/api/tills/${mainTill}/book?${period({ from: monthAgo, to: today })}&format=csv`);
      return `${(bytes / 1e3).toFixed(0)} kB`;
    });
    // A till is closed once a day: each run closes a till of its own that has been closed every day
    // of the year before, with the day's movements.
    const closes: number[] = [];
    // The count is taken before the timed close, as staff count the till before they confirm.
    await measure<{ tillId: number; balance: number }>(
      'daily close',
      100,
      async ({ tillId, balance }) => {
        const close = JSON.parse(
          (
            await call(`/api/tills/${tillId}/closes/`, {
              method: 'POST',
              body: JSON.stringify({ counted: balance, expected: balance }),
            })
          ).body,
        ) as { id: number };
        closes.push(close.id);
        return `${balance / 100} EUR`;
      },
      async (run) => {
        const tillId = await closedTill(run);
        const last = await db('cash_movements')
          .where({ till_id: tillId })
          .orderBy('id', 'desc')
          .first<{ balance: string }>('balance');
        return { tillId, balance: Number(last.balance) };
      },
    );
    await measure<number>(
      'Kassenbericht (the close report)',
      2000,
      async (id) => `${((await call(`/api/closes/${id}/report`)).body.length / 1e3).toFixed(0)} kB`,
      (run) => Promise.resolve(closes[run % closes.length]),
    );
    await call('/api/accounting/datev/settings', { method: 'PUT', body: JSON.stringify(datevSettings) });
    await measure('DATEV, one month', 2000, async () => {
      const bytes = await download(`/api/accounting/datev?${period(previousMonth)}`);
      return `${(bytes / 1e6).toFixed(1)} MB`;
    });
    await measure('trial balance, one year', 2000, async () => {
      const balance = JSON.parse((await call(`/api/accounting/trial-balance?${period(lastYear)}`)).body) as {
        lines: unknown[];
      };
      return `${balance.lines.length} accounts`;
    });
    // Stripe's side is the sandbox of this server, which holds none of the seeded history's
    // charges: this reads the books' side of the month and the sandbox's list.
    await measure('Stripe reconciliation, one month', 2000, async () => {
      const result = JSON.parse((await call(`/api/stripe-reconciliation?${period(previousMonth)}`)).body) as {
        differences: unknown[];
      };
      return `${result.differences.length} differences`;
    });
    /** A vendor's statement of `span`, a different vendor each run. */
    const vendorStatement = (name: string, budget: number, span: { from: string; to: string }) =>
      measure<number>(
        name,
        budget,
        async (id) => {
          const statement = JSON.parse((await call(`/api/vendors/${id}/statement/?${period(span)}`)).body) as {
            rows: unknown[];
          };
          return `${statement.rows.length} lines`;
        },
        async (run) =>
          oneRow(
            await db('vendors')
              .where({ license_id: `BENCH-${((run * 37) % scale.vendors) + 1}` })
              .select<{ id: number }[]>('id'),
          ).id,
      );
    await vendorStatement("one vendor's statement, one year", 100, lastYear);
    await measure("every vendor's statements of a year (CSV)", 2000, async () => {
      const bytes = await download(`/api/statements/?year=${Number(today.slice(0, 4)) - 1}&format=csv`);
      return `${(bytes / 1e6).toFixed(1)} MB`;
    });
    await measure('"Heute", the start screen', 100, async () => {
      const day = JSON.parse((await call('/api/office/today')).body) as { payouts?: { count: number } };
      return `${day.payouts?.count ?? 0} payouts today`;
    });
    await measure(
      'extra: accounts export, one month',
      Infinity,
      async () =>
        `${(JSON.parse((await call(`/api/payments/accounts/?${period(lastMonth)}`)).body) as { accounts: unknown[] }).accounts.length} accounts`,
    );
    await measure('extra: payouts list, one month + totals', Infinity, async () => {
      const page = await call(`/api/payouts/?${period({ from: monthAgo, to: today })}&range=[0,24]`);
      await call(`/api/payouts/totals/?${period({ from: monthAgo, to: today })}`);
      return `${page.headers.get('content-range')}`;
    });
    await measure('extra: CSV of one month, all rows', Infinity, async () => {
      const bytes = await download(`/api/payments/?${period({ from: monthAgo, to: today })}&format=csv`);
      return `${(bytes / 1e6).toFixed(1)} MB`;
    });
    await vendorStatement("extra: one vendor's statement, one month", Infinity, lastMonth);
    await measure("extra: every vendor's statements of a year (JSON)", Infinity, async () => {
      const year = Number(today.slice(0, 4)) - 1;
      const batch = JSON.parse((await call(`/api/statements/?year=${year}`)).body) as { statements: unknown[] };
      return `${batch.statements.length} vendors`;
    });
    for (const id of paid) {
      await call(`/api/payments/payout/${id}/reverse/`, {
        method: 'POST',
        body: JSON.stringify({ reason: 'Bench run, not a real payout' }),
      });
    }

    console.log(`\n${runs} runs per query after ${warmUps} warm-up runs, through HTTP on loopback\n`);
    printTable(
      [
        ['query', 'median ms', 'max ms', 'target', '', 'loop blocked ms', '', 'last answer'],
        ...results.map((r) => {
          const m = median(r.runs);
          const verdict = r.target === Infinity ? '' : m < r.target ? 'ok' : 'SLOW';
          const blocked = Math.max(...r.blocks);
          return [
            r.name,
            m.toFixed(1),
            Math.max(...r.runs).toFixed(1),
            r.target === Infinity ? '-' : `< ${r.target}`,
            verdict,
            blocked.toFixed(1),
            blocked < blockBudgetMs ? 'ok' : 'BLOCKS',
            r.note,
          ];
        }),
      ],
      [0, 7],
    );
    // The targets are for the full history in PostgreSQL; the smaller one in PGlite only shows the trend.
    const part = url ? 'books PostgreSQL' : `books PGlite (${tiny ? 'tiny' : 'smaller'} history)`;
    // Seeding the full history set-based takes minutes; a reused one is not measured again.
    const seeding: Figure[] =
      seeded === 'seeded'
        ? [{ part, name: 'history seeded', value: seedSeconds, unit: 's', digits: 1, ...(url ? { budget: 600 } : {}) }]
        : [];
    return [
      ...seeding,
      ...results.map((r) => ({
        part,
        name: `${r.name}, median`,
        value: median(r.runs),
        unit: 'ms',
        digits: 1,
        ...(url && r.target !== Infinity ? { budget: r.target } : {}),
      })),
      // The slowest routes by how long they held the event loop, longest first.
      ...[...results]
        .sort((a, b) => Math.max(...b.blocks) - Math.max(...a.blocks))
        .map((r) => ({
          part,
          name: `${r.name}, longest event-loop block`,
          value: Math.max(...r.blocks),
          unit: 'ms',
          digits: 1,
          ...(url ? { budget: blockBudgetMs } : {}),
        })),
    ];
  } finally {
    loop.disable();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.destroy();
    await issuer.close();
  }
}
