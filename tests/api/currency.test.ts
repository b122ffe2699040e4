import assert from 'node:assert/strict';
import { processOutbox } from '../../api/src/mail/outbox.ts';
import { stripeClient, type Stripe } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { bookedRows, eventually, placeOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// An installation outside the euro: the settings' currency reaches the order, Stripe's Checkout
// Session, the books and the receipt; amounts stay integers in the currency's minor unit (whole yen).

/** Every sign of the euro a reader could see. */
const euro = /€|\bEUR\b|\beur\b/i;

describeApi('an installation outside the euro', (t) => {
  let shop: ListeningShop;
  before(async () => {
    // The sandbox's account settles in yen and francs; the euro is not among them.
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000, sandboxCurrencies: ['jpy', 'chf', 'gbp'] }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  it('sells a 500 ¥ paper with a 100 ¥ tip as 600 yen: the order, the Checkout Session, the ledger and the receipt, never a decimal', async () => {
    await t.db('settings').update({ currency: 'JPY' });
    await t.db('items').where({ name: 'Zeitung' }).update({ price: 500 });
    const order = await placeOrder(shop, t.db, {
      items: { Zeitung: 1 },
      tip: 100,
      email: 'reader@example.org',
      locale: 'en',
    });
    const stored = await t.db('orders').where({ id: order.id }).first('currency', 'amount_total');
    assert.deepEqual(stored, { currency: 'jpy', amount_total: 600 });

    const session: Stripe.Checkout.Session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(
      order.sessionId,
      { expand: ['line_items'] },
    );
    assert.equal(session.currency, 'jpy');
    assert.equal(session.amount_total, 600);
    assert.deepEqual(
      session.line_items?.data.map((line) => [line.price?.currency, line.amount_total]),
      [
        ['jpy', 500],
        ['jpy', 100],
      ],
    );

    await payInSandbox(shop.url, order.checkoutUrl);
    await eventually(
      async () => (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid',
      'paid',
    );
    const rows = await bookedRows(t.db, order.id);
    assert.deepEqual(
      rows.filter((row) => row.kind === 'sale' || row.kind === 'tip'),
      [
        { kind: 'sale', amount: 500 },
        { kind: 'tip', amount: 100 },
      ],
    );

    await processOutbox(t.db, shop.config);
    const mail = await t.db('outbox').where({ order_id: order.id, kind: 'receipt' }).first('text');
    const lines = (mail.text as string).split('\n');
    assert.ok(lines.includes('1 × Newspaper: ¥500'), mail.text);
    assert.ok(lines.includes('Donation: ¥100'), mail.text);
    assert.ok(lines.includes('Total: ¥600'), mail.text);
    assert.doesNotMatch(mail.text, /¥\d+[.,]\d/, 'no amount shows decimals');
    assert.doesNotMatch(mail.text, euro);
  });

  it('writes a Swiss receipt in francs: "CHF 3.50" in German, no sign of the euro', async () => {
    await t.db('settings').update({ currency: 'CHF' });
    const order = await placeOrder(shop, t.db, {
      items: { Zeitung: 1 },
      tip: 50,
      email: 'leser@example.org',
      locale: 'de',
    });
    await payInSandbox(shop.url, order.checkoutUrl);
    await eventually(
      async () => (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid',
      'paid',
    );
    await processOutbox(t.db, shop.config);
    const mail = await t.db('outbox').where({ order_id: order.id, kind: 'receipt' }).first('text');
    const text = (mail.text as string).replace(/[\u00a0\u202f]/g, ' ');
    assert.match(text, /: CHF 3\.00$/m, 'the paper');
    assert.match(text, /: CHF 0\.50$/m, 'the tip');
    assert.match(text, /: CHF 3\.50$/m, 'the total');
    assert.doesNotMatch(text, euro);
  });

  it('is refused by the sandbox in a currency its account does not settle in, as Stripe refuses it', async () => {
    const stripe = stripeClient(t.db, shop.config);
    await assert.rejects(
      stripe.checkout.sessions.create({
        mode: 'payment',
        success_url: `${shop.url}/success`,
        line_items: [
          { quantity: 1, price_data: { currency: 'sek', unit_amount: 3000, product_data: { name: 'Tidning' } } },
        ],
      }),
      (error: Stripe.errors.StripeError) => {
        assert.equal(error.type, 'StripeInvalidRequestError');
        assert.equal(error.param, 'line_items[0][price_data][currency]');
        assert.match(
          error.message,
          /^Invalid currency: sek\. Your account currently supports these currencies: jpy, chf, gbp\.$/,
        );
        return true;
      },
    );
  });

  it('refuses the euro-only exports (DATEV, DSFinV-K) of books kept in francs, saying why, in German and English', async () => {
    await t.db('settings').update({ currency: 'CHF' });
    const office = await t.office();
    for (const path of [
      '/api/accounting/datev?from=2026-01-01&to=2026-01-31',
      '/api/tills/dsfinvk?from=2026-01-01&to=2026-01-31',
    ]) {
      const en = await t.http.get(path).set('Authorization', office);
      assert.equal(en.status, 409, `${path}: ${JSON.stringify(en.body)}`);
      assert.match(en.body.message, /counts in euro only, and this installation keeps its books in CHF/);
      const de = await t.http.get(path).set('Authorization', office).set('Accept-Language', 'de');
      assert.match(de.body.message, /rechnet nur in Euro, und diese Installation führt ihre Bücher in CHF/);
    }
  });

  it('refuses an order the card page cannot take below Stripe’s smallest charge in the currency, in that currency', async () => {
    await t.db('settings').update({ currency: 'GBP' });
    await t.db('items').where({ name: 'Zeitung' }).update({ price: 20 });
    const item = (await t.db('items').where({ name: 'Zeitung' }).first('id')).id as number;
    const res = await shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-1', entries: [{ item, quantity: 1 }], tip: 0 });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.message, 'Card payments need a total of at least £0.30.');
  });
});
