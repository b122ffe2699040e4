import { assertRefused } from '../support/assertions.ts';
import assert from 'node:assert/strict';
import type { Config } from '../../api/src/foundations/config.ts';
import { toBuffer } from '../../api/src/db/connection.ts';
import { processOutbox } from '../../api/src/mail/outbox.ts';
import { deliverOrder } from '../../api/src/orders/deliveries.ts';
import { applySession } from '../../api/src/orders/settle.ts';
import { downloadLinksFor } from '../../api/src/pdf/links.ts';
import { retrieveSession } from '../../api/src/stripe/adapter.ts';
import { describeApi, type ApiTest } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';
import { eventually, placeOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { decodeQuotedPrintable, smtpServer } from '../support/smtp.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Digital deliveries: a paid digital edition gets one download link and one e-mail,
// however often it is settled; the link downloads the PDF and counts, and fails once expired.

const invalidMessage = 'The link to the pdf is invalid or expired. Please contact the office.';

/** Places a digital edition (with the print issue and a tip) and answers the pending order. */
const placeDigitalOrder = (shop: ListeningShop, t: ApiTest, { email = 'reader@example.org', locale = 'de' } = {}) =>
  placeOrder(shop, t.db, { items: { 'Digitale Ausgabe': 2, Zeitung: 1 }, email, locale });

async function deliverTwice(t: ApiTest, config: Config, orderId: number) {
  await t.db.transaction((trx) => deliverOrder(trx, orderId, config));
  await t.db.transaction((trx) => deliverOrder(trx, orderId, config));
}

/** The demo's edition PDF, as stored. */
async function editionPdf(t: ApiTest): Promise<Buffer> {
  const row = await t
    .db('items as i')
    .join('files as f', 'f.id', 'i.pdf_file_id')
    .where('i.name', 'Digitale Ausgabe – Lizenz')
    .first('f.data');
  return toBuffer(row.data);
}

describeApi('digital deliveries: links and the outbox', (t) => {
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000 }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  it('creates one link per digital item and one mail in the customer’s language, however often it is called', async () => {
    const order = await placeDigitalOrder(shop, t, { locale: 'en' });
    await deliverTwice(t, shop.config, order.id);

    const links = await downloadLinksFor(t.db, order.id);
    assert.equal(links.length, 1, 'one link for the digital edition (the print issue has none)');
    const [link] = links;
    assert.match(link.id, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(link.url, `/pdf/${link.id}`);
    assert.equal(link.itemName, 'Digitale Ausgabe');
    assert.equal(link.downloads, 0);
    const days = (Date.parse(link.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(Math.abs(days - shop.config.downloadLinkDays) < 0.01, `valid ${days} days`);

    const mails = await t.db('outbox').where({ order_id: order.id });
    assert.equal(mails.length, 1);
    assert.equal(mails[0].recipient, 'reader@example.org');
    assert.equal(mails[0].kind, 'pdf-links');
    assert.equal(mails[0].status, 'queued');
    assert.match(mails[0].subject, /^Your digital edition of Straßenblatt Demo$/);
    assert.ok(mails[0].text.includes(`Digital edition: ${shop.url}/pdf/${link.id}`), mails[0].text);
    assert.match(mails[0].text, /Have fun reading!/);
  });

  it('dates the links’ end in the newspaper’s time zone, not the server machine’s', async () => {
    // A day apart at every hour: the machine at UTC−11, the newspaper at UTC+14.
    const machineZone = process.env.TZ;
    process.env.TZ = 'Pacific/Pago_Pago';
    try {
      const order = await placeDigitalOrder(shop, t, { locale: 'en' });
      await deliverTwice(t, { ...shop.config, timeZone: 'Pacific/Kiritimati' }, order.id);
      const [link] = await downloadLinksFor(t.db, order.id);
      const until = (timeZone: string) =>
        new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone }).format(new Date(link.expiresAt));
      const mail = await t.db('outbox').where({ order_id: order.id }).first();
      assert.ok(mail.text.includes(`valid until ${until('Pacific/Kiritimati')}.`), mail.text);
      assert.notEqual(until('Pacific/Kiritimati'), until('Pacific/Pago_Pago'));
    } finally {
      if (machineZone === undefined) delete process.env.TZ;
      else process.env.TZ = machineZone;
    }
  });

  it('writes the mail in German for a German order, and none without an e-mail address', async () => {
    const german = await placeDigitalOrder(shop, t, { locale: 'de' });
    await deliverTwice(t, shop.config, german.id);
    const mail = await t.db('outbox').where({ order_id: german.id }).first();
    assert.match(mail.subject, /^Deine digitale Ausgabe von Straßenblatt Demo$/);
    assert.match(mail.text, /Viel Spaß beim Lesen!/);

    // No address (the order rules ask for one with a digital item; the delivery does not rely on it).
    const other = await placeDigitalOrder(shop, t);
    await t.db('orders').where({ id: other.id }).update({ email: null });
    await deliverTwice(t, shop.config, other.id);
    assert.equal((await downloadLinksFor(t.db, other.id)).length, 1, 'the receipt still shows the link');
    assert.equal((await t.db('outbox').where({ order_id: other.id })).length, 0);
  });

  it('writes the links’ end in German German ("Januar") by default, in Austrian ("Jänner") when the settings say so', async () => {
    const office = await t.office();
    /** The German mail of an order whose link ends on 8 January 2027, at noon in the newspaper’s zone. */
    async function germanMail() {
      const order = await placeDigitalOrder(shop, t, { locale: 'de' });
      await t.db.transaction((trx) => deliverOrder(trx, order.id, shop.config));
      // The link as if bought in December: the mail is written anew from it.
      await t.db('download_links').where({ order_id: order.id }).update({ expires_at: '2027-01-08T11:00:00Z' });
      await t.db('outbox').where({ order_id: order.id }).delete();
      await deliverTwice(t, shop.config, order.id);
      return (await t.db('outbox').where({ order_id: order.id }).first()).text as string;
    }
    const setVariant = async (germanVariant: string) => {
      const res = await withForm(t.http.put('/api/settings/').set('Authorization', office), { germanVariant });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.germanVariant, germanVariant);
    };

    assert.equal((await t.http.get('/api/settings/')).body.germanVariant, 'de-DE', 'German German until chosen');
    assert.match(await germanMail(), /Die Links sind bis 8\. Januar 2027 gültig\./);

    await setVariant('de-AT');
    assert.match(await germanMail(), /Die Links sind bis 8\. Jänner 2027 gültig\./);

    await setVariant('de-DE');
    assert.match(await germanMail(), /Die Links sind bis 8\. Januar 2027 gültig\./);
  });

  it('validates a link, downloads the PDF as an attachment and counts every download', async () => {
    const order = await placeDigitalOrder(shop, t);
    await deliverTwice(t, shop.config, order.id);
    const [link] = await downloadLinksFor(t.db, order.id);

    const valid = await t.http.get(`/api/pdf/${link.id}/validate/`);
    assert.equal(valid.status, 200);
    assert.deepEqual(valid.body, {
      valid: true,
      itemName: 'Digitale Ausgabe',
      itemNameEn: 'Digital edition',
      expiresAt: link.expiresAt,
    });

    const download = await t.http
      .get(`/api/pdf/${link.id}/`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    assert.equal(download.status, 200);
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.equal(
      download.headers['content-disposition'],
      `attachment; filename="Digitale_Ausgabe.pdf"; filename*=UTF-8''Digitale%20Ausgabe.pdf`,
    );
    assert.ok((download.body as Buffer).equals(await editionPdf(t)), 'the bytes are the edition’s PDF');
    assert.equal((await downloadLinksFor(t.db, order.id))[0].downloads, 1);

    // Concurrent downloads are each counted.
    const parallel = await Promise.all(Array.from({ length: 5 }, () => t.http.get(`/api/pdf/${link.id}`)));
    assert.deepEqual(
      parallel.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal((await downloadLinksFor(t.db, order.id))[0].downloads, 6);
    assert.equal((await t.http.get(`/api/pdf/${link.id}/validate`)).body.valid, true, 'validating does not count');
    const head = await t.http.head(`/api/pdf/${link.id}`);
    assert.equal(head.status, 200, 'a link checker’s HEAD is answered but not counted');
    assert.equal(head.headers['content-type'], 'application/pdf');
    assert.equal((await downloadLinksFor(t.db, order.id))[0].downloads, 6);
  });

  it('answers an expired, unknown or malformed link with 404 and the specified message, and counts nothing', async () => {
    const order = await placeDigitalOrder(shop, t);
    await deliverTwice(t, shop.config, order.id);
    const [link] = await downloadLinksFor(t.db, order.id);
    await t
      .db('download_links')
      .where({ id: link.id })
      .update({ expires_at: t.db.raw(`now() - interval '1 second'`) });

    for (const id of [link.id, 'A'.repeat(32), 'not-a-link', '..%2F..%2Fetc']) {
      for (const path of [`/api/pdf/${id}/validate`, `/api/pdf/${id}`]) {
        const res = await t.http.get(path);
        assert.equal(res.status, 404, path);
        assert.equal(res.body.message, invalidMessage, path);
      }
    }
    assert.equal((await downloadLinksFor(t.db, order.id))[0].downloads, 0);
  });

  it('keeps mails as "stored" for staff without SMTP, readable at GET /api/outbox/', async () => {
    const order = await placeDigitalOrder(shop, t);
    await deliverTwice(t, shop.config, order.id);
    assert.equal(shop.config.smtpUrl, undefined);
    await processOutbox(t.db, shop.config);

    const office = await t.office();
    const res = await t.http.get('/api/outbox/').set('Authorization', office);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-range'], 'outbox 0-0/1');
    const [mail] = res.body;
    assert.equal(mail.orderId, order.id);
    assert.equal(mail.status, 'stored');
    assert.equal(mail.recipient, 'reader@example.org');
    const [link] = await downloadLinksFor(t.db, order.id);
    assert.ok(mail.text.includes(`${shop.url}/pdf/${link.id}`));
    assert.equal((await t.http.get('/api/outbox/')).status, 401);
    const byOrder = (orderId: unknown) =>
      t.http
        .get('/api/outbox/')
        .query({ filter: JSON.stringify({ orderId }) })
        .set('Authorization', office);
    assert.deepEqual(
      (await byOrder(order.id)).body.map((m: { orderId: number }) => m.orderId),
      [order.id],
    );
    for (const bad of ['abc', 0, 3_000_000_000]) {
      const refused = await byOrder(bad);
      assertRefused(refused, 400);
      assert.equal(refused.body.message, 'The filter "orderId" must be an order id.', `for ${bad}`);
    }
  });

  it('tells the receipt whether the PDF mail went out: off without a mail server, sent with one', async () => {
    const mailOf = async (token: string) => (await shop.http.get(`/api/orders/${token}/`)).body.mail;
    const held = await placeDigitalOrder(shop, t);
    assert.equal(await mailOf(held.token), null, 'no mail before the delivery');
    await deliverTwice(t, shop.config, held.id);
    // No mail server: nothing is sent, ever, not even "in a moment".
    assert.equal(await mailOf(held.token), 'off');
    await processOutbox(t.db, shop.config);
    assert.equal(await mailOf(held.token), 'off');

    const smtp = await smtpServer();
    try {
      const config = { ...shop.config, smtpUrl: smtp.url };
      const sent = await placeDigitalOrder(shop, t);
      await deliverTwice(t, config, sent.id);
      await processOutbox(t.db, config);
      assert.equal(await mailOf(sent.token), 'sent');
    } finally {
      await smtp.close();
    }
  });

  it('sends the mail once over SMTP when configured', async () => {
    const smtp = await smtpServer();
    try {
      const config = { ...shop.config, smtpUrl: smtp.url };
      const order = await placeDigitalOrder(shop, t);
      await deliverTwice(t, config, order.id);
      // Two senders at once (two processes, or the worker and a kick): the mail goes out once.
      const handled = await Promise.all([processOutbox(t.db, config), processOutbox(t.db, config)]);
      assert.equal(handled[0] + handled[1], 1);
      assert.equal(await processOutbox(t.db, config), 0, 'nothing left to send');
      assert.equal(smtp.messages.length, 1);
      const [link] = await downloadLinksFor(t.db, order.id);
      const message = decodeQuotedPrintable(smtp.messages[0]);
      assert.match(message, /^To: reader@example\.org$/m);
      assert.ok(message.includes(`${shop.url}/pdf/${link.id}`), message);
      const mail = await t.db('outbox').where({ order_id: order.id }).first();
      assert.equal(mail.status, 'sent');
      assert.ok(mail.sent_at);
    } finally {
      await smtp.close();
    }
  });

  it('leaves the mail queued with its attempt and a later retry when the SMTP server refuses', async () => {
    const smtp = await smtpServer({ refuse: true });
    try {
      const config = { ...shop.config, smtpUrl: smtp.url };
      const order = await placeDigitalOrder(shop, t);
      await deliverTwice(t, config, order.id);
      await processOutbox(t.db, config);
      const mail = await t.db('outbox').where({ order_id: order.id }).first();
      assert.equal(mail.status, 'queued');
      assert.equal(mail.attempts, 1);
      assert.match(mail.last_error, /451/);
      const { later } = (
        await t.db.raw("select ?::timestamptz > now() + interval '30 seconds' as later", [mail.next_attempt_at])
      ).rows[0];
      assert.equal(later, true, 'the retry waits');
      assert.equal(await processOutbox(t.db, config), 0, 'not due yet');
      assert.equal(smtp.messages.length, 0);
    } finally {
      await smtp.close();
    }
  });
});

describeApi('digital deliveries: a digital-edition purchase settled twice', (t) => {
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

  it('pays in the sandbox, is settled by the webhook and the success page at once, and again: one link, one mail', async () => {
    const order = await placeDigitalOrder(shop, t);
    const back = await payInSandbox(shop.url, order.checkoutUrl);
    // The success page's call races the sandbox's webhook; then Stripe's answer is applied once more.
    const verified = await shop.http
      .get('/api/orders/verify/')
      .query({ order: order.token, session_id: order.sessionId });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.ok(back.includes(order.token));
    await eventually(
      async () => (await t.db('orders').where({ id: order.id }).first('status')).status === 'paid',
      'the order is paid',
    );
    await applySession(t.db, shop.config, order.id, await retrieveSession(t.db, shop.config, order.sessionId));
    await eventually(
      async () => (await t.db('stripe_events').whereNotNull('processed_at')).length > 0,
      'the webhook was processed',
    );

    await smtp.received();
    await processOutbox(t.db, shop.config);
    assert.equal(smtp.messages.length, 1, 'one mail');
    const links = await downloadLinksFor(t.db, order.id);
    assert.equal(links.length, 1, 'one link');
    assert.ok(decodeQuotedPrintable(smtp.messages[0]).includes(`${shop.url}/pdf/${links[0].id}`));
    const receipt = await shop.http.get(`/api/orders/${order.token}`);
    assert.deepEqual(receipt.body.downloads, links);

    const download = await shop.http.get(`/api/pdf/${links[0].id}`);
    assert.equal(download.status, 200);
    assert.equal((await downloadLinksFor(t.db, order.id))[0].downloads, 1);
  });
});
