import assert from 'node:assert/strict';
import { describeApi } from '../support/env.ts';
import { placeMainOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// A customer whose card Stripe charged may show the vendor so, even when the booking does not land:
// the verify call answers the pending receipt with `charged: true` (at once, without waiting), and
// the receipt says "paid" once a later call books it.

describeApi('the verify call says when Stripe charged the card but the booking has not landed', (t) => {
  // Webhooks are not accepted here (another secret): only the verify call books.
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, (c) => ({
      orderRateLimit: 10_000,
      stripe: { ...c.stripe, webhookSecret: 'whsec_not_the_sandbox' },
    }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const verify = (back: string, wait = '') =>
    shop.http.get(`/api/orders/verify${new URL(back).search}${wait && `&wait=${wait}`}`);
  /** A new look-up window for the order, as the next one would be a few seconds later. */
  const nextWindow = () => t.db('rate_limits').where({ bucket: 'verify_lookup' }).delete();

  it('answers "pending" with charged while the ledger refuses the booking, then "paid" once it books', async () => {
    const order = await placeMainOrder(shop, t.db);
    const back = await payInSandbox(shop.url, order.checkoutUrl);
    // The database refuses every booking, as it may when it is busy or going away under load.
    await t.db.raw(`create function refuse_booking() returns trigger language plpgsql as $$
      begin raise exception 'the ledger refuses bookings in this test'; end $$`);
    await t.db.raw(
      'create trigger refuse_booking before insert on ledger_rows for each row execute function refuse_booking()',
    );
    try {
      const charged = await verify(back, '10');
      assert.equal(charged.status, 200, JSON.stringify(charged.body));
      assert.equal(charged.body.status, 'pending');
      assert.equal(charged.body.charged, true);
      assert.equal(charged.body.paidAt, null);
      assert.equal((await t.db('ledger_rows').where({ order_id: order.id }).count({ n: '*' }))[0].n, 0);
    } finally {
      await t.db.raw('drop trigger refuse_booking on ledger_rows');
      await t.db.raw('drop function refuse_booking()');
    }
    await nextWindow();
    const paid = await verify(back);
    assert.equal(paid.body.status, 'paid');
    assert.equal(paid.body.charged, undefined, 'a booked receipt is the receipt as GET /api/orders/:token has it');
  });

  it('says nothing of a charge Stripe has not made', async () => {
    const order = await placeMainOrder(shop, t.db);
    const back = `${shop.url}/success?order=${order.token}&session_id=${order.sessionId}`;
    const pending = await verify(back);
    assert.equal(pending.body.status, 'pending');
    assert.equal(pending.body.charged, undefined);
  });
});
