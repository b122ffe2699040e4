import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../api/src/db/connection.ts';
import { bookOrder, orderEntryRows, type PricedItem } from '../../api/src/ledger/book.ts';
import { VendorDeleted } from '../../api/src/ledger/errors.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { listenBooksShop } from '../support/sales.ts';
import { payInSandbox } from '../support/sandbox.ts';

// Deleting a vendor while their sales are being booked: whichever comes first, a deleted vendor
// never holds credit. Either the deletion sees the booked sale and refuses, or the sale finds the
// vendor deleted and books nothing (the payment is then flagged for staff, see orders/settle.ts).

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pending order of the vendor for one newspaper, stored as the shop stores it. */
async function pendingOrder(db: Db, vendorId: number, print: { id: number; price: number }) {
  const [{ id }] = await db('orders')
    .insert({
      token: randomBytes(32).toString('base64url'),
      vendor_id: vendorId,
      amount_total: print.price,
      tip: 0,
      expires_at: new Date(Date.now() + 1_800_000),
    })
    .returning<{ id: number }[]>('id');
  await db('order_entries').insert(orderEntryRows(id, [{ item: print, quantity: 1, licence: null }], 0));
  return { id, vendor_id: vendorId };
}

/** What settling a paid order does with the books: under the order's lock, book it and mark it paid. */
async function settle(db: Db, order: { id: number; vendor_id: number }): Promise<'booked' | 'vendor deleted'> {
  try {
    await db.transaction(async (trx) => {
      await trx('orders').where({ id: order.id }).forUpdate().first('id');
      await bookOrder(trx, order);
      await trx('orders').where({ id: order.id }).update({ status: 'paid', paid_at: trx.fn.now() });
    });
    return 'booked';
  } catch (error) {
    if (error instanceof VendorDeleted) return 'vendor deleted';
    throw error;
  }
}

describeApi('vendor deletion while sales are booked', (t) => {
  it('never ends with a deleted vendor holding credit, however deletion and bookings interleave', async function () {
    if (t.engine !== 'postgres') this.skip(); // PGlite has one connection: nothing runs side by side there
    this.timeout(120_000);
    await t.reset();
    const office = await t.office();
    const print = await t.db('items').where({ name: 'Zeitung' }).first<PricedItem>('id', 'price');
    const outcomes = { deleted: 0, refused: 0, salesBooked: 0, salesRefused: 0 };
    for (let round = 0; round < 40; round++) {
      const [{ id: vendorId }] = await t
        .db('vendors')
        .insert({ license_id: `RACE-${round}`, first_name: 'Race', last_name: String(round) })
        .returning<{ id: number }[]>('id');
      const orders = await Promise.all([0, 1, 2].map(() => pendingOrder(t.db, vendorId, print)));
      // The sales start a little later each round: some rounds the deletion wins, some the sales. A
      // fixed pause on purpose: it waits for nothing, it shifts the race so that it falls both ways.
      const delay = (round % 10) * 3;
      const [deletion, ...sales] = await Promise.all([
        t.http.delete(`/api/vendors/${vendorId}`).set('Authorization', office),
        ...orders.map((order, i) => wait(delay + i * 2).then(() => settle(t.db, order))),
      ]);
      assert.ok([200, 409].includes(deletion.status), `${deletion.status} ${JSON.stringify(deletion.body)}`);
      const vendor = await t.db('vendors').where({ id: vendorId }).first<{
        deleted_at: Date | null;
      }>('deleted_at');
      const { credit } = await vendorAccountSummary(t.db, vendorId);
      const booked = sales.filter((s) => s === 'booked').length;
      if (vendor.deleted_at) {
        assert.equal(credit, 0, `round ${round}: vendor deleted with a credit of ${credit}`);
        outcomes.deleted++;
      } else {
        assert.equal(deletion.status, 409, `round ${round}: ${JSON.stringify(deletion.body)}`);
        outcomes.refused++;
      }
      // Every sale is either booked in full or not at all.
      assert.equal(credit, booked * print.price, `round ${round}`);
      outcomes.salesBooked += booked;
      outcomes.salesRefused += sales.length - booked;
    }
    // Both orders of events happened, so the rounds did test the race.
    assert.ok(outcomes.deleted > 0 && outcomes.refused > 0, JSON.stringify(outcomes));
    console.log(`      ${JSON.stringify(outcomes)}`);
  });

  it('flags a payment that arrives after its vendor was deleted and books nothing for it', async function () {
    this.timeout(60_000);
    await t.reset();
    const office = await t.office();
    const shop = await listenBooksShop(t);
    try {
      const [{ id: vendorId }] = await t
        .db('vendors')
        .insert({ license_id: 'GONE-1', first_name: 'Gone' })
        .returning<{ id: number }[]>('id');
      const entries = [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }];
      const placed = await shop.http.post('/api/orders').send({ vendor: 'GONE-1', entries, tip: 0 });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const deletion = await t.http.delete(`/api/vendors/${vendorId}`).set('Authorization', office);
      assert.equal(deletion.status, 200, JSON.stringify(deletion.body));
      const back = await payInSandbox(shop.url, placed.body.checkoutUrl);
      const verified = await shop.http.get(`/api/orders/verify${new URL(back).search}`);
      assert.equal(verified.body.status, 'flagged', JSON.stringify(verified.body));
      const order = await t.db('orders').where({ token: placed.body.order }).first('id', 'flag_reason');
      assert.match(order.flag_reason, /vendor was deleted/);
      assert.deepEqual(await t.db('ledger_rows').where({ order_id: order.id }).select('kind'), []);
      assert.equal((await vendorAccountSummary(t.db, vendorId)).credit, 0);
    } finally {
      await shop.close();
    }
  });
});
