import assert from 'node:assert/strict';
import supertest from 'supertest';
import { describeApi } from '../support/env.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// A start that only this machine may reach (loopback, PUBLIC_URL local) skips the checks of a public
// one: demo logins, test cards credited as money. Published through a proxy or a tunnel it must not
// serve anyone: a request that names a proxy or another host gets a page (or, for the API, a
// message) naming PUBLIC_URL, and changes nothing.

describeApi('a start for this machine only', (t) => {
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, () => ({ host: '127.0.0.1', orderRateLimit: 10_000 }));
  });
  after(() => shop.close());

  const orders = async () => Number((await t.db('orders').count<{ n: string }[]>({ n: '*' }))[0].n);

  /** The no-JavaScript purchase: one copy into the cart, then "Pay"; the status of each step. */
  async function buy(headers: Record<string, string>): Promise<number[]> {
    const browser = supertest.agent(shop.url).set(headers);
    const main = ((await supertest(shop.url).get('/api/settings')).body as { mainItem: { id: number } }).mainItem.id;
    const added = await browser
      .post('/v/DEMO-1/shop')
      .type('form')
      .send({ quantity: `${main}:1` });
    const paid = await browser.post('/v/DEMO-1/confirmation').type('form').send({ terms: 'yes', pay: '1' });
    return [added.status, paid.status];
  }

  it('answers a request with X-Forwarded-For with the refusal page naming PUBLIC_URL, and places no order', async () => {
    const before = await orders();
    assert.deepEqual(await buy({ 'X-Forwarded-For': '203.0.113.9' }), [403, 403]);
    assert.equal(await orders(), before, 'no order through the proxy');

    const page = await supertest(shop.url).get('/v/DEMO-1').set('X-Forwarded-For', '203.0.113.9');
    assert.equal(page.status, 403);
    assert.match(page.headers['content-type'], /^text\/html/);
    assert.match(page.text, /<h1 lang="de">Nur für diesen Computer<\/h1>/);
    assert.match(page.text, /<p lang="de">Dieser Shop wurde nur für diesen Computer gestartet, da PUBLIC_URL/);
    assert.match(page.text, /<p lang="en">This shop was started for this computer only, as PUBLIC_URL/);

    assert.deepEqual(await buy({}), [303, 303], 'from this machine the same purchase goes through');
    assert.equal(await orders(), before + 1);
  });

  it('refuses every header of a proxy and every host that is not this machine, the API with a message', async () => {
    for (const [name, value] of [
      ['Forwarded', 'for=203.0.113.9;proto=https'],
      ['X-Forwarded-For', '203.0.113.9'],
      ['X-Forwarded-Host', 'shop.example.org'],
      ['X-Forwarded-Proto', 'https'],
      ['X-Real-IP', '203.0.113.9'],
      ['Host', 'shop.example.org'],
      ['Host', 'localhost.example.org:3000'],
    ]) {
      const german = await supertest(shop.url).get('/api/settings').set(name, value);
      assert.equal(german.status, 403, `${name}: ${value}`);
      assert.match(german.body.message, /^Dieser Shop wurde nur für diesen Computer gestartet.*PUBLIC_URL/);
      const english = await supertest(shop.url).get('/api/settings').set(name, value).set('Accept-Language', 'en');
      assert.match(english.body.message, /^This shop was started for this computer only.*PUBLIC_URL/);
    }
  });

  it('serves this machine under each of its loopback names', async () => {
    for (const host of ['127.0.0.1', 'localhost:3000', '[::1]:3000', '127.0.0.2']) {
      const res = await supertest(shop.url).get('/api/settings').set('Host', host);
      assert.equal(res.status, 200, host);
    }
  });

  it('lets a proxy named in TRUST_PROXY forward for this machine, not for others', async () => {
    const trusting = await listenShop(t, () => ({ host: '127.0.0.1', trustProxy: ['127.0.0.1', '::1'] }));
    try {
      const forward = (headers: Record<string, string>) =>
        supertest(trusting.url)
          .get('/api/settings')
          .set(headers)
          .then((res) => res.status);
      assert.equal(await forward({ 'X-Forwarded-For': '127.0.0.5', 'X-Forwarded-Proto': 'http' }), 200);
      assert.equal(await forward({ Forwarded: 'for="[::1]:5000";host=localhost:3000' }), 200);
      assert.equal(await forward({ 'X-Forwarded-For': '203.0.113.9, 127.0.0.5' }), 403);
      assert.equal(await forward({ 'X-Forwarded-Host': 'shop.example.org' }), 403);
      assert.equal(await forward({ Forwarded: 'for=unknown' }), 403);
    } finally {
      await trusting.close();
    }
  });

  it('serves requests through a proxy where the start is public', async () => {
    const res = await t.http.get('/api/settings').set('X-Forwarded-For', '203.0.113.9');
    assert.equal(res.status, 200);
  });
});
