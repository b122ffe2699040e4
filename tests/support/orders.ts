import assert from 'node:assert/strict';
import Stripe from 'stripe';
import type { Db } from '../../api/src/db/connection.ts';
import { accountBalances } from '../../api/src/ledger/queries.ts';
import type { ListeningShop } from './shop-server.ts';

// Helpers for the order and payment suites: the demo's items, placing an order, waiting for what
// the sandbox does in the background, signing webhook events offline, and reading the ledger.

export async function itemId(db: Db, name: string): Promise<number> {
  const row = await db('items').where({ name }).whereNull('deleted_at').first('id');
  assert.ok(row, `no item "${name}"`);
  return row.id;
}

export async function vendorId(db: Db, licenseId: string): Promise<number> {
  return (await db('vendors').where({ license_id: licenseId }).first('id')).id;
}

/**
 * Places `items` (item names and quantities) with a tip for `vendor` as the shop does, and answers
 * the created order with the shop's answer as JSON (`email` and `locale` are sent only when given).
 */
export async function placeOrder(
  shop: ListeningShop,
  db: Db,
  {
    vendor = 'DEMO-1',
    items,
    tip = 100,
    email,
    locale,
  }: { vendor?: string; items: Record<string, number>; tip?: number; email?: string | null; locale?: string },
) {
  const entries = [];
  for (const [name, quantity] of Object.entries(items)) entries.push({ item: await itemId(db, name), quantity });
  const res = await shop.http
    .post('/api/orders')
    .send({ vendor, entries, tip, ...(email !== undefined && { email }), ...(locale && { locale }) });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const order = await db('orders').where({ token: res.body.order }).first('id', 'stripe_session_id');
  return {
    token: res.body.order as string,
    checkoutUrl: res.body.checkoutUrl as string,
    id: order.id as number,
    sessionId: order.stripe_session_id as string,
    answer: JSON.stringify(res.body),
  };
}

/** Places 1 × the print issue + a tip for `vendor` and answers the created order. */
export const placeMainOrder = (shop: ListeningShop, db: Db, { vendor = 'DEMO-1', tip = 100 } = {}) =>
  placeOrder(shop, db, { vendor, items: { Zeitung: 1 }, tip });

/**
 * Waits for something the sandbox does in the background (a webhook) by asking again until it
 * holds; fails after a generous number of tries. Not a timing assertion: only the outcome counts.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  tries = 400,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`gave up waiting: ${what}`);
}

/** A webhook delivery as Stripe signs it, made offline with the SDK. */
export function signedEvent(
  type: string,
  object: object,
  secret: string,
  id = `evt_test_${Math.random().toString(36).slice(2)}`,
) {
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
  });
  return { id, payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

export async function postEvent(shop: ListeningShop, event: { payload: string; header: string }) {
  return shop.http
    .post('/api/webhooks/stripe')
    .set('Content-Type', 'application/json')
    .set('Stripe-Signature', event.header)
    .send(event.payload);
}

/** The ledger rows of an order by kind and amount, in booking order. */
export async function bookedRows(db: Db, orderId: number): Promise<{ kind: string; amount: number }[]> {
  return db('ledger_rows').where({ order_id: orderId }).orderBy('id').select('kind', 'amount');
}

export async function balanceOf(db: Db, kind: string, vendor?: number): Promise<number> {
  const balances = await accountBalances(db);
  return balances.find((b) => b.kind === kind && (vendor === undefined || b.vendorId === vendor))?.balance ?? 0;
}

export async function assertBalanced(db: Db): Promise<void> {
  const balances = await accountBalances(db);
  assert.equal(
    balances.reduce((sum, b) => sum + b.balance, 0),
    0,
    'the sum of all balances',
  );
}

/** The sandbox's fee: 1.5 % of the amount, rounded, plus 25 cents. */
export const sandboxFee = (amount: number) => Math.round(amount * 0.015) + 25;
