import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import type { Config } from '../config.ts';
import { isLiveKey, usesSandbox } from './mode.ts';
import { SANDBOX_SECRET_KEY, SANDBOX_WEBHOOK_SECRET } from './sandbox/keys.ts';

// The one place that knows where Stripe is. With a secret key configured it is Stripe (or the
// Stripe-compatible API at STRIPE_API_URL); without, it is the local sandbox on this very server (or
// the one at STRIPE_API_URL), reached through the same official SDK, so every code path is the one
// production runs.

export { Stripe };

/** Where the SDK sends its requests; Stripe's own servers when undefined. */
function endpoint(url: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!url) return {};
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: Number(parsed.port) || (protocol === 'http' ? 80 : 443), protocol };
}

/**
 * The API version every request names, so Stripe's objects keep the shape this code reads whatever
 * the account's default is; the one the pinned `stripe` package (package.json, exact) was built for.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

const clients = new WeakMap<Config, Stripe>();
const maxNetworkRetries = 2;

/** The SDK client for this configuration (one per configuration, reused: it keeps connections alive). */
export function stripeClient(config: Config): Stripe {
  let client = clients.get(config);
  if (!client) {
    const sandbox = usesSandbox(config);
    client = new Stripe(sandbox ? SANDBOX_SECRET_KEY : config.stripe.secretKey!, {
      ...endpoint(config.stripe.apiUrl ?? (sandbox ? config.publicUrl : undefined)),
      apiVersion: STRIPE_API_VERSION,
      // Bounded: a Stripe that fails or hangs costs the customer at most three timeouts plus the
      // SDK's short backoff; every retry carries the same idempotency key, so nothing is done twice.
      maxNetworkRetries,
      timeout: config.stripeTimeoutMs,
      telemetry: false,
    });
    clients.set(config, client);
  }
  return client;
}

/**
 * The secret that signs webhook events. The sandbox's is public, so it is only accepted while the
 * sandbox is on; with a real key and no STRIPE_WEBHOOK_SECRET there is none (events are refused).
 */
export function webhookSecret(config: Config): string | undefined {
  return config.stripe.webhookSecret ?? (usesSandbox(config) ? SANDBOX_WEBHOOK_SECRET : undefined);
}

/** What the settle step reads from a session: the payment and its fee in one call. */
export function retrieveSession(config: Config, sessionId: string): Promise<Stripe.Checkout.Session> {
  return stripeClient(config).checkout.sessions.retrieve(sessionId, {
    expand: ['payment_intent.latest_charge.balance_transaction'],
  });
}

/** The card fee of a session retrieved with `retrieveSession`; null while Stripe has not settled it. */
export function sessionFee(session: Stripe.Checkout.Session): number | null {
  const intent = session.payment_intent;
  if (!intent || typeof intent === 'string') return null;
  const charge = intent.latest_charge;
  if (!charge || typeof charge === 'string') return null;
  const balance = charge.balance_transaction;
  if (!balance || typeof balance === 'string') return null;
  return balance.fee;
}

export const paymentIntentId = (session: Stripe.Checkout.Session): string | null =>
  typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);

/** Whether an object or event of Stripe's is in our key's mode (a test event never moves live money, nor the reverse). */
export const matchesKeyMode = (config: Config, object: { livemode?: boolean | null }) =>
  object.livemode === isLiveKey(config);

/**
 * The idempotency key of one action on an order. Stripe keeps keys for 24 hours per account, so the
 * order's id alone repeats after a database reset or a restore, or when development, CI and staging
 * share a test account; the order's random token makes it unique (hashed: the token is the
 * customer's key to the receipt and has no place in Stripe's request logs).
 */
export function idempotencyKey(order: { id: number; token: string }, action: string): string {
  return `order-${order.id}-${createHash('sha256').update(order.token).digest('base64url').slice(0, 22)}-${action}`;
}

/** A refund as Stripe has it now (an event only says "look again"). */
export const retrieveRefund = (config: Config, id: string) => stripeClient(config).refunds.retrieve(id);

/** Every refund of a charge: a `charge.refunded` from Stripe's Dashboard names only the charge. */
export async function chargeRefunds(config: Config, charge: string): Promise<Stripe.Refund[]> {
  return (await stripeClient(config).refunds.list({ charge, limit: 100 })).data;
}

/** A dispute as Stripe has it now. */
export const retrieveDispute = (config: Config, id: string) => stripeClient(config).disputes.retrieve(id);
