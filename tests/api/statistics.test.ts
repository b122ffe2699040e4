import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { bookHistory } from '../support/books.ts';
import { describeApi, type ApiTest } from '../support/env.ts';
import { localDay } from '../../api/src/foundations/period.ts';

// The statistics: per item, per day/week/month and vendor activity equal direct
// SQL over the ledger (sales and tips customers → vendor, refunds vendor → customers subtracted),
// with the period's bounds and the local days computed by PostgreSQL.

const zone = 'Europe/Berlin';

interface Statistics {
  from: string;
  to: string;
  granularity: string;
  items: { itemId: number | null; itemName: string | null; quantity: number; amount: number }[];
  series: { period: string; amount: number; quantity: number; orders: number }[];
  vendors: { active: number; total: number; percent: number };
}

async function midnight(t: ApiTest, day: string): Promise<Date> {
  const { rows } = await t.db.raw('select (?::date)::timestamp at time zone ? as at', [day, zone]);
  return rows[0].at;
}

/** Net sales of [from, to) grouped by `key` (an SQL expression over `r`), straight from the ledger. */
async function netSales(t: ApiTest, from: Date, to: Date, key: string) {
  const { rows } = await t.db.raw(
    `select ${key} as key,
       sum(case when s.kind = 'customers' then r.amount else -r.amount end)::bigint as amount,
       sum(case when s.kind = 'customers' then coalesce(r.quantity, 0) else -coalesce(r.quantity, 0) end)::bigint as quantity,
       count(distinct r.order_id) filter (where s.kind = 'customers')::bigint as orders
     from ledger_rows r
     join ledger_accounts s on s.id = r.sender_id
     join ledger_accounts c on c.id = r.receiver_id
     where (s.kind = 'customers' or c.kind = 'customers') and r.created_at >= ? and r.created_at < ?
     group by 1 order by 1`,
    [from, to],
  );
  return rows as { key: string | number | null; amount: number; quantity: number; orders: number }[];
}

const sum = (values: { amount: number }[]) => values.reduce((total, v) => total + v.amount, 0);

describeApi('statistics', (t) => {
  let http: supertest.Agent;
  let office: string;
  before(async function () {
    this.timeout(120_000);
    await bookHistory(t.db);
    http = supertest.agent(buildApp({ db: t.db, config: { ...t.config, timeZone: zone } }).callback());
    office = await t.office();
  });

  const statistics = async (query: Record<string, string>): Promise<Statistics> => {
    const res = await http.get('/api/payments/statistics/').query(query).set('Authorization', office);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  it('sums May per item and per local day like SQL, refunds subtracted', async () => {
    const from = await midnight(t, '2026-05-01');
    const to = await midnight(t, '2026-06-01');
    const may = await statistics({ from: '2026-05-01', to: '2026-05-31' });
    assert.deepEqual([may.from, may.to, may.granularity], [from.toISOString(), to.toISOString(), 'day']);

    const byDay = await netSales(t, from, to, `to_char(r.created_at at time zone '${zone}', 'YYYY-MM-DD')`);
    assert.equal(may.series.length, 31);
    assert.deepEqual(may.series.map((p) => p.period).slice(0, 2), ['2026-05-01', '2026-05-02']);
    for (const point of may.series) {
      const day = byDay.find((d) => d.key === point.period) ?? { amount: 0, quantity: 0, orders: 0 };
      assert.deepEqual(
        [point.amount, point.quantity, point.orders],
        [day.amount, day.quantity, day.orders],
        point.period,
      );
    }
    assert.ok(
      byDay.every((d) => may.series.some((p) => p.period === d.key)),
      'no day left out',
    );

    const byItem = await netSales(t, from, to, 'r.item_id');
    assert.deepEqual(
      may.items.map((i) => [i.itemId, i.amount, i.quantity]).sort(),
      byItem.map((i) => [i.key, i.amount, i.quantity]).sort(),
    );
    assert.ok(
      may.items.some((i) => i.itemId === null && i.amount > 0),
      'tips are their own line',
    );
    assert.equal(may.items.find((i) => i.itemId !== null)!.itemName !== null, true);

    const refunds = await t
      .db('ledger_rows')
      .where({ kind: 'refund' })
      .whereBetween('created_at', [from, to])
      .sum({ s: 'amount' })
      .first();
    const gross = await t
      .db('ledger_rows')
      .whereIn('kind', ['sale', 'tip'])
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .sum({ s: 'amount' })
      .first();
    assert.ok(Number(refunds!.s) > 0, 'a refund happened in May');
    assert.ok(
      sum(may.series) < Number(gross!.s) && sum(may.items) === sum(may.series),
      'items and series agree, refunds taken off',
    );
  });

  it('counts active vendors among all active ones', async () => {
    const from = await midnight(t, '2026-05-01');
    const to = await midnight(t, '2026-06-01');
    const { vendors } = await statistics({ from: '2026-05-01', to: '2026-05-31' });
    const { rows } = await t.db.raw(
      `select count(distinct a.vendor_id)::bigint as n from ledger_rows r join ledger_accounts a on a.id = r.receiver_id
       where r.kind = 'sale' and r.created_at >= ? and r.created_at < ?`,
      [from, to],
    );
    const live = await t.db('vendors').whereNull('deleted_at').where({ is_disabled: false }).count({ n: '*' }).first();
    assert.equal(vendors.active, rows[0].n);
    assert.equal(vendors.total, Number(live!.n));
    assert.equal(vendors.percent, Math.round((vendors.active / vendors.total) * 1000) / 10);
    assert.ok(vendors.active > 0 && vendors.active < vendors.total);
  });

  it('reads a period with offsets like the same local days, and the 23-hour day of the clock change', async () => {
    const bare = await statistics({ from: '2026-05-01', to: '2026-05-31' });
    const offsets = await statistics({ from: '2026-05-01T00:00:00+02:00', to: '2026-06-01T00:00:00+02:00' });
    assert.deepEqual(offsets, bare);

    const day = await statistics({ from: '2026-03-29', to: '2026-03-29' });
    const reference = await netSales(t, await midnight(t, '2026-03-29'), await midnight(t, '2026-03-30'), `'all'`);
    assert.deepEqual(
      day.series.map((p) => [p.period, p.amount]),
      [['2026-03-29', reference[0].amount]],
    );
    assert.equal(new Date(day.to).getTime() - new Date(day.from).getTime(), 23 * 3600 * 1000);
  });

  it('groups a quarter by week (Mondays) and more than a year by month, with the same totals', async () => {
    const quarter = await statistics({ from: '2026-03-15', to: '2026-06-19' });
    assert.equal(quarter.granularity, 'week');
    assert.equal(quarter.series[0].period, '2026-03-09', 'the Monday of the week holding 15 March');
    assert.ok(quarter.series.every((p) => new Date(`${p.period}T12:00:00Z`).getUTCDay() === 1));
    const byWeek = await netSales(
      t,
      await midnight(t, '2026-03-15'),
      await midnight(t, '2026-06-20'),
      `to_char(date_trunc('week', r.created_at at time zone '${zone}'), 'YYYY-MM-DD')`,
    );
    assert.deepEqual(
      quarter.series.filter((p) => p.amount !== 0).map((p) => [p.period, p.amount, p.orders]),
      byWeek.map((w) => [w.key, w.amount, w.orders]),
    );

    const long = await statistics({ from: '2025-06-01', to: '2026-06-30' });
    assert.equal(long.granularity, 'month');
    assert.deepEqual(long.series.map((p) => p.period).slice(-4), [
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
      '2026-06-01',
    ]);
    assert.equal(long.series.length, 13);
    const all = await netSales(t, await midnight(t, '2025-06-01'), await midnight(t, '2026-07-01'), `'all'`);
    assert.equal(sum(long.series), all[0].amount);
  });

  it('answers the last 30 days, today included, when no period is given', async () => {
    const recent = await statistics({});
    assert.equal(recent.granularity, 'day');
    assert.equal(recent.series.length, 30);
    assert.equal(recent.series[29].period, localDay(new Date(), zone));
    assert.equal(recent.from, (await midnight(t, recent.series[0].period)).toISOString());
  });

  it('refuses the years 1970 to 9999 with a sentence in German and English instead of counting their months', async () => {
    const query = { from: '1970-01-01', to: '9999-12-31' };
    const german = await http.get('/api/payments/statistics/').query(query).set('Authorization', office);
    assert.equal(german.status, 400, JSON.stringify(german.body));
    assert.equal(german.body.message, '„from“ muss in den Jahren 2000 bis 2100 liegen.');
    const english = await http
      .get('/api/payments/statistics/')
      .query(query)
      .set('Authorization', office)
      .set('Accept-Language', 'en');
    assert.equal(english.status, 400);
    assert.equal(english.body.message, '"from" must lie within the years 2000 to 2100.');
  });

  it('refuses a period it cannot read', async () => {
    for (const query of [
      { from: '2026-05-31', to: '2026-05-01' },
      { from: 'last week' },
      { table: 'pie', format: 'csv' },
      { filter: '{"item":1}' },
    ]) {
      const res = await http.get('/api/payments/statistics/').query(query).set('Authorization', office);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.ok(res.body.message);
    }
  });
});
