import assert from 'node:assert/strict';
import type { Db } from '../../api/src/db/connection.ts';
import { payOut } from '../../api/src/ledger/payout.ts';
import { bookRefund } from '../../api/src/ledger/refund.ts';
import { bookHistory, bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { listedVendor } from '../support/sales.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// One credit: every place that shows a vendor's credit answers the same figure, to the cent, on a
// history with sales, licence shares, fees with and without cover, payouts, a reversal and refunds
// before and after a payout; and that figure is the plain SQL sum of the vendor's open rows.

/** Open rows received minus open rows sent, written out in SQL here and nowhere else. */
async function creditInSql(db: Db, vendorId: number): Promise<number> {
  const { rows } = await db.raw<{ rows: { credit: number | string }[] }>(
    `select coalesce(sum(case when r.receiver_id = a.id then r.amount else -r.amount end), 0)::bigint as credit
     from ledger_accounts a join ledger_rows r on (r.receiver_id = a.id or r.sender_id = a.id) and r.payout_id is null
     where a.vendor_id = ?`,
    [vendorId],
  );
  return Number(rows[0].credit);
}

const at = (time: string) => new Date(`2026-06-21T${time}:00Z`);

describeApi('one credit: vendor list, vendor answer, forpayout, /me, deletion and payout agree', (t) => {
  let office = '';
  before(async function () {
    this.timeout(120_000);
    await t.reset();
    office = await t.office();
    const { vendorIds } = await bookHistory(t.db, { orders: 80, seed: 11 });
    const [first, second, third] = vendorIds as [number, number, number];
    // The history has payouts, a reversal and a refund; on top: a refund of a sale still open, a
    // refund of a sale already paid out (a debt), and a sale refunded at once.
    const open = await bookPaidOrder(t.db, first, at('10:00'), { prints: 2, digital: 1, tip: 100 });
    const paidOut = await bookPaidOrder(t.db, second, at('11:00'), { prints: 1, digital: 1, tip: 0 });
    const secondLicence = (await t.db('vendors').where({ id: second }).first('license_id')).license_id as string;
    const { credit } = await listedVendor(t, office, secondLicence);
    await t.db.transaction(async (trx) => {
      await bookRefund(trx, open, { id: `re_credit_${open}` }, 'credit test');
      const payout = await payOut(
        trx,
        {
          vendorId: second,
          expectedAmount: credit,
          authorisedBy: 'credit test',
          timeZone: 'Europe/Berlin',
        },
        publishLedgerEvent,
      );
      await bookRefund(trx, paidOut, { id: `re_credit_${paidOut}` }, 'credit test');
      assert.ok(payout > 0);
      const cart = { prints: 1, digital: 0, tip: 0 };
      const refunded = await bookPaidOrder(trx, third, at('12:00'), cart);
      await bookRefund(trx, refunded, { id: `re_credit_${refunded}` }, 'credit test');
    });
  });

  it("answers each vendor's credit alike in every place, equal to the SQL sum of the open rows", async function () {
    this.timeout(60_000);
    const vendors: { id: number; license_id: string; email: string }[] = await t
      .db('vendors')
      .whereNull('deleted_at')
      .whereIn('license_id', ['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4', 'DEMO-5', 'DEMO-6'])
      .orderBy('id')
      .select('id', 'license_id', 'email');
    const seen = { positive: 0, negative: 0, zero: 0 };
    for (const vendor of vendors) {
      const sql = await creditInSql(t.db, vendor.id);
      seen[sql > 0 ? 'positive' : sql < 0 ? 'negative' : 'zero']++;
      const listed = (await listedVendor(t, office, vendor.license_id)).credit;
      const answer = await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', office);
      const forPayout = await t.http
        .get('/api/payments/forpayout/')
        .query({ vendor: vendor.license_id })
        .set('Authorization', office);
      const openRows = forPayout.body.payments as { amount: number; sign: number }[];
      const rowsSum = openRows.reduce((sum, row) => sum + row.sign * row.amount, 0);
      const claims = { sub: `vendor-${vendor.email}`, preferred_username: vendor.email, vendor: vendor.license_id };
      const token = await t.auth(['vendor'], claims);
      const me = await t.http.get('/api/vendors/me').set('Authorization', token);
      assert.equal(me.status, 200, JSON.stringify(me.body));
      const figures = {
        sql,
        listed,
        answer: answer.body.credit,
        forPayout: forPayout.body.balance,
        forPayoutRows: rowsSum,
        me: me.body.credit,
      };
      const same = { sql, listed: sql, answer: sql, forPayout: sql, forPayoutRows: sql, me: sql };
      assert.deepEqual(figures, same, vendor.license_id);

      // Deletion reads the same credit: refused with it while it is not zero.
      const deletion = await t.http.delete(`/api/vendors/${vendor.id}`).set('Authorization', office);
      if (sql !== 0) {
        assert.equal(deletion.status, 409, JSON.stringify(deletion.body));
        // The suite's client asks in English: the amount as English writes it.
        const amount = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(sql / 100);
        assert.ok(deletion.body.message.includes(`(${amount})`), deletion.body.message);
      } else {
        assert.equal(deletion.status, 200, JSON.stringify(deletion.body));
        continue;
      }
      // The payout pays exactly that credit, or finds nothing to pay.
      const payout = await t.http
        .post('/api/payments/payout')
        .set('Authorization', office)
        .send({ vendor: vendor.license_id, expectedAmount: Math.max(sql, 0) });
      if (sql > 0) {
        assert.equal(payout.status, 201, JSON.stringify(payout.body));
        assert.equal(payout.body.amount, sql);
        assert.equal(await creditInSql(t.db, vendor.id), 0);
      } else {
        assert.equal(payout.status, 409, JSON.stringify(payout.body));
        assert.match(payout.body.message, /^No credits to pay out/);
      }
    }
    // The history gave the comparison something to compare: credit, debt and nothing.
    assert.ok(seen.positive >= 2 && seen.negative >= 1 && seen.zero >= 1, JSON.stringify(seen));
  });
});
