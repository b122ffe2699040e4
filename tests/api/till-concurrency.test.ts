import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { createTill } from '../../api/src/ledger/till.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { capturedLog } from '../support/log.ts';

// Bookings of one till at the same time: they queue on the till and never deadlock; the cash book
// stays gap-free.

interface Movement {
  voucher: string;
  amountIn: number;
  amountOut: number;
  balance: number;
}

describeApi('till: bookings at the same time', (t) => {
  let office = '';
  before(async () => {
    office = await t.office();
  });
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const payOut = (body: object) => as(t.http.post('/api/payments/payout')).send(body);

  /** Every row's balance is the one before plus its amount; vouchers 1, 2, 3 …; answers the rows. */
  async function assertBookAddsUp(tillId: number, openingBalance: number): Promise<Movement[]> {
    const res = await as(t.http.get(`/api/tills/${tillId}/book`));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rows = res.body.movements as Movement[];
    let balance = openingBalance;
    rows.forEach((row, n) => {
      balance += row.amountIn - row.amountOut;
      assert.equal(row.balance, balance, `running balance at row ${n + 1}`);
      assert.equal(Number(row.voucher.split('-')[2]), n + 1, `voucher of row ${n + 1} is ${row.voucher}`);
    });
    assert.equal(res.body.till.balance, balance, 'the till balance is the last row’s');
    return rows;
  }

  it('pays out 50 vendors from one till at once: each answer 201 or a plain 409, the cash book gap-free', async function () {
    // PGlite has one connection: its bookings cannot overlap.
    if (t.engine === 'pglite') this.skip();
    const extra = Array.from({ length: 20 }, (_, n) => ({ license_id: `RACE-${n + 1}`, first_name: 'Race' }));
    await t.db('vendors').insert(extra);
    const vendors: { id: number; license_id: string }[] = await t
      .db('vendors')
      .where('license_id', 'like', 'DEMO-%')
      .whereNot({ license_id: 'DEMO-OFF' })
      .orWhere('license_id', 'like', 'RACE-%')
      .select('id', 'license_id');
    assert.equal(vendors.length, 50);
    await Promise.all(vendors.map((v) => bookPaidOrder(t.db, v.id, new Date(), { prints: 1, digital: 0, tip: 100 })));
    const credits = await Promise.all(vendors.map(async (v) => (await vendorAccountSummary(t.db, v.id)).credit));
    const openingBalance = 1_000_000;
    const tillId = await createTill(t.db, { name: 'Race', openingBalance });

    let answers: supertest.Response[] = [];
    const lines = await capturedLog(async () => {
      answers = await Promise.all(
        vendors.map((v, n) => payOut({ vendor: v.license_id, expectedAmount: credits[n], tillId })),
      );
    });
    // The till's lock comes first in each: they queue on it, and PostgreSQL finds no deadlock to break.
    assert.deepEqual(
      lines.filter((line) => /"request failed"/.test(line)),
      [],
    );
    const unexpected = answers.filter(
      (res) => res.status !== 201 && !(res.status === 409 && /try again/.test(res.body.message)),
    );
    assert.deepEqual(
      unexpected.map((res) => [res.status, res.body]),
      [],
    );
    const paid = answers.filter((res) => res.status === 201).map((res) => res.body.amount as number);
    const rows = await assertBookAddsUp(tillId, openingBalance);
    assert.equal(rows.length, paid.length);
    assert.equal(
      rows.at(-1)?.balance ?? openingBalance,
      openingBalance - paid.reduce((sum, amount) => sum + amount, 0),
    );
  });
});
