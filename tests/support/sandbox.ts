import type { Db } from '../../api/src/db.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';

/**
 * Pays a sandbox Checkout Session the way a customer does: opens the hosted page and submits its
 * form with `card`. Answers where the page sends the browser next (the success URL with the session
 * id filled in); throws with the page's message when the card is refused or the session is not open.
 */
export async function payInSandbox(baseUrl: string, checkoutUrl: string, card = '4242424242424242'): Promise<string> {
  const page = new URL(new URL(checkoutUrl).pathname, baseUrl);
  const shown = await fetch(page);
  const html = await shown.text();
  if (shown.status !== 200 || !html.includes('id="sandbox-form"'))
    throw new Error(`The checkout page cannot be paid (HTTP ${shown.status}): ${pageMessage(html)}`);
  const paid = await fetch(page, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card, exp: '12 / 34', cvc: '123' }),
    redirect: 'manual',
  });
  const location = paid.headers.get('location');
  if (paid.status !== 303 || !location)
    throw new Error(`The payment was refused (HTTP ${paid.status}): ${pageMessage(await paid.text())}`);
  return location;
}

/** The card 4000 0000 0000 0010 pays without a fee; this books the fee later and sends `charge.updated`. */
export async function releaseHeldFee(db: Db, baseUrl: string, sessionId: string): Promise<void> {
  const res = await fetch(new URL(`/stripe-sandbox/sessions/${sessionId}/release-fee`, baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${(await sandboxCredentials(db)).secretKey}` },
  });
  if (!res.ok) throw new Error(`The fee could not be released (HTTP ${res.status}): ${await res.text()}`);
}

function pageMessage(html: string): string {
  return /id="sandbox-(?:error|expired|missing)"[^>]*>([^<]*)</.exec(html)?.[1] ?? html.slice(0, 200);
}

async function sandboxAction(db: Db, baseUrl: string, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${(await sandboxCredentials(db)).secretKey}` },
  });
  if (!res.ok) throw new Error(`${path} failed (HTTP ${res.status}): ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Refunds the whole payment as someone does in Stripe's Dashboard; answers the refund. */
export const dashboardRefund = (db: Db, baseUrl: string, paymentIntent: string) =>
  sandboxAction(db, baseUrl, `/stripe-sandbox/payment_intents/${paymentIntent}/dashboard-refund`);

/** The bank's answer to a pending refund (cards 7726: succeeded, 3476: failed); answers the refund. */
export const finishRefund = (db: Db, baseUrl: string, refundId: string) =>
  sandboxAction(db, baseUrl, `/stripe-sandbox/refunds/${refundId}/finish`);
