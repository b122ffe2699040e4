import assert from 'node:assert/strict';
import supertest from 'supertest';
import { describeApi } from '../support/env.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The shop's forms as a browser without JavaScript sends them, against the real build of the widget
// (npm test builds it first): each step answers 303 to the next with the visit in a cookie of the
// vendor's path, a refusal is the same screen again with a 4xx, and "Pay" places one order and sends
// the browser to the card page. Then what an attacker would try: other bodies, huge ones, forged
// cookies, and the same Pay sent many times at once.

describeApi('the shop’s forms without JavaScript', (t) => {
  let shop: ListeningShop;
  before(async () => {
    // On a real port: "Pay" reaches the sandbox through Stripe's SDK.
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000 }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const form = (agent: supertest.Agent, path: string, fields: Record<string, string>) =>
    agent.post(path).type('form').set('Accept-Language', 'de').send(fields);

  const orders = async () => Number((await t.db('orders').count<{ n: string }[]>({ n: '*' }))[0].n);

  it('keeps the cart in a cookie of the vendor’s path, and places one order with its lines and tip', async () => {
    const browser = supertest.agent(shop.url);
    const settings = (await browser.get('/api/settings')).body as { mainItem: { id: number } };
    const main = settings.mainItem.id;
    const added = await form(browser, '/v/DEMO-1/shop', { quantity: `${main}:2` });
    assert.equal(added.status, 303);
    assert.equal(added.headers.location, '/v/DEMO-1/shop');
    const cookie = String(added.headers['set-cookie']);
    assert.match(cookie, /shop_visit=.+; path=\/v\/DEMO-1; samesite=lax; httponly/);

    const page = await browser.get('/v/DEMO-1/shop').set('Accept-Language', 'de');
    assert.equal(page.status, 200);
    assert.equal(page.headers['cache-control'], 'no-store', 'a page with a customer’s cart is not cached');
    assert.match(page.text, new RegExp(`data-item="${main}"[\\s\\S]*?class="shop-item-quantity"[^>]*>2<`));

    const tipped = await form(browser, '/v/DEMO-1/custom-tip', { amount: '1,50' });
    assert.equal(tipped.headers.location, '/v/DEMO-1/confirmation');
    const before = await orders();
    const paid = await form(browser, '/v/DEMO-1/confirmation', { terms: 'yes', pay: 'order' });
    assert.equal(paid.status, 303);
    assert.match(paid.headers.location, /\/stripe-sandbox\/pay\/cs_test_/);
    assert.equal(await orders(), before + 1);
    const order = await t.db('orders').orderBy('id', 'desc').first<{ id: number; tip: number | string }>('id', 'tip');
    assert.equal(Number(order.tip), 150);
    const lines = await t
      .db('order_entries')
      .where({ order_id: order.id })
      .whereNotNull('quantity')
      .select<{ quantity: number }[]>('quantity');
    assert.deepEqual(
      lines.map((line) => line.quantity),
      [2],
    );
  });

  it('answers a refusal with the same screen, in the reader’s language, and a 4xx', async () => {
    const browser = supertest.agent(shop.url);
    const german = await form(browser, '/v/DEMO-1/custom-tip', { amount: 'viel' });
    assert.equal(german.status, 422);
    assert.match(german.text, /id="shop-custom-tip-error"[^>]*>Bitte gib einen Betrag/);
    assert.match(german.text, /value="viel"/);
    const english = await browser
      .post('/v/DEMO-1/confirmation')
      .type('form')
      .set('Accept-Language', 'en')
      .send({ pay: 'order' });
    assert.equal(english.status, 422);
    assert.match(english.text, /Please accept the terms to pay\./);
  });

  it('names the amounts of a refused order in the installation’s currency', async () => {
    // Below Stripe's smallest charge: the shop's page lets it through, the order refuses it.
    await t.db('settings').update({ currency: 'CHF' });
    await t.db('items').where({ name: 'Zeitung' }).update({ price: 20, counter_price: 10 });
    const browser = supertest.agent(shop.url);
    const main = ((await browser.get('/api/settings')).body as { mainItem: { id: number } }).mainItem.id;
    await form(browser, '/v/DEMO-1/shop', { quantity: `${main}:1` });
    const refused = await browser
      .post('/v/DEMO-1/confirmation')
      .type('form')
      .set('Accept-Language', 'en')
      .send({ terms: 'yes', pay: 'order' });
    assert.equal(refused.status, 400);
    assert.deepEqual(
      new Set(refused.text.match(/Card payments need [^<"]*/g)),
      new Set(['Card payments need a total of at least CHF 0.50.']),
    );
  });

  it('refuses other bodies and huge ones in words, and starts afresh on a forged cookie', async () => {
    const browser = supertest.agent(shop.url);
    const json = await browser
      .post('/v/DEMO-1/shop')
      .set('Accept-Language', 'de')
      .set('Content-Type', 'application/json')
      .send('{"quantity":"1:2"}');
    assert.equal(json.status, 415);
    assert.equal(json.body.message, 'Bitte das Formular von der Seite des Shops aus senden.');
    const huge = await form(browser, '/v/DEMO-1/shop', { quantity: '1:2', filler: 'x'.repeat(100_000) });
    assert.equal(huge.status, 413);
    assert.match(huge.body.message, /zu groß/);
    const nested = await form(browser, '/v/DEMO-1/shop', { '__proto__[quantity]': '1:2', 'a[b][c][d]': '1' });
    assert.equal(nested.status, 303, 'unknown fields change nothing');
    assert.equal(({} as Record<string, unknown>).quantity, undefined);

    for (const forged of [
      'not-base64!',
      Buffer.from('{"cart":{"__proto__":{"x":1}}}').toString('base64url'),
      Buffer.from(JSON.stringify({ cart: { 1: 1e9 } })).toString('base64url'),
      'x'.repeat(3000),
    ]) {
      const page = await supertest(shop.url)
        .get('/v/DEMO-1/confirmation')
        .set('Cookie', `shop_visit=${forged}`)
        .set('Accept-Language', 'de');
      assert.equal(page.status, 200, forged.slice(0, 40));
      assert.doesNotMatch(page.text, /1000000000/);
    }
    // Not a vendor's step: nothing to answer there.
    const elsewhere = await supertest(shop.url).post('/paymentconfirmation').type('form').send({ pay: 'order' });
    assert.ok(elsewhere.status >= 400 && elsewhere.status < 500, String(elsewhere.status));
  });

  it('answers a step the vendor’s shop does not know with 404 and a way back into that shop', async () => {
    const page = await supertest(shop.url).get('/v/DEMO-1/nonsense').set('Accept-Language', 'de');
    assert.equal(page.status, 404);
    assert.match(page.text, /id="shop-not-found"/);
    assert.match(
      page.text,
      /id="shop-way-on"[^>]*href="\/v\/DEMO-1\/landing-page"|href="\/v\/DEMO-1\/landing-page"[^>]*id="shop-way-on"/,
    );
    assert.equal((await supertest(shop.url).get('/v/DEMO-1/tipping')).status, 200);
  });

  it('creates no order from a form another website posts, and one from the shop’s own page', async () => {
    const browser = supertest.agent(shop.url);
    const tipped = await form(browser, '/v/DEMO-1/tipping', { tip: '200' });
    assert.equal(tipped.status, 303);
    const cookie = String(tipped.headers['set-cookie']).split(';')[0];
    const pay = (headers: Record<string, string>) =>
      supertest(shop.url)
        .post('/v/DEMO-1/confirmation')
        .type('form')
        .set('Accept-Language', 'de')
        .set('Cookie', cookie)
        .set(headers)
        .send({ terms: 'yes', pay: '1' });
    const before = await orders();
    for (const headers of [
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: `${shop.url}.evil.example`, 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://www.shop.test', 'Sec-Fetch-Site': 'same-site' },
      { Origin: shop.url, 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'same-origin' },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'same-origin' },
      { Origin: 'null' },
      { Referer: 'https://evil.example/page' },
    ] as Record<string, string>[]) {
      const refused = await pay(headers);
      assert.equal(refused.status, 403, JSON.stringify(headers));
      assert.equal(
        refused.body.message,
        'Dieses Formular wurde von einer anderen Website gesendet. Bitte das Formular auf der Seite des Shops verwenden.',
      );
    }
    assert.equal(await orders(), before, 'no order from another website');
    // What Chromium sends from the shop's page: its Referrer-Policy no-referrer makes the Origin "null".
    const paid = await pay({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' });
    assert.equal(paid.status, 303, paid.text);
    assert.equal(await orders(), before + 1, 'one order from the shop’s page');
  });

  it('places one order when Pay is sent 100 times at once from the same visit', async () => {
    const browser = supertest.agent(shop.url);
    const tipped = await form(browser, '/v/DEMO-1/tipping', { tip: '200' });
    assert.equal(tipped.status, 303);
    const cookie = String(tipped.headers['set-cookie']).split(';')[0];
    const before = await orders();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        supertest(shop.url)
          .post('/v/DEMO-1/confirmation')
          .type('form')
          .set('Cookie', cookie)
          .send({ terms: 'yes', pay: 'order' }),
      ),
    );
    const statuses = new Set(answers.map((answer) => answer.status));
    assert.ok(
      [...statuses].every((status) => status === 303 || status === 409 || status === 429),
      [...statuses].join(),
    );
    const to = new Set(answers.filter((answer) => answer.status === 303).map((answer) => answer.headers.location));
    assert.equal(to.size, 1, 'every Pay that went through goes to the same card page');
    assert.equal(await orders(), before + 1);
  });
});
