import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';
import { localMidnight } from '../../api/src/foundations/period.ts';

// The API turns local days into instants in JavaScript; the database must agree to the second, or
// a statistics day and a list period would disagree about a row at midnight.
describeApi('periods agree with the database', (t) => {
  it('has every local midnight of 2025 to 2027 where PostgreSQL has it, in zones with and without clock changes', async () => {
    for (const zone of ['Europe/Berlin', 'America/Santiago', 'Australia/Sydney', 'Asia/Kolkata', 'UTC']) {
      const { rows } = await t.db.raw(
        `select to_char(day, 'YYYY-MM-DD') as day, (day::timestamp at time zone ?) as at from generate_series('2025-01-01'::date, '2027-12-31'::date, interval '1 day') as day`,
        [zone],
      );
      const differing = (rows as { day: string; at: Date }[]).filter(
        (row) => localMidnight(row.day, zone).getTime() !== new Date(row.at).getTime(),
      );
      assert.deepEqual(
        differing.map((row) => row.day),
        [],
        zone,
      );
    }
  });
});

// A period of millennia is refused before any work: the statistics once laid out a bucket per month
// from 1970 to 9999, blocking the server for seconds and failing past the year 9999.
describeApi('every period route refuses a period outside the years 2000 to 2100', (t) => {
  it('refuses each end of an unbounded period on every route that takes one', async () => {
    const office = await t.office();
    const [vendor] = await t.db('vendors').select<{ id: number }[]>('id').limit(1);
    const [till] = await t.db('tills').select<{ id: number }[]>('id').limit(1);
    assert.ok(vendor && till, 'the demo newspaper has a vendor and a till');
    const ranges = { from: '2026-01-01', to: '2026-12-31' };
    const days = (from: string, to: string) => ({ from, to });
    const listed = (from: string, to: string) => ({ filter: JSON.stringify({ from, to }) });
    const months = (from: string, to: string) => ({ from: from.slice(0, 7), to: to.slice(0, 7) });
    const routes: [string, (from: string, to: string) => Record<string, string>][] = [
      ['/api/payments/statistics/', days],
      ['/api/payments', listed],
      ['/api/payments/totals', listed],
      ['/api/payments/accounts', days],
      ['/api/accounting/datev', days],
      ['/api/accounting/trial-balance', days],
      ['/api/stripe-reconciliation', days],
      ['/api/stripe-reconciliation.csv', days],
      ['/api/orders', listed],
      ['/api/payouts', listed],
      ['/api/payouts/totals', listed],
      ['/api/protocol', listed],
      [`/api/vendors/${vendor.id}/statement`, days],
      [`/api/vendors/${vendor.id}/benefit-statement`, months],
      ['/api/benefit-statements', months],
      ['/api/tills/dsfinvk', days],
      ['/api/tills/dep7', days],
      [`/api/tills/${till.id}/book`, days],
    ];
    const refused: string[] = [];
    for (const [route, query] of routes) {
      for (const [from, to] of [
        ['1970-01-01', ranges.to],
        [ranges.from, '9999-12-31'],
        ['1999-12-31', ranges.to],
        [ranges.from, '2101-01-01'],
      ] as const) {
        const res = await t.http.get(route).query(query(from, to)).set('Authorization', office);
        if (res.status === 400 && /2000 to 2100/.test(JSON.stringify(res.body))) refused.push(`${route} ${from} ${to}`);
        else assert.fail(`${route} ${from}…${to}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }
    for (const year of ['1970', '1999', '2101', '9999']) {
      const res = await t.http.get('/api/statements').query({ year }).set('Authorization', office);
      assert.equal(res.status, 400, year);
      assert.match(res.body.message, /2000 to 2100/);
    }
    assert.equal(refused.length, routes.length * 4);
  });

  it('accepts the first and the last day of the years a period may touch', async () => {
    const office = await t.office();
    const res = await t.http
      .get('/api/payments/statistics/')
      .query({ from: '2000-01-01', to: '2100-12-31' })
      .set('Authorization', office);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.granularity, 'month');
    assert.equal(res.body.series.length, 101 * 12);
  });
});
