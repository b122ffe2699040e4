import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';
import { placeMainOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop } from '../support/shop-server.ts';

describeApi('GET /api/vendors/me (a vendor\'s own record)', (t) => {
  let office = '';
  let counter = 0;
  before(async () => {
    office = await t.office();
  });

  const vendorToken = (email: string | undefined, claims: Record<string, unknown> = {}) =>
    t.auth(['vendor'], { sub: `vendor-${email}`, preferred_username: email, email, ...claims });
  const me = async (token: string) => t.http.get('/api/vendors/me/').set('Authorization', token);

  async function createVendor(fields: Record<string, unknown> = {}) {
    const res = await t.http.post('/api/vendors').set('Authorization', office).send({ licenseId: `ME-${++counter}`, firstName: 'Mira', ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: number; email: string; licenseId: string };
  }

  it('answers the caller\'s own vendor record, as the office sees it, with the money from the ledger', async () => {
    const vendor = await createVendor({ email: 'mira.own@example.org' });
    const other = await createVendor({ email: 'someone.else@example.org' });
    const res = await me(await vendorToken('Mira.Own@Example.org'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const asOfficeSees = (await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', office)).body;
    const { credit, lastPayout, openPayments } = res.body;
    assert.deepEqual(res.body, asOfficeSees);
    assert.deepEqual({ credit, lastPayout, openPayments }, await vendorAccountSummary(t.db, vendor.id));
    assert.ok(Number.isInteger(credit), 'credit in whole cents');

    const theirs = await me(await vendorToken(other.email));
    assert.equal(theirs.body.id, other.id, 'another vendor sees their own record, not the first one');
  });

  it('shows the credit a paid sale brought, as the ledger booked it', async () => {
    const vendor = await createVendor({ email: 'mira.sells@example.org' });
    await t.db('settings').update({ orga_covers_transaction_costs: true });
    // Only the success page's verify call settles here (webhooks go to another secret): no waiting.
    const shop = await listenShop(t, (c) => ({ stripe: { ...c.stripe, webhookSecret: 'whsec_not_the_sandbox' } }));
    try {
      const order = await placeMainOrder(shop, t.db, { vendor: vendor.licenseId, tip: 150 });
      const back = await payInSandbox(shop.url, order.checkoutUrl);
      assert.equal((await shop.http.get(`/api/orders/verify${new URL(back).search}`)).body.status, 'paid');
    } finally {
      await shop.close();
    }
    const res = await me(await vendorToken(vendor.email));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.credit, 300 + 150, 'the issue and the tip; the newspaper covers the card fee');
    assert.ok(res.body.openPayments >= 2, 'the sale and the tip are open');
    assert.equal(res.body.lastPayout, null);
  });

  it('finds a seeded vendor by its e-mail address', async () => {
    const demo = (await t.http.get('/api/vendors/?filter={"q":"DEMO-2"}').set('Authorization', office)).body.find(
      (v: { licenseId: string }) => v.licenseId === 'DEMO-2',
    );
    const res = await me(await vendorToken(demo.email.toUpperCase()));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.licenseId, 'DEMO-2');
  });

  it('refuses the back office and any login outside the vendor group with 403, not as a vendor id', async () => {
    const vendor = await createVendor({ email: 'staff.too@example.org' });
    assertRefused(await me(office), 403);
    assertRefused(await me(await t.auth(['backoffice'], { email: vendor.email })), 403);
    assertRefused(await me(await t.auth([], { email: vendor.email })), 403);
    assertRefused(await t.http.get('/api/vendors/me'), 401);
  });

  it('refuses a vendor login that matches no vendor, with a message saying so', async () => {
    for (const token of [await vendorToken('nobody@example.org'), await vendorToken(undefined), await vendorToken('')]) {
      const res = await me(token);
      assertRefused(res, 403);
      assert.match(res.body.message, /not linked to a vendor/);
    }
  });

  it('refuses deactivated and deleted vendors', async () => {
    const deactivated = await createVendor({ email: 'off@example.org', isDisabled: true });
    const res = await me(await vendorToken(deactivated.email));
    assertRefused(res, 403);
    assert.match(res.body.message, /deactivated/);

    const deleted = await createVendor({ email: 'gone@example.org' });
    assert.equal((await t.http.delete(`/api/vendors/${deleted.id}`).set('Authorization', office)).status, 200);
    assertRefused(await me(await vendorToken(deleted.email)), 403);
  });

  it('refuses an e-mail address that several vendors share instead of picking one', async () => {
    await createVendor({ email: 'shared@example.org' });
    await createVendor({ email: 'Shared@example.org' });
    const res = await me(await vendorToken('shared@example.org'));
    assertRefused(res, 403);
    assert.match(res.body.message, /more than one vendor/);
  });

  it('matches by the configured claim instead of the e-mail when one is set', async () => {
    const vendor = await createVendor({ email: 'by.claim@example.org' });
    const app = buildApp({ db: t.db, config: { ...t.config, oidc: { ...t.config.oidc, vendorClaim: 'vendor_email' } } });
    const http = supertest.agent(app.callback());
    const byClaim = await http.get('/api/vendors/me').set('Authorization', await vendorToken('unrelated@example.org', { vendor_email: vendor.email }));
    assert.equal(byClaim.status, 200, JSON.stringify(byClaim.body));
    assert.equal(byClaim.body.id, vendor.id);
    assertRefused(await http.get('/api/vendors/me').set('Authorization', await vendorToken(vendor.email)), 403);
  });
});
