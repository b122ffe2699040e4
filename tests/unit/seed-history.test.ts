import assert from 'node:assert/strict';
import { createDb, migrate, type Db } from '../../api/src/db/connection.ts';
import { accountBalances, vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { salesStatistics } from '../../api/src/statistics/queries.ts';
import { HISTORY_DAYS, HISTORY_ORDER_COUNT } from '../../seeds/history.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { enginesUnderTest, type EngineName } from '../support/env.ts';
import { migratedCopy, removeDir } from '../e2e/server.ts';

const now = new Date('2026-11-21T10:00:00Z');
const timeZone = 'Europe/Berlin';
const day = 86_400_000;

let schemas = 0;

/**
 * A fresh database as `npm start` leaves it on the first start: the demo and its history. On PGlite a
 * copy of the migrated data directory, in which `migrate` finds nothing left to do, removed again by
 * `close`; on PostgreSQL a schema of its own, dropped by `close`.
 */
async function startedDemo(engine: EngineName): Promise<{ db: Db; close: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const schema = `history_test_${process.pid}_${++schemas}`;
  const onPostgres = async (sql: string) => {
    const admin = createDb({ databaseUrl: url, dataDir: '' });
    try {
      await admin.raw(sql);
    } finally {
      await admin.destroy();
    }
  };
  if (engine === 'postgres') await onPostgres(`drop schema if exists ${schema} cascade; create schema ${schema}`);
  const dataDir = engine === 'postgres' ? '' : await migratedCopy();
  const db = engine === 'postgres' ? createDb({ databaseUrl: url, dataDir: '', schema }) : createDb({ dataDir });
  await migrate(db);
  assert.equal(await seedOnFirstStart(db, { now, timeZone }), true);
  return {
    db,
    close: async () => {
      await db.destroy();
      if (engine === 'postgres') await onPostgres(`drop schema if exists ${schema} cascade`);
      else removeDir(dataDir);
    },
  };
}

/** What the back office shows of the history: every vendor's money and the books' totals per kind. */
async function totals(db: Db) {
  const vendors = await db('vendors').orderBy('license_id').select('id', 'license_id');
  const money = await Promise.all(
    vendors.map(async (v) => ({ vendor: v.license_id, ...(await vendorAccountSummary(db, v.id)) })),
  );
  const kinds = await db('ledger_rows')
    .groupBy('kind')
    .orderBy('kind')
    .select('kind')
    .sum({ amount: 'amount' })
    .count({ rows: '*' });
  const payouts = await db('payouts').orderBy('id').select('receipt_number', 'amount', 'created_at');
  return { money, kinds: kinds.map((k) => ({ ...k, amount: Number(k.amount), rows: Number(k.rows) })), payouts };
}

for (const engine of enginesUnderTest()) {
  describe(`demo sales history (npm start) [${engine}]`, function () {
    let db: Db;
    let close: (() => Promise<void>) | undefined;
    before(async () => {
      ({ db, close } = await startedDemo(engine));
    });
    after(async () => {
      await close?.();
    });

    it('balances: every account together sums to 0, and the orga paid the card fees', async () => {
      const balances = await accountBalances(db);
      assert.equal(
        balances.reduce((sum, b) => sum + Number(b.balance), 0),
        0,
      );
      const fees = Number((await db('orders').sum({ fees: 'fee' }).first())!.fees);
      assert.ok(fees > 0);
      assert.equal(
        Number(balances.find((b) => b.kind === 'provider')!.balance),
        fees,
        'the provider received every fee',
      );
    });

    it(`has ${HISTORY_ORDER_COUNT} paid orders of the last ${HISTORY_DAYS} days, each booked for exactly its total`, async () => {
      const orders = await db('orders').select('id', 'status', 'amount_total', 'paid_at', 'created_at', 'token');
      assert.equal(orders.length, HISTORY_ORDER_COUNT);
      const sums = await db('ledger_rows').whereIn('kind', ['sale', 'tip']).groupBy('order_id').select('order_id').sum<
        {
          order_id: number;
          amount: number;
        }[]
      >({ amount: 'amount' });
      const booked = new Map(sums.map((r) => [r.order_id, Number(r.amount)]));
      for (const order of orders) {
        assert.equal(order.status, 'paid');
        assert.equal(booked.get(order.id), order.amount_total, `order ${order.id}: booked sales equal the total`);
        const paidAt = new Date(order.paid_at).getTime();
        assert.ok(
          paidAt < now.getTime() && paidAt > now.getTime() - (HISTORY_DAYS + 1) * day,
          `order ${order.id} was paid in the history`,
        );
        assert.match(order.token, /^[A-Za-z0-9_-]{43}$/);
      }
      const rowDates = await db('ledger_rows as r')
        .join('orders as o', 'o.id', 'r.order_id')
        .whereRaw('r.created_at <> o.paid_at')
        .count({ n: '*' })
        .first();
      assert.equal(Number(rowDates!.n), 0, 'every row of an order is dated to its payment');
      const kinds = (await db('order_entries').distinct('kind')).map((r) => r.kind).sort();
      assert.deepEqual(
        kinds,
        ['licence', 'sale', 'tip'],
        'papers, digital editions with their licence share, and tips',
      );
      assert.equal(Number((await db('download_links').count({ n: '*' }).first())!.n), 0, 'no download links');
      assert.equal(Number((await db('outbox').count({ n: '*' }).first())!.n), 0, 'no mails');
    });

    it('leaves some vendors with open credit and some with a last payout in the past', async () => {
      const { money, payouts } = await totals(db);
      assert.ok(money.filter((m) => m.credit > 0).length >= 5, 'several vendors have credit to pay out');
      const paidOut = money.filter((m) => m.lastPayout);
      assert.ok(paidOut.length >= 3, 'several vendors have a last payout');
      for (const m of paidOut) assert.ok(new Date(m.lastPayout!.at) < now, `${m.vendor}'s last payout is in the past`);
      assert.ok(
        money.some((m) => m.credit === 0 && !m.lastPayout),
        'some vendors sold nothing',
      );
      for (const p of payouts)
        assert.match(p.receipt_number, new RegExp(`^${new Date(p.created_at).getUTCFullYear()}-\\d{6}$`));
      // a payout settles everything booked before it and nothing after
      const late = await db('ledger_rows as r')
        .join('payouts as p', 'p.id', 'r.payout_id')
        .where('r.kind', '<>', 'payout')
        .whereRaw('r.created_at > p.created_at')
        .count({ n: '*' })
        .first();
      assert.equal(Number(late!.n), 0);
    });

    it('fills the statistics of the last 60 days', async () => {
      const stats = await salesStatistics(db, { from: new Date(now.getTime() - 60 * day), to: now }, timeZone);
      const orders = stats.series.reduce((sum, p) => sum + p.orders, 0);
      assert.ok(orders >= HISTORY_ORDER_COUNT * 0.9, `${orders} orders in the chart`);
      assert.ok(stats.series.filter((p) => p.amount > 0).length >= 30, 'sales on most days');
      assert.deepEqual(stats.items.map((i) => i.itemName).slice(0, 1), ['Zeitung'], 'the paper sells best');
      assert.ok(stats.items.some((i) => i.itemName === 'Digitale Ausgabe'));
      assert.ok(stats.vendors.active > 10 && stats.vendors.active < stats.vendors.total);
    });

    it('is the same history on another fresh database', async () => {
      const other = await startedDemo(engine);
      try {
        assert.deepEqual(await totals(other.db), await totals(db));
      } finally {
        await other.close();
      }
    });
  });
}
