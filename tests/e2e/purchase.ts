import assert from 'node:assert/strict';
import { eventually } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';

export interface ShopOrder {
  vendor: string;
  entries: { item: number; quantity: number }[];
  tip: number;
  email?: string;
  locale?: string;
}

/**
 * A customer's purchase as the shop makes it: the order through the shop's API, paid on the
 * sandbox's card page. Resolves with the order's token once its receipt says it is paid.
 */
export async function buyInShop(baseUrl: string, order: ShopOrder, card?: string): Promise<string> {
  const placed = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(order),
  });
  assert.equal(placed.status, 201, await placed.clone().text());
  const { order: token, checkoutUrl } = (await placed.json()) as { order: string; checkoutUrl: string };
  await payInSandbox(baseUrl, checkoutUrl, card);
  // The sandbox's webhook settles the order; the receipt says when.
  await eventually(
    async () =>
      ((await (await fetch(`${baseUrl}/api/orders/${token}`)).json()) as { status: string }).status === 'paid',
    `order ${token} is paid`,
  );
  return token;
}
