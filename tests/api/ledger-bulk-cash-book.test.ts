import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { allowBackdating, backdatePayout } from '../../api/src/ledger/backdate.ts';
import { bookPaidOrdersInBulk, insertOrderEntriesInBulk } from '../../api/src/ledger/bulk.ts';
import { payOut } from '../../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { createTill } from '../../api/src/ledger/till.ts';
import { describeApi } from '../support/env.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// The books bench books the payouts of three years into the cash book set-based, in one statement
// (api/src/ledger/bulk.ts). That cash book must be the one payOut books payout by payout: the same
// history of over 100,000 ledger rows is booked twice, for two sets of vendors, once by the bulk twins
// with its payouts and once with its orders booked round by round and every payout paid by payOut
// from a till of its own, then the two cash books are compared row by row. Generated set-based, so
// the test takes seconds.

const timeZone = 'Europe/Berlin';
const vendorsPerSide = 100;
const rounds = 3;
const ordersPerPayout = 100;
const openingBalance = 100_000_000;
const firstPayoutId = 900_000;

interface Movement {
  vendor: string;
  year: number;
  voucher_number: number;
  day: string;
  kind: string;
  counterpart: string;
  amount: string;
  balance: string;
  staff: string;
  created_at: string;
}

describeApi('ledger: the bulk-booked cash book equals payOut, payout by payout', (t) => {
  it('books the same vouchers, gap-free, and the same running balance at every row', async function () {
    // PGlite holds the history in memory on one connection: the books bench runs on PostgreSQL.
    if (t.engine === 'pglite') this.skip();
    this.timeout(120_000);
    await t.reset();
    const bulkTill = (await t.db('tills').min<{ id: number }>('id as id').first())!.id;
    await t.db('tills').where({ id: bulkTill }).update({ opening_balance: openingBalance });
    const rowByRowTill = await createTill(t.db, { name: 'Row by row', openingBalance });

    // Payout (r, v) of vendor v in round r is at slot r * V + v of the current local year up to
    // now (payOut numbers its voucher in the year it books in); its orders lie in the slot before.
    await t.db.transaction(async (trx) => {
      const run = (sql: string, bindings: Knex.RawBinding[] = []) => trx.raw(sql, bindings);
      await run(
        `insert into vendors (license_id, first_name, last_name)
         select side || '-' || v, 'Cash', 'Book ' || side || v from generate_series(1, ?) v, (values ('A'), ('B')) s (side)`,
        [vendorsPerSide],
      );
      await run(
        `create temporary table slots on commit drop as
         select date_trunc('year', now() at time zone ?) at time zone ? as start,
           (now() - date_trunc('year', now() at time zone ?) at time zone ?) / (? + 1) as width`,
        [timeZone, timeZone, timeZone, timeZone, rounds * vendorsPerSide],
      );
      await run(
        `create table cash_book_test_plan as
         select row_number() over (order by s.side, r, v, k)::integer
             + (select coalesce(max(id), 0) from orders) as order_id,
           s.side, v, r, k, vd.id as vendor_id,
           date_trunc('milliseconds', sl.start + (r * ? + v) * sl.width) as payout_at,
           sl.start + (r * ? + v - 1) * sl.width + sl.width * k / (? + 1) as at,
           1 + (v * 7 + r * 3 + k) % 3 as prints, (v + k) % 5 = 0 as digital,
           case (v * 11 + k) % 4 when 0 then 100 when 1 then 200 else 0 end as tip
         from generate_series(1, ?) v, generate_series(0, ?) r, generate_series(1, ?) k,
           (values ('A'), ('B')) s (side), slots sl, vendors vd
         where vd.license_id = s.side || '-' || v`,
        [vendorsPerSide, vendorsPerSide, ordersPerPayout, vendorsPerSide, rounds - 1, ordersPerPayout],
      );
      await run(`create temporary table prices on commit drop as select
        (select price from items where name = 'Zeitung') as print, (select id from items where name = 'Zeitung') as print_id,
        (select price from items where name = 'Digitale Ausgabe') as digital,
        (select id from items where name = 'Digitale Ausgabe') as digital_id`);
      await run(`insert into orders (id, token, vendor_id, status, amount_total, tip, fee, expires_at, paid_at, created_at)
        select p.order_id, 'cashbook' || lpad(p.order_id::text, 35, '0'), p.vendor_id, 'paid', t.total, p.tip,
          round(t.total * 0.015) + 25, p.at, p.at, p.at
        from cash_book_test_plan p cross join prices pr
        cross join lateral (select p.prints * pr.print + (case when p.digital then pr.digital else 0 end) + p.tip as total) t`);
      await run(`select setval(pg_get_serial_sequence('orders', 'id'), (select max(id) from orders))`);
      await run(`create temporary table lines on commit drop as
        select p.order_id, pr.print_id as item_id, p.prints as quantity from cash_book_test_plan p cross join prices pr
        union all select p.order_id, pr.digital_id, 1 from cash_book_test_plan p cross join prices pr where p.digital`);
      await insertOrderEntriesInBulk(trx, 'lines');
    });

    try {
      // Side A: set-based, every payout at once, as the bench books.
      await t.db.transaction(async (trx) => {
        await trx.raw(
          `create temporary table bulk_plan on commit drop as
           select order_id, ? + r * ? + v as payout_id, payout_at from cash_book_test_plan where side = 'A'`,
          [firstPayoutId, vendorsPerSide],
        );
        await bookPaidOrdersInBulk(trx, { plan: 'bulk_plan', authorisedBy: 'bench', timeZone });
      });
      const [{ rows: bulkRows }] = await t.db('ledger_rows').count({ rows: '*' });
      assert.ok(Number(bulkRows) >= 100_000, `${bulkRows} ledger rows`);

      // Side B: a round's orders booked open, then its payouts one by one in time order through payOut.
      const vendorB = new Map<number, number>(
        (await t.db('vendors').where('license_id', 'like', 'B-%').select('id', 'license_id')).map(
          (v: { id: number; license_id: string }) => [Number(v.license_id.slice(2)), v.id],
        ),
      );
      for (let r = 0; r < rounds; r++) {
        await t.db.transaction(async (trx) => {
          await trx.raw(
            `create temporary table bulk_plan on commit drop as
             select order_id, null::integer as payout_id, null::timestamptz as payout_at
             from cash_book_test_plan where side = 'B' and r = ?`,
            [r],
          );
          await bookPaidOrdersInBulk(trx, { plan: 'bulk_plan', authorisedBy: 'bench', timeZone });
          await allowBackdating(trx);
          const payouts = (
            await trx.raw<{ rows: { v: number; payout_at: Date }[] }>(
              `select distinct v, payout_at from cash_book_test_plan where side = 'B' and r = ? order by payout_at`,
              [r],
            )
          ).rows;
          for (const { v, payout_at } of payouts) {
            const vendorId = vendorB.get(v)!;
            const { credit } = await vendorAccountSummary(trx, vendorId);
            const id = await payOut(
              trx,
              {
                vendorId,
                expectedAmount: credit,
                authorisedBy: 'bench',
                timeZone,
                tillId: rowByRowTill,
              },
              publishLedgerEvent,
            );
            await backdatePayout(trx, id, new Date(payout_at), timeZone);
          }
        });
      }

      const book = async (tillId: number): Promise<Movement[]> =>
        (
          await t.db.raw<{ rows: Movement[] }>(
            `select substr(v.license_id, 3) as vendor, m.year, m.voucher_number, to_char(m.day, 'YYYY-MM-DD') as day,
               m.kind, m.counterpart, m.amount::text, m.balance::text, m.staff, m.created_at::text
             from cash_movements m join vendors v on v.id = m.vendor_id where m.till_id = ? order by m.id`,
            [tillId],
          )
        ).rows;
      const setBased = await book(bulkTill);
      const oneByOne = await book(rowByRowTill);
      assert.equal(setBased.length, rounds * vendorsPerSide);
      assert.deepEqual(setBased, oneByOne);

      // Gap-free per till and year from 1, each balance the one before plus the amount.
      let balance = openingBalance;
      const next = new Map<number, number>();
      for (const [n, m] of setBased.entries()) {
        const voucher = (next.get(m.year) ?? 0) + 1;
        next.set(m.year, voucher);
        assert.equal(m.voucher_number, voucher, `voucher of row ${n + 1}`);
        balance += Number(m.amount);
        assert.equal(Number(m.balance), balance, `balance at row ${n + 1}`);
      }
      const counters = await t
        .db('till_voucher_counters')
        .whereIn('till_id', [bulkTill, rowByRowTill])
        .orderBy(['year', 'till_id'])
        .select('till_id', 'year', 'next');
      assert.deepEqual(
        counters.map((c: { year: number; next: number }) => [c.year, c.next]),
        [...next].flatMap(([year, last]) => [
          [year, last + 1],
          [year, last + 1],
        ]),
      );
    } finally {
      await t.db.schema.dropTableIfExists('cash_book_test_plan');
    }
  });
});
