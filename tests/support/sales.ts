import assert from 'node:assert/strict';
import type { Config } from '../../api/src/foundations/config.ts';
import type { Db } from '../../api/src/db/connection.ts';
import type { ApiTest } from './env.ts';
import { itemId } from './orders.ts';
import { payInSandbox } from './sandbox.ts';
import { listenShop, type ListeningShop } from './shop-server.ts';

// Helpers for the payout and refund suites: real sales through the shop and the sandbox, and the
// back office's view of a vendor's money.

/** 4000 0000 0000 0010 pays with the fee held back: the order books its sales but no fee rows yet. */
export const noFeeCard = '4000000000000010';

/**
 * The app on a real port (the Stripe SDK reaches the sandbox through it). Its webhook refuses the
 * sandbox's signature, so only the success page's verify call settles an order: no waiting. `more`:
 * further configuration, e.g. the sandbox's settle currencies for a paper in francs.
 */
export const listenBooksShop = (t: ApiTest, more: Partial<Config> = {}) =>
  listenShop(t, (c) => ({
    orderRateLimit: 10_000,
    stripe: { ...c.stripe, webhookSecret: 'whsec_not_the_sandbox' },
    ...more,
  }));

export interface SaleOptions {
  vendor: string;
  /** Item name → quantity. */
  items?: Record<string, number>;
  tip?: number;
  card?: string;
}

/** A customer's purchase: placed in the shop, paid on the sandbox's page, confirmed by the success page. */
export async function sell(
  shop: ListeningShop,
  db: Db,
  { vendor, items = { Zeitung: 1 }, tip = 0, card = '4242424242424242' }: SaleOptions,
) {
  const entries = await Promise.all(
    Object.entries(items).map(async ([name, quantity]) => ({ item: await itemId(db, name), quantity })),
  );
  const placed = await shop.http.post('/api/orders').send({ vendor, entries, tip, email: 'reader@example.org' });
  assert.equal(placed.status, 201, JSON.stringify(placed.body));
  const back = await payInSandbox(shop.url, placed.body.checkoutUrl, card);
  const verified = await shop.http.get(`/api/orders/verify${new URL(back).search}`);
  assert.equal(verified.body.status, 'paid', JSON.stringify(verified.body));
  return (await db('orders').where({ token: placed.body.order }).first()) as {
    id: number;
    token: string;
    amount_total: number;
    fee: number | null;
    stripe_payment_intent_id: string;
  };
}

/** A vendor as the back office's vendor list shows it (credit, last payout, open payments included). */
export async function listedVendor(t: ApiTest, office: string, licenseId: string) {
  const res = await t.http
    .get('/api/vendors/')
    .query({ filter: JSON.stringify({ q: licenseId }) })
    .set('Authorization', office);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const vendor = res.body.find((v: { licenseId: string }) => v.licenseId === licenseId);
  assert.ok(vendor, `${licenseId} is listed`);
  return vendor as {
    id: number;
    licenseId: string;
    firstName: string;
    lastName: string;
    email: string;
    credit: number;
    lastPayout: { amount: number; at: string } | null;
    openPayments: number;
  };
}
