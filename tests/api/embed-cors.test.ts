import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { stripeClient } from '../../api/src/stripe/adapter.ts';
import { describeApi } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';
import { itemId } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Only the newspaper's own websites may embed the shop: their pages may call the public API across
// origins (CORS), and Stripe may send the customer back to them. Everyone else is refused.

const newspaper = 'https://www.strassenblatt.example';
const local = 'http://localhost:5173';

describeApi('embedding: CORS for the newspaper’s websites only', (t) => {
  let api: supertest.Agent;
  before(() => {
    api = supertest
      .agent(buildApp({ db: t.db, config: { ...t.config, embedOrigins: [newspaper, local] } }).callback())
      .set('Accept-Language', 'en');
  });

  const boot = (origin: string) => api.get('/api/shop/boot/?vendor=DEMO-1').set('Origin', origin);
  const preflight = (origin: string) =>
    api
      .options('/api/orders/')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');

  it('lets a listed website read the boot data and place orders across origins, without credentials', async () => {
    const res = await boot(newspaper);
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], newspaper);
    assert.equal(res.headers['access-control-allow-credentials'], undefined, 'no cookies for embedding pages');
    assert.match(res.headers.vary, /Origin/);
    assert.equal(res.body.vendor.licenseId, 'DEMO-1');

    const pre = await preflight(local);
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], local);
    assert.match(pre.headers['access-control-allow-methods'], /POST/);
    assert.match(pre.headers['access-control-allow-headers'], /Content-Type/);
  });

  it('refuses unlisted websites and look-alikes such as localhost.evil.com', async () => {
    const lookAlikes = [
      'https://evil.example',
      'http://localhost.evil.com:5173',
      'http://localhost.evil.com',
      'http://localhost:5173.evil.com',
      'http://localhost:3000.evil.com',
      'https://www.strassenblatt.example.evil.com',
      'http://www.strassenblatt.example',
      'https://strassenblatt.example',
      'http://localhost:5174',
      'https://localhost:5173',
      'null',
      // Browsers send an origin lower-case and without a slash: anything else is no browser's, and refused.
      `${newspaper}/`,
      'HTTPS://WWW.STRASSENBLATT.EXAMPLE',
      `${newspaper}:443`,
      `${newspaper}:8443`,
      `${newspaper}, https://evil.example`,
      // The shop's own origin (PUBLIC_URL http://shop.test), by port, scheme, suffix and case.
      'http://shop.test.evil.com',
      'http://shop.test:3000',
      'https://shop.test',
      'HTTP://SHOP.TEST',
      'http://shop.test/',
      'http://evil.shop.test',
    ];
    for (const origin of lookAlikes) {
      const res = await boot(origin);
      assert.equal(res.headers['access-control-allow-origin'], undefined, `GET from ${origin}`);
      const pre = await preflight(origin);
      assert.equal(pre.headers['access-control-allow-origin'], undefined, `preflight from ${origin}`);
      assert.notEqual(pre.status, 204, `preflight from ${origin}`);
      assert.equal(pre.headers['access-control-allow-credentials'], undefined, `preflight from ${origin}`);
    }
    // The shop's own origin, exactly, is the one that gets credentials.
    assert.equal((await boot('http://shop.test')).headers['access-control-allow-credentials'], 'true');
  });

  it('takes EMBED_ORIGINS as exact origins and refuses anything else at start', () => {
    assert.deepEqual(loadConfig({ EMBED_ORIGINS: 'https://WWW.Example.org/, http://localhost:5173' }).embedOrigins, [
      'https://www.example.org',
      'http://localhost:5173',
    ]);
    for (const wrong of [
      'www.example.org',
      'https://www.example.org/shop',
      'https://www.example.org?x=1',
      'ftp://example.org',
      '*',
    ]) {
      assert.throws(
        () => loadConfig({ EMBED_ORIGINS: wrong }),
        /EMBED_ORIGINS must list origins like https:\/\/www\.example\.org/,
        wrong,
      );
    }
  });

  describe('websites added in the settings', () => {
    let office = '';
    before(async () => {
      office = await t.office();
    });
    after(() => withForm(t.http.put('/api/settings/').set('Authorization', office), { embedOrigins: '' }));
    const save = (embedOrigins: string) =>
      withForm(t.http.put('/api/settings/').set('Authorization', office), { embedOrigins });

    it('allows them from the next request on, and refuses them again once removed', async () => {
      const other = 'https://verein.example.org';
      assert.equal((await boot(other)).headers['access-control-allow-origin'], undefined);
      const saved = await save(`${other}/\nhttps://second.example.org:8443`);
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(saved.body.embedOrigins, [other, 'https://second.example.org:8443']);
      assert.equal((await boot(other)).headers['access-control-allow-origin'], other);
      assert.equal((await preflight('https://second.example.org:8443')).status, 204);
      assert.equal(
        (await boot('https://verein.example.org.evil.com')).headers['access-control-allow-origin'],
        undefined,
      );
      await save('');
      assert.equal((await boot(other)).headers['access-control-allow-origin'], undefined);
    });

    it('takes back the JSON list the settings answer, as a form sends what it got', async () => {
      const saved = await save('["https://verein.example.org"]');
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(saved.body.embedOrigins, ['https://verein.example.org']);
      const wrong = await save('["https://verein.example.org", 3]');
      assert.equal(wrong.status, 400);
      assert.equal(
        wrong.body.errors.embedOrigins,
        'Please send the websites as text, one per line, or as a JSON list of texts.',
      );
      await save('');
    });

    it('refuses an entry that is not an origin, with a sentence naming it', async () => {
      const res = await save('https://ok.example.org, https://www.example.org/shop');
      assert.equal(res.status, 400);
      assert.equal(
        res.body.errors.embedOrigins,
        '"https://www.example.org/shop" is not a website address like https://www.example.org (without a path).',
      );
      assert.deepEqual((await t.http.get('/api/settings/')).body.embedOrigins, [], 'nothing was saved');
    });
  });
});

describeApi('embedding: Stripe sends the customer back to the embedding page', (t) => {
  let shop: ListeningShop;
  const page = `${newspaper}/kaufen?ausgabe=12#shop`;
  before(async () => {
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000, embedOrigins: [newspaper] }));
  });
  after(() => shop.close());

  const order = async (returnUrl: unknown) =>
    shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }], tip: 100, returnUrl });

  it('returns to the embedding page with the order and the session, and pays through to it', async () => {
    const res = await order(page);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const token = res.body.order as string;
    const stored = await t.db('orders').where({ token }).first();
    const session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(stored.stripe_session_id);
    assert.equal(
      session.success_url,
      `${newspaper}/kaufen?ausgabe=12&shop_status=success&shop_order=${token}&session_id={CHECKOUT_SESSION_ID}#shop`,
    );
    assert.equal(session.cancel_url, `${newspaper}/kaufen?ausgabe=12&shop_status=failure&shop_order=${token}#shop`);

    const back = new URL(await payInSandbox(shop.url, res.body.checkoutUrl));
    assert.equal(back.origin + back.pathname, `${newspaper}/kaufen`);
    assert.equal(back.searchParams.get('shop_status'), 'success');
    assert.equal(back.searchParams.get('shop_order'), token);
    assert.equal(back.searchParams.get('session_id'), session.id);
    // What the widget on that page asks next.
    const verified = await shop.http.get(`/api/orders/verify/?order=${token}&session_id=${session.id}`);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.deepEqual([verified.body.status, verified.body.total], ['paid', 400]);
  });

  it('replaces the answer of an earlier order on a page the customer came back to', async () => {
    const res = await order(`${newspaper}/?shop_status=failure&shop_order=old&session_id=cs_old`);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const stored = await t.db('orders').where({ token: res.body.order }).first();
    const session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(stored.stripe_session_id);
    assert.equal(session.cancel_url, `${newspaper}/?shop_status=failure&shop_order=${res.body.order}`);
  });

  it('refuses a return address outside the allowed websites, or one that is no web address', async () => {
    const cases: [unknown, string][] = [
      [
        'https://evil.example/phish',
        'The shop cannot send you back to https://evil.example: this website is not allowed to embed the shop.',
      ],
      [
        `${newspaper}.evil.com/`,
        'The shop cannot send you back to https://www.strassenblatt.example.evil.com: this website is not allowed to embed the shop.',
      ],
      ['javascript:alert(1)', 'The return address must be a full web address starting with https:// or http://.'],
      ['/success', 'The return address must be a full web address starting with https:// or http://.'],
      ['https://reader:secret@www.strassenblatt.example/', 'The return address must not contain a name or password.'],
      [42, 'The return address must be a full web address starting with https:// or http://.'],
      [
        `${newspaper}/${'x'.repeat(2000)}`,
        'The return address is too long; please use one of at most 2000 characters.',
      ],
    ];
    const before = (await t.db('orders').count({ n: '*' }))[0].n;
    for (const [returnUrl, message] of cases) {
      const res = await order(returnUrl);
      assert.equal(res.status, 400, String(returnUrl));
      assert.equal(res.body.errors.returnUrl, message, String(returnUrl));
    }
    assert.equal((await t.db('orders').count({ n: '*' }))[0].n, before, 'no order was stored');
  });

  it('keeps the shop’s own success and failure pages without a return address', async () => {
    const res = await order(null);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const stored = await t.db('orders').where({ token: res.body.order }).first();
    const session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(stored.stripe_session_id);
    assert.equal(session.success_url, `${shop.url}/success?order=${res.body.order}&session_id={CHECKOUT_SESSION_ID}`);
  });
});
