import Stripe from 'stripe';
import type { Config } from '../config.ts';
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

const usesSandbox = (config: Config) => !config.stripe.secretKey;

const clients = new WeakMap<Config, Stripe>();
const maxNetworkRetries = 2;

/** The SDK client for this configuration (one per configuration, reused: it keeps connections alive). */
export function stripeClient(config: Config): Stripe {
  let client = clients.get(config);
  if (!client) {
    const sandbox = usesSandbox(config);
    client = new Stripe(sandbox ? SANDBOX_SECRET_KEY : config.stripe.secretKey!, {
      ...endpoint(config.stripe.apiUrl ?? (sandbox ? config.publicUrl : undefined)),
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
 * A Stripe call that failed, the one mapping of the SDK's errors: `refused` when Stripe answered that
 * the request is invalid (e.g. refunding a payment that cannot be refunded), `unavailable` when it
 * could not be asked or did not answer usefully (network, timeout, 5xx, rate limit, a bad key). The
 * message is Stripe's and may quote parts of the key: log `type`, `code` and `statusCode`, not it.
 */
export class StripeFailure extends Error {
  constructor(
    readonly reason: 'refused' | 'unavailable',
    message: string,
    readonly type: string,
    readonly code: string | undefined,
    readonly statusCode: number | undefined,
  ) {
    super(message);
    this.name = 'StripeFailure';
  }
}

/** Runs one SDK call; the SDK's errors leave as StripeFailure, anything else unchanged. */
async function call<T>(config: Config, request: (stripe: Stripe) => Promise<T>): Promise<T> {
  try {
    return await request(stripeClient(config));
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    const reason = error instanceof Stripe.errors.StripeInvalidRequestError ? 'refused' : 'unavailable';
    throw new StripeFailure(reason, error.message, error.type, error.code, error.statusCode);
  }
}

/** A Checkout Session for an order; the idempotency key makes a repeated call get the same session. */
export function createCheckoutSession(
  config: Config,
  params: Stripe.Checkout.SessionCreateParams,
  idempotencyKey: string,
): Promise<Stripe.Checkout.Session> {
  return call(config, (stripe) => stripe.checkout.sessions.create(params, { idempotencyKey }));
}

/** Ends an open Checkout Session; Stripe refuses (`refused`) one that completed meanwhile. */
export function expireCheckoutSession(config: Config, sessionId: string): Promise<Stripe.Checkout.Session> {
  return call(config, (stripe) => stripe.checkout.sessions.expire(sessionId));
}

/** Refunds a whole payment; the idempotency key makes a repeated or concurrent call get the same refund. */
export function refundPayment(config: Config, params: Stripe.RefundCreateParams, idempotencyKey: string): Promise<Stripe.Refund> {
  return call(config, (stripe) => stripe.refunds.create(params, { idempotencyKey }));
}

/** The event of a webhook delivery, or undefined when its signature does not verify with `secret`. */
export function verifiedEvent(config: Config, rawBody: Buffer, signature: string, secret: string): Stripe.Event | undefined {
  try {
    return stripeClient(config).webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    return undefined;
  }
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
  return call(config, (stripe) =>
    stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent.latest_charge.balance_transaction'] }),
  );
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
