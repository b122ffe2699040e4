import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { vendorAccountSummary } from '../../api/src/ledger/queries.ts';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';
import { placeMainOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenBooksShop, sell } from '../support/sales.ts';
import { listenShop } from '../support/shop-server.ts';

describeApi("GET /api/vendors/me (a vendor's own record)", (t) => {
  let office = '';
  let counter = 0;
  before(async () => {
    office = await t.office();
  });

  /** A vendor's token from the external issuer: the licence id in the `vendor` claim (OIDC_VENDOR_CLAIM). */
  const vendorToken = (licence: string | undefined, claims: Record<string, unknown> = {}) =>
    t.auth(['vendor'], { sub: `vendor-${licence}`, preferred_username: licence, vendor: licence, ...claims });
  const me = async (token: string) => t.http.get('/api/vendors/me/').set('Authorization', token);

  async function createVendor(fields: Record<string, unknown> = {}) {
    const res = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: `ME-${++counter}`, firstName: 'Mira', ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: number; email: string; licenseId: string };
  }

  it("answers the caller's own vendor record, as the office sees it, with the money from the ledger", async () => {
    const vendor = await createVendor({ email: 'mira.own@example.org' });
    const other = await createVendor({ email: 'someone.else@example.org' });
    const res = await me(await vendorToken(vendor.licenseId.toLowerCase()));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // Staff's warning comments are theirs: /me answers the record without their count.
    const { openWarnings, ...asOfficeSees } = (
      await t.http.get(`/api/vendors/${vendor.id}`).set('Authorization', office)
    ).body as Record<string, unknown>;
    assert.equal(openWarnings, 0);
    const { credit, lastPayout, openPayments } = res.body;
    assert.deepEqual(res.body, asOfficeSees);
    assert.deepEqual({ credit, lastPayout, openPayments }, await vendorAccountSummary(t.db, vendor.id));
    assert.ok(Number.isInteger(credit), 'credit in whole cents');

    const theirs = await me(await vendorToken(other.licenseId));
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
    const res = await me(await vendorToken(vendor.licenseId));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.credit, 300 + 150, 'the issue and the tip; the newspaper covers the card fee');
    assert.ok(res.body.openPayments >= 2, 'the sale and the tip are open');
    assert.equal(res.body.lastPayout, null);
  });

  it('lists a card sale as one line netting its fee and cover, a refund as a refund, in the vendor’s language, summing to the credit', async () => {
    const vendor = await createVendor({ email: 'mira.lines@example.org', language: 'en' });
    await t.db('settings').update({ orga_covers_transaction_costs: true });
    const shop = await listenBooksShop(t);
    let refunded: { id: number; fee: number | null };
    try {
      // The default card books Stripe's fee at once, and the newspaper's cover of it.
      refunded = await sell(shop, t.db, { vendor: vendor.licenseId, items: { Zeitung: 2 }, tip: 100 });
      await sell(shop, t.db, { vendor: vendor.licenseId, items: { 'Kalender 2027': 1 } });
      const refund = await shop.http.post(`/api/orders/${refunded.id}/refund/`).set('Authorization', office);
      assert.equal(refund.status, 200, JSON.stringify(refund.body));
    } finally {
      await shop.close();
    }
    const booked = await t.db('ledger_rows').where({ order_id: refunded.id }).pluck('kind');
    assert.ok(booked.includes('fee') && booked.includes('fee_cover'), `fee and cover booked: ${booked.join(', ')}`);

    const token = await vendorToken(vendor.licenseId);
    const lines = async (query = '') => {
      const res = await t.http.get(`/api/vendors/me/payments/${query}`).set('Authorization', token);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { kind: string; items: { name: string; quantity: number }[]; amount: number }[];
    };
    const shown = await lines();
    assert.deepEqual(
      shown.map((line) => [line.kind, line.items, line.amount]),
      [
        ['refund', [{ name: 'Newspaper', quantity: 2 }], -700],
        ['sale', [{ name: 'Calendar 2027', quantity: 1 }], 1000],
        ['sale', [{ name: 'Newspaper', quantity: 2 }], 700],
      ],
      'one line per sale with the fee and its cover netted into it, the refund named a refund, names in English',
    );
    const { credit } = (await me(token)).body as { credit: number };
    assert.equal(
      shown.reduce((sum, line) => sum + line.amount, 0),
      credit,
    );
    assert.deepEqual(
      (await lines('?lang=de')).map((line) => line.items.map((item) => item.name)),
      [['Zeitung'], ['Kalender 2027'], ['Zeitung']],
      'the page in German names the items in German',
    );
  });

  it('finds a seeded vendor by its licence id, ignoring case', async () => {
    const res = await me(await vendorToken('demo-2'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.licenseId, 'DEMO-2');
  });

  it('refuses the back office and any login outside the vendor group with 403, not as a vendor id', async () => {
    const vendor = await createVendor({ email: 'staff.too@example.org' });
    assertRefused(await me(office), 403);
    assertRefused(await me(await t.auth(['backoffice'], { vendor: vendor.licenseId })), 403);
    assertRefused(await me(await t.auth([], { vendor: vendor.licenseId })), 403);
    assertRefused(await t.http.get('/api/vendors/me'), 401);
  });

  it('refuses a vendor login that matches no vendor, with a message saying so', async () => {
    for (const token of [await vendorToken('NOBODY-1'), await vendorToken(undefined), await vendorToken('')]) {
      const res = await me(token);
      assertRefused(res, 403);
      assert.match(res.body.message, /not linked to a vendor/);
    }
  });

  it('refuses deactivated and deleted vendors', async () => {
    const deactivated = await createVendor({ email: 'off@example.org', isDisabled: true });
    const res = await me(await vendorToken(deactivated.licenseId));
    assertRefused(res, 403);
    assert.match(res.body.message, /deactivated/);

    const deleted = await createVendor({ email: 'gone@example.org' });
    assert.equal((await t.http.delete(`/api/vendors/${deleted.id}`).set('Authorization', office)).status, 200);
    assertRefused(await me(await vendorToken(deleted.licenseId)), 403);
  });

  describe("linked by e-mail (a user could set their e-mail to another vendor's)", () => {
    /** A token whose owner may have typed the e-mail themselves: no licence claim. */
    const emailToken = (email: string, claims: Record<string, unknown> = {}) =>
      t.auth(['vendor'], { sub: `user-${email}`, preferred_username: email, email, ...claims });
    const byEmail = () =>
      supertest
        .agent(
          buildApp({ db: t.db, config: { ...t.config, oidc: { ...t.config.oidc, vendorByEmail: true } } }).callback(),
        )
        .set('Accept-Language', 'en');

    it('gives no vendor data to a token without the vendor claim, whatever its e-mail, unless the newspaper chose e-mail', async () => {
      const vendor = await createVendor({ email: 'victim@example.org' });
      for (const verified of [true, false, undefined]) {
        const res = await me(await emailToken(vendor.email, { email_verified: verified }));
        assertRefused(res, 403);
        assert.match(res.body.message, /not linked to a vendor/);
      }
      assert.equal(loadConfig({}).oidc.vendorByEmail, false);
      assert.equal(loadConfig({}).oidc.vendorClaim, 'vendor');
      assert.equal(loadConfig({ OIDC_VENDOR_BY_EMAIL: 'true' }).oidc.vendorByEmail, true);
    });

    it('with OIDC_VENDOR_BY_EMAIL links only a verified e-mail, and the licence claim wins over it', async () => {
      const vendor = await createVendor({ email: 'verified.only@example.org' });
      const other = await createVendor({ email: 'someone.other@example.org' });
      const http = byEmail();
      const get = async (token: string) => http.get('/api/vendors/me').set('Authorization', token);
      for (const unverified of [false, undefined, 'true']) {
        assertRefused(await get(await emailToken(vendor.email, { email_verified: unverified })), 403);
      }
      const verified = await get(await emailToken('Verified.Only@example.org', { email_verified: true }));
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.id, vendor.id);
      const claimed = await get(await emailToken(vendor.email, { email_verified: true, vendor: other.licenseId }));
      assert.equal(claimed.body.id, other.id, 'the claim staff set names the vendor, not the e-mail');
    });

    it('refuses a verified e-mail address that several vendors share instead of picking one', async () => {
      await createVendor({ email: 'shared@example.org' });
      await createVendor({ email: 'Shared@example.org' });
      const res = await byEmail()
        .get('/api/vendors/me')
        .set('Authorization', await emailToken('shared@example.org', { email_verified: true }));
      assertRefused(res, 403);
      assert.match(res.body.message, /more than one vendor/);
    });
  });

  it('reads the licence id from the configured claim (OIDC_VENDOR_CLAIM) only', async () => {
    const vendor = await createVendor({ email: 'by.claim@example.org' });
    const app = buildApp({
      db: t.db,
      config: { ...t.config, oidc: { ...t.config.oidc, vendorClaim: 'vendor_license' } },
    });
    const http = supertest.agent(app.callback()).set('Accept-Language', 'en');
    const byClaim = await http
      .get('/api/vendors/me')
      .set('Authorization', await vendorToken(undefined, { vendor_license: vendor.licenseId }));
    assert.equal(byClaim.status, 200, JSON.stringify(byClaim.body));
    assert.equal(byClaim.body.id, vendor.id);
    assertRefused(await http.get('/api/vendors/me').set('Authorization', await vendorToken(vendor.licenseId)), 403);
  });
});
