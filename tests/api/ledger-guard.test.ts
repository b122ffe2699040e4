import assert from 'node:assert/strict';
import { pgCode } from '../../api/src/db/connection.ts';
import { payOut, reversePayout } from '../../api/src/ledger/payout.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { allowBackdating } from '../../seeds/history.ts';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { publishLedgerEvent } from '../../api/src/webhooks-out/ledger-events.ts';

// The database itself refuses to edit or delete booked money (migration 009), whoever sends the SQL.

async function refused(write: () => Promise<unknown>): Promise<void> {
  await assert.rejects(write, (error) => {
    assert.equal(pgCode(error), 'LG001', String(error));
    assert.match(String(error), /cannot be (changed|deleted)/);
    return true;
  });
}

describeApi('ledger guard', (t) => {
  let vendorId: number;
  let otherVendorId: number;

  beforeEach(async () => {
    await t.reset();
    [vendorId, otherVendorId] = await t
      .db('vendors')
      .whereIn('license_id', ['DEMO-1', 'DEMO-2'])
      .orderBy('license_id')
      .pluck('id');
    await bookPaidOrder(t.db, vendorId, new Date('2026-05-04T10:00:00Z'), { prints: 2, digital: 1, tip: 100 });
  });

  const firstSale = () => t.db('ledger_rows').where({ kind: 'sale' }).orderBy('id').first();

  async function pay(vendor = vendorId) {
    const { credit } = await vendorAccountSummary(t.db, vendor);
    return payOut(
      t.db,
      {
        vendorId: vendor,
        expectedAmount: credit,
        authorisedBy: 'cashier',
        timeZone: 'Europe/Berlin',
      },
      publishLedgerEvent,
    );
  }

  it('refuses changing the amount, the accounts or the kind of a booked row, and keeps the row as it was', async () => {
    const row = await firstSale();
    const { id: cash } = await t.db('ledger_accounts').where({ kind: 'cash' }).first('id');
    await refused(() => t.db('ledger_rows').where({ id: row.id }).update({ amount: 1 }));
    await refused(() => t.db('ledger_rows').where({ id: row.id }).update({ sender_id: cash }));
    await refused(() => t.db('ledger_rows').where({ id: row.id }).update({ receiver_id: cash }));
    await refused(() => t.db('ledger_rows').where({ id: row.id }).update({ kind: 'tip' }));
    await refused(() => t.db.raw('update ledger_rows set amount = amount + 1'));
    assert.deepEqual(await firstSale(), row);
  });

  it('refuses deleting a booked row, one or all', async () => {
    const count = (await t.db('ledger_rows').count({ n: '*' }).first())!.n;
    const row = await firstSale();
    await refused(() => t.db('ledger_rows').where({ id: row.id }).del());
    await refused(() => t.db.raw('delete from ledger_rows'));
    assert.equal((await t.db('ledger_rows').count({ n: '*' }).first())!.n, count);
  });

  it('lets a payout settle open rows, and refuses moving a settled row to another payout or back to open', async () => {
    const payoutId = await pay();
    const settled = await t.db('ledger_rows').where({ payout_id: payoutId }).whereNot({ kind: 'payout' }).pluck('id');
    assert.ok(settled.length >= 3, 'the payout stamped the rows it settled');
    assert.equal((await vendorAccountSummary(t.db, vendorId)).credit, 0);

    await bookPaidOrder(t.db, otherVendorId, new Date('2026-05-05T10:00:00Z'), { prints: 1, digital: 0, tip: 0 });
    const otherPayout = await pay(otherVendorId);
    await refused(() => t.db('ledger_rows').where({ id: settled[0] }).update({ payout_id: otherPayout }));
    await refused(() => t.db('ledger_rows').where({ id: settled[0] }).update({ payout_id: null }));
    // stamping an open row must change nothing else at the same time
    await bookPaidOrder(t.db, vendorId, new Date('2026-05-06T10:00:00Z'), { prints: 1, digital: 0, tip: 0 });
    const open = await t.db('ledger_rows').whereNull('payout_id').where({ kind: 'sale' }).first('id');
    await refused(() => t.db('ledger_rows').where({ id: open.id }).update({ payout_id: payoutId, amount: 1 }));
    assert.deepEqual(
      await t.db('ledger_rows').where({ payout_id: payoutId }).whereNot({ kind: 'payout' }).pluck('id'),
      settled,
    );
  });

  it('reverses a payout once, and refuses editing or deleting the payout', async () => {
    const payoutId = await pay();
    const before = await t.db('payouts').where({ id: payoutId }).first();
    await refused(() =>
      t
        .db('payouts')
        .where({ id: payoutId })
        .update({ amount: before.amount + 100 }),
    );
    await refused(() => t.db('payouts').where({ id: payoutId }).update({ vendor_id: otherVendorId }));
    await refused(() => t.db('payouts').where({ id: payoutId }).update({ receipt_number: 'X-1' }));
    await refused(() => t.db('payouts').where({ id: payoutId }).del());

    await reversePayout(
      t.db,
      { payoutId, reason: 'Counted twice', authorisedBy: 'office', timeZone: 'Europe/Berlin' },
      publishLedgerEvent,
    );
    const reversed = await t.db('payouts').where({ id: payoutId }).first();
    assert.equal(reversed.reversed_by, 'office');
    assert.equal(
      (await vendorAccountSummary(t.db, vendorId)).credit,
      before.amount,
      'the reversal booked the credit back',
    );
    // the reversal is history too
    await refused(() => t.db('payouts').where({ id: payoutId }).update({ reversal_reason: 'Something else' }));
    await refused(() =>
      t.db('payouts').where({ id: payoutId }).update({ reversed_at: null, reversed_by: null, reversal_reason: null }),
    );
    await refused(() => t.db('ledger_rows').where({ kind: 'payout_reversal' }).del());
    assert.deepEqual(await t.db('payouts').where({ id: payoutId }).first(), reversed);
  });

  it('lets a transaction date only the rows it booked itself, and only when it says so', async () => {
    const row = await firstSale();
    const past = new Date('2020-01-01T00:00:00Z');
    // a row committed earlier keeps its time, even with the setting
    await refused(() =>
      t.db.transaction(async (trx) => {
        await allowBackdating(trx);
        await trx('ledger_rows').where({ id: row.id }).update({ created_at: past });
      }),
    );
    // a row booked now, without the setting, keeps its time too
    await refused(() =>
      t.db.transaction(async (trx) => {
        const id = await payOut(
          trx,
          {
            vendorId,
            expectedAmount: (await vendorAccountSummary(trx, vendorId)).credit,
            authorisedBy: 'cashier',
            timeZone: 'Europe/Berlin',
          },
          publishLedgerEvent,
        );
        await trx('payouts').where({ id }).update({ created_at: past });
      }),
    );
    // the setting lasts only for its transaction
    await refused(() => t.db('ledger_rows').where({ id: row.id }).update({ created_at: past }));
    assert.deepEqual(await firstSale(), row);
  });
});
