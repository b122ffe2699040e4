import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';
import { sell } from '../support/sales.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// Test mode behind a public address (PUBLIC_URL=https://…, STRIPE_SANDBOX=true): a customer pays with
// Stripe's published test card 4242, and the vendor's credit is test money. Neither a payout nor the
// counter turns it into the till's real cash; the same credit on a local start (the demo) is paid out.

describeApi('test mode behind a public address: test credit stays out of the till', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    await t.reset();
    office = await t.office();
    // The SDK reaches the sandbox at the listening port; the address people open is a public one.
    shop = await listenShop(t, (c) => ({
      publicUrl: 'https://shop.example.org',
      host: undefined,
      orderRateLimit: 10_000,
      stripe: { ...c.stripe, sandbox: true, apiUrl: c.publicUrl, webhookSecret: 'whsec_not_the_sandbox' },
    }));
  });
  after(() => shop.close());

  const as = (request: supertest.Test, language = 'en') =>
    request.set('Authorization', office).set('Accept-Language', language);

  it('refuses a payout and a counter visit of credit paid with 4242, in German and English; copies paid in cash still sell', async () => {
    await sell(shop, t.db, { vendor: 'DEMO-2', items: { Zeitung: 2 }, tip: 100 });
    const credit = (await as(shop.http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-2' }))).body
      .balance as number;
    assert.ok(credit > 0, 'the test payment credited the vendor');
    const tills = (await as(shop.http.get('/api/tills'))).body.tills as { id: number; balance: number }[];
    const tillId = tills[0].id;
    const cashBefore = tills[0].balance;

    const messages = {
      en: /This is a test installation: credit from test payments is never paid out in cash, nor used to pay for copies\./,
      de: /Dies ist eine Testinstallation: Guthaben aus Testzahlungen wird nie bar ausgezahlt/,
    };
    for (const [language, message] of Object.entries(messages)) {
      const payout = await as(shop.http.post('/api/payments/payout/'), language).send({
        vendor: 'DEMO-2',
        expectedAmount: credit,
        tillId,
        requestId: randomUUID(),
      });
      assert.equal(payout.status, 409, JSON.stringify(payout.body));
      assert.match(payout.body.message, message);

      const visit = await as(shop.http.post('/api/counter/visits'), language).send({
        visitId: randomUUID(),
        vendor: 'DEMO-2',
        tillId,
        items: [],
        cash: 0,
        payOut: true,
        expectedCredit: credit,
      });
      assert.equal(visit.status, 409, JSON.stringify(visit.body));
      assert.match(visit.body.message, message);

      const fromCredit = await as(shop.http.post('/api/counter/visits'), language).send({
        visitId: randomUUID(),
        vendor: 'DEMO-2',
        tillId,
        items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 1 }],
        cash: 0,
        payOut: false,
        expectedCredit: credit,
      });
      assert.equal(fromCredit.status, 409, 'copies are not paid from test credit');
      assert.match(fromCredit.body.message, message);
    }
    const after = (await as(shop.http.get('/api/tills'))).body.tills as { id: number; balance: number }[];
    assert.equal(after[0].balance, cashBefore, 'no cash left the till');
    assert.equal((await t.db('payouts').count({ n: '*' }))[0].n, 0);

    // Copies the vendor pays in cash are real money for real copies.
    const zeitung = await itemId(t.db, 'Zeitung');
    const counterPrice = (await t.db('items').where({ id: zeitung }).first('counter_price')).counter_price as number;
    const bought = await as(shop.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-2',
      tillId,
      items: [{ itemId: zeitung, quantity: 2 }],
      cash: 2 * counterPrice,
      payOut: false,
      expectedCredit: credit,
    });
    assert.equal(bought.status, 201, JSON.stringify(bought.body));

    // The back office says so on every page.
    const page = await shop.http.get('/backoffice');
    assert.match(
      page.text,
      /Guthaben wird nicht bar ausgezahlt · TEST MODE – no real payments, credit is not paid out in cash/,
    );
  });

  it('on a start that only this machine reaches, the demo pays the same credit out', async () => {
    const local = buildApp({
      db: t.db,
      config: { ...shop.config, publicUrl: 'http://localhost:3000', host: '127.0.0.1' },
    });
    const http = supertest(local.callback());
    const credit = (await as(http.get('/api/payments/forpayout/').query({ vendor: 'DEMO-2' }))).body.balance as number;
    assert.ok(credit > 0);
    const paid = await as(http.post('/api/payments/payout/')).send({
      vendor: 'DEMO-2',
      expectedAmount: credit,
      requestId: randomUUID(),
    });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
  });
});
