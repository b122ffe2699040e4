import assert from 'node:assert/strict';
import { processOutbox } from '../../api/src/mail/outbox.ts';
import { mailReceipt } from '../../api/src/orders/deliveries.ts';
import { applySession } from '../../api/src/orders/settle.ts';
import { retrieveSession } from '../../api/src/stripe/adapter.ts';
import { describeApi, type ApiTest } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';
import { eventually, placeOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { decodeQuotedPrintable, smtpServer } from '../support/smtp.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The receipt by e-mail: an order of printed copies whose customer gave an address gets one mail with
// what was bought, once it is paid; without an address nothing is sent, and no answer of the shop
// shows the address in full.

/** Places 2 newspapers and a calendar with a 1 € tip (17 € in all), optionally with an address. */
const placePrintOrder = (shop: ListeningShop, t: ApiTest, { email = null as string | null, locale = 'en' } = {}) =>
  placeOrder(shop, t.db, { items: { Zeitung: 2, 'Kalender 2027': 1 }, email, locale });

/** Pays the order in the sandbox and settles it once more, as the success page's call would. */
async function pay(shop: ListeningShop, t: ApiTest, order: Awaited<ReturnType<typeof placePrintOrder>>) {
  await payInSandbox(shop.url, order.checkoutUrl);
  await eventually(
    async () => (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid',
    'the order is paid',
  );
  await applySession(t.db, shop.config, order.id, await retrieveSession(t.db, shop.config, order.sessionId));
}

describeApi('the receipt by e-mail for printed copies', (t) => {
  let shop: ListeningShop;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  before(async () => {
    smtp = await smtpServer();
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000, smtpUrl: smtp.url }));
  });
  after(async () => {
    await shop.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await t.reset();
    smtp.messages.length = 0;
  });

  it('sends a paid print-only order’s receipt once to the address given, with its lines and total in the customer’s language', async () => {
    const order = await placePrintOrder(shop, t, { email: 'reader@example.org' });
    assert.ok(!order.answer.includes('reader@example.org'), order.answer);
    // Stripe's card page names the items in the customer's language too.
    const cardPage = await (await fetch(order.checkoutUrl)).text();
    assert.ok(cardPage.includes('Newspaper') && cardPage.includes('Calendar 2027'), cardPage);
    assert.ok(!cardPage.includes('Zeitung'), cardPage);
    await pay(shop, t, order);

    await smtp.received();
    await processOutbox(t.db, shop.config);
    assert.equal(smtp.messages.length, 1, 'one mail');
    assert.match(decodeQuotedPrintable(smtp.messages[0]), /^To: reader@example\.org$/m);
    const mails = await t.db('outbox').where({ order_id: order.id });
    assert.equal(mails.length, 1);
    assert.equal(mails[0].kind, 'receipt');
    assert.equal(mails[0].subject, 'Your receipt from Straßenblatt Demo');
    const text = mails[0].text as string;
    for (const line of [
      'Thank you for buying from Anna!',
      `Order number ${order.id}`,
      '2 × Newspaper: €6.00',
      '1 × Calendar 2027: €10.00',
      'Donation: €1.00',
      'Total: €17.00',
      `${shop.url}/paymentconfirmation?order=${order.token}`,
    ])
      assert.ok(text.split('\n').includes(line), `"${line}" in:\n${text}`);
    assert.ok(decodeQuotedPrintable(smtp.messages[0]).includes('Total: €17.00'));

    // The receipt answer says where the mail went, shortened, and that it went out.
    const receipt = await shop.http.get(`/api/orders/${order.token}/`);
    assert.equal(receipt.status, 200);
    assert.equal(receipt.body.emailHint, 'r…@example.org');
    assert.equal(receipt.body.mail, 'sent');
    assert.ok(!JSON.stringify(receipt.body).includes('reader@example.org'), JSON.stringify(receipt.body));
    const verified = await shop.http
      .get('/api/orders/verify/')
      .query({ order: order.token, session_id: order.sessionId });
    assert.ok(!JSON.stringify(verified.body).includes('reader@example.org'), JSON.stringify(verified.body));
    // Stripe never got the address: it serves the receipt mail alone.
    const session = await retrieveSession(t.db, shop.config, order.sessionId);
    assert.equal(session.customer_email ?? null, null);
  });

  it('sends nothing for a paid print-only order without an address', async () => {
    const order = await placePrintOrder(shop, t);
    await pay(shop, t, order);
    await processOutbox(t.db, shop.config);
    assert.equal((await t.db('outbox').where({ order_id: order.id })).length, 0);
    assert.equal(smtp.messages.length, 0);
    const receipt = await shop.http.get(`/api/orders/${order.token}/`);
    assert.equal(receipt.body.emailHint, null);
    assert.equal(receipt.body.mail, null);
  });

  it('writes a German receipt in the settings’ German: "8. Januar 2027" by default, "8. Jänner 2027" for Austria', async () => {
    const office = await t.office();
    const paidAt = new Date('2027-01-08T11:00:00Z');
    const germanMail = async () => {
      const order = await placePrintOrder(shop, t, { email: 'leserin@example.org', locale: 'de' });
      await t.db.transaction((trx) => mailReceipt(trx, order.id, shop.config, paidAt));
      return (await t.db('outbox').where({ order_id: order.id, kind: 'receipt' }).first()) as {
        subject: string;
        text: string;
      };
    };
    const first = await germanMail();
    assert.equal(first.subject, 'Dein Beleg von Straßenblatt Demo');
    assert.match(first.text, /^Gekauft am 8\. Januar 2027 um \d\d:\d\d$/m);
    assert.match(first.text, /^2 × Zeitung: 6,00\s€$/m);
    assert.match(first.text, /^Spende: 1,00\s€$/m);
    assert.match(first.text, /^Summe: 17,00\s€$/m);

    const res = await withForm(t.http.put('/api/settings/').set('Authorization', office), { germanVariant: 'de-AT' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match((await germanMail()).text, /^Gekauft am 8\. Jänner 2027 um \d\d:\d\d$/m);
  });
});
