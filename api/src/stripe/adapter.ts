import Stripe from 'stripe';
import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { sandboxCredentials } from './sandbox/keys.ts';

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

const clients = new WeakMap<Knex, WeakMap<Config, Stripe>>();
const maxNetworkRetries = 2;

/**
 * The sandbox's key is this installation's own, in the database: the SDK asks for it before each
 * request (an authenticator is the SDK's hook for keys that are not known when the client is made).
 */
const sandboxKey =
  (db: Knex): NonNullable<Stripe.StripeConfig['authenticator']> =>
  async (request) => {
    request.headers.Authorization = `Bearer ${(await sandboxCredentials(db)).secretKey}`;
  };

function newClient(config: Config, auth: { key: string } | { db: Knex }): Stripe {
  const sandbox = 'db' in auth;
  return new Stripe(sandbox ? '' : auth.key, {
    ...(sandbox ? { authenticator: sandboxKey(auth.db) } : {}),
    ...endpoint(config.stripe.apiUrl ?? (sandbox ? config.publicUrl : undefined)),
    // Bounded: a Stripe that fails or hangs costs the customer at most three timeouts plus the
    // SDK's short backoff; every retry carries the same idempotency key, so nothing is done twice.
    maxNetworkRetries,
    timeout: config.stripeTimeoutMs,
    telemetry: false,
  });
}

/** The SDK client for this database and configuration (made once, reused: it keeps connections alive). */
export function stripeClient(db: Knex, config: Config): Stripe {
  let byConfig = clients.get(db);
  if (!byConfig) clients.set(db, (byConfig = new WeakMap()));
  let client = byConfig.get(config);
  if (!client) {
    client = usesSandbox(config) ? newClient(config, { db }) : newClient(config, { key: config.stripe.secretKey! });
    byConfig.set(config, client);
  }
  return client;
}

/** A client with the configured secret key, for commands that must not open the database (it may be in use). */
export function keyedClient(config: Config): Stripe {
  if (usesSandbox(config)) throw new Error('keyedClient needs STRIPE_SECRET_KEY');
  return newClient(config, { key: config.stripe.secretKey! });
}

/**
 * The secret that signs webhook events: STRIPE_WEBHOOK_SECRET, or while the sandbox is on, this
 * installation's sandbox secret. With a real key and no STRIPE_WEBHOOK_SECRET there is none (events are refused).
 */
export async function webhookSecret(db: Knex, config: Config): Promise<string | undefined> {
  if (config.stripe.webhookSecret) return config.stripe.webhookSecret;
  return usesSandbox(config) ? (await sandboxCredentials(db)).webhookSecret : undefined;
}

/** What the settle step reads from a session: the payment and its fee in one call. */
export function retrieveSession(db: Knex, config: Config, sessionId: string): Promise<Stripe.Checkout.Session> {
  return stripeClient(db, config).checkout.sessions.retrieve(sessionId, {
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
