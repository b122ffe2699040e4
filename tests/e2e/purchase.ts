import { longestWaitSeconds } from '../../api/src/orders/changes.ts';
import { payInSandbox } from '../support/sandbox.ts';

export interface ShopOrder {
  vendor: string;
  entries: { item: number; quantity: number }[];
  tip: number;
  email?: string;
  locale?: string;
}

/** An order placed through the shop's API of a running server: its token and Stripe's card page. */
export async function placeOrder(baseUrl: string, order: ShopOrder): Promise<{ token: string; checkoutUrl: string }> {
  const placed = await fetch(`${baseUrl}/api/orders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(order),
  });
  if (placed.status !== 201)
    throw new Error(`POST /api/orders answered ${placed.status}: ${(await placed.text()).slice(0, 200)}`);
  const { order: token, checkoutUrl } = (await placed.json()) as { order: string; checkoutUrl: string };
  return { token, checkoutUrl };
}

/** One copy of the newspaper's main item (the settings name it) from `vendor`. */
export async function mainItemOrder(baseUrl: string, vendor: string, tip = 0): Promise<ShopOrder> {
  const settings = (await (await fetch(`${baseUrl}/api/settings`)).json()) as { mainItem: { id: number } };
  return { vendor, entries: [{ item: settings.mainItem.id, quantity: 1 }], tip };
}

export interface HowToBuy {
  /** The card typed on the sandbox's page. */
  card?: string;
  /** Where the card page is: the shop's own sandbox unless told. */
  sandboxUrl?: string;
  /** A receipt that answers "pending" without waiting (an app before long polling) is asked again this often. */
  pollMs?: number;
  /** A purchase not paid after this long fails. */
  timeoutMs?: number;
}

/**
 * A customer's purchase as the shop makes it: the order through the shop's API, paid on the
 * sandbox's card page, then the receipt asked until it says paid, waiting on the server for the
 * booking as the success page does. Resolves with the order's token; the tests and the benches buy
 * through it.
 */
export async function buyInShop(
  baseUrl: string,
  order: ShopOrder,
  { card, sandboxUrl = baseUrl, pollMs = 100, timeoutMs = 60_000 }: HowToBuy = {},
): Promise<string> {
  const { token, checkoutUrl } = await placeOrder(baseUrl, order);
  await payInSandbox(sandboxUrl, checkoutUrl, card);
  // The sandbox's webhook settles the order; the receipt says when.
  const givingUp = performance.now() + timeoutMs;
  while (performance.now() < givingUp) {
    const receipt = await fetch(`${baseUrl}/api/orders/${token}?wait=${longestWaitSeconds}`);
    if (!receipt.ok) throw new Error(`GET /api/orders/:token answered ${receipt.status}`);
    if (((await receipt.json()) as { status: string }).status === 'paid') return token;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`order ${token} was not paid within ${timeoutMs / 1000} s`);
}
