import { callApi, type Answer } from './api.ts';
import type { Checkout } from './cart.ts';
import { env, lang, pendingKey, writeStored, type PendingOrder } from './store.ts';

// The order goes to the API, which prices and checks it again and answers Stripe's Checkout page.

/** The order placed, or, for "Try again" of an order paid meanwhile, that order (no checkout). */
export interface Placed {
  order: string;
  checkoutUrl: string | null;
}

export async function placeOrder(
  vendor: string,
  summary: Checkout,
  email: string | null,
  cartId: string,
  retryOf?: string,
): Promise<Answer<Placed>> {
  const answer = await callApi<Placed>('/api/orders/', {
    method: 'POST',
    body: {
      vendor,
      entries: summary.lines.map((line) => ({ item: line.item.id, quantity: line.quantity })),
      tip: summary.tip,
      // A digital edition's address, or the one given for the receipt by e-mail; else none is handed out.
      email: email || null,
      locale: lang.value,
      cartId,
      ...(retryOf ? { retryOf } : {}),
      ...(env.mode === 'embedded' && env.returnUrl ? { returnUrl: env.returnUrl } : {}),
    },
  });
  if (answer.ok && answer.body.checkoutUrl)
    writeStored('session', pendingKey(answer.body.order), {
      vendor,
      checkoutUrl: answer.body.checkoutUrl,
    } satisfies PendingOrder);
  return answer;
}

/** Stripe's page opens in the top window: an embedding page must not keep it in a frame. */
export function goToCheckout(url: string): void {
  try {
    (window.top ?? window).location.href = url;
  } catch {
    location.href = url;
  }
}
