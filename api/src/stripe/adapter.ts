import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { isLiveKey, usesSandbox } from './mode.ts';
import { platformConnectSecret, sandboxCredentials } from './sandbox/keys.ts';

// The one place that knows where Stripe is. With a secret key configured it is Stripe (or the
// Stripe-compatible API at STRIPE_API_URL); without, it is the local sandbox on this very server (or
// the one at STRIPE_API_URL), reached through the same official SDK, so every code path is the one
// production runs. Every SDK call of api/src (outside the sandbox) is made here, and the SDK's
// errors are mapped here once (StripeFailure).

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
    apiVersion: STRIPE_API_VERSION,
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

/**
 * Starts an SDK request without the caller's stack trace that the SDK captures for every request (for
 * errors we map to StripeFailure anyway): with the source maps tsx turns on, writing out that stack
 * cost a twentieth of a purchase's CPU. The SDK captures it synchronously, before its
 * first await, so the limit is back before anything else runs.
 */
function withoutCallSite<T>(start: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** How often a background request is repeated after Stripe's 429, and the first wait (doubled each time). */
const rateLimitRetries = 4;
const rateLimitFirstDelayMs = 250;

/**
 * Runs `request` (Stripe calls, idempotent as a whole) again while Stripe answers 429, waiting
 * longer each time, a bounded number of times; then its last failure leaves. Stripe asks to back off
 * exponentially on 429 (https://docs.stripe.com/rate-limits#handling-limiting-gracefully), and the
 * SDK retries no 429 itself (only 409, 5xx and broken connections). For background work only: a
 * customer's request should not wait seconds for it.
 */
export async function withRateLimitBackoff<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof StripeFailure && error.statusCode === 429) || attempt >= rateLimitRetries) throw error;
      const delay = rateLimitFirstDelayMs * 2 ** attempt;
      // Jitter, so that several processes held back at once do not ask again in the same instant.
      await new Promise((resolve) => setTimeout(resolve, delay / 2 + Math.random() * (delay / 2)));
    }
  }
}

/**
 * The paper's connected Stripe account (settings.stripe_account), or null when the paper is the
 * platform's own account's merchant. With one, the paper is the merchant of record of a direct
 * charge (https://docs.stripe.com/connect/direct-charges): its fees, refunds, disputes and payouts
 * stay on its account.
 */
export async function connectedAccount(db: Knex): Promise<string | null> {
  const row = await db('settings')
    .where({ id: 1 })
    .first<{ stripe_account: string | null } | undefined>('stripe_account');
  return row?.stripe_account ?? null;
}

/**
 * Runs one SDK call, on the paper's connected account when it has one (the SDK's per-request
 * `stripeAccount` sends the Stripe-Account header, https://docs.stripe.com/connect/authentication);
 * the SDK's errors leave as StripeFailure, anything else unchanged. A caller that read the account
 * with its own statement passes it (`known`), so the hot path asks the database no more.
 */
async function call<T>(
  db: Knex,
  config: Config,
  request: (stripe: Stripe, options: Stripe.RequestOptions) => Promise<T>,
  known?: string | null,
): Promise<T> {
  const account = known === undefined ? await connectedAccount(db) : known;
  const options: Stripe.RequestOptions = account ? { stripeAccount: account } : {};
  try {
    return await withoutCallSite(() => request(stripeClient(db, config), options));
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    const reason = error instanceof Stripe.errors.StripeInvalidRequestError ? 'refused' : 'unavailable';
    throw new StripeFailure(reason, error.message, error.type, error.code, error.statusCode);
  }
}

/**
 * A Checkout Session for an order, on the connected `account` the order was placed under (null: the
 * platform's own); the idempotency key makes a repeated call get the same session.
 */
export function createCheckoutSession(
  db: Knex,
  config: Config,
  params: Stripe.Checkout.SessionCreateParams,
  idempotencyKey: string,
  account: string | null,
): Promise<Stripe.Checkout.Session> {
  return call(
    db,
    config,
    (stripe, options) => stripe.checkout.sessions.create(params, { ...options, idempotencyKey }),
    account,
  );
}

/** Ends an open Checkout Session; Stripe refuses (`refused`) one that completed meanwhile. */
export function expireCheckoutSession(db: Knex, config: Config, sessionId: string): Promise<Stripe.Checkout.Session> {
  return call(db, config, (stripe, options) => stripe.checkout.sessions.expire(sessionId, {}, options));
}

/** Refunds a payment; the idempotency key makes a repeated or concurrent call get the same refund. */
export function refundPayment(
  db: Knex,
  config: Config,
  params: Stripe.RefundCreateParams,
  idempotencyKey: string,
): Promise<Stripe.Refund> {
  return call(db, config, (stripe, options) => stripe.refunds.create(params, { ...options, idempotencyKey }));
}

/**
 * The event of a webhook delivery, or undefined when its signature verifies with none of `secrets`
 * (during a rotation two endpoints deliver, each signing with its own secret).
 */
export function verifiedEvent(
  db: Knex,
  config: Config,
  rawBody: Buffer,
  signature: string,
  secrets: readonly string[],
): Stripe.Event | undefined {
  for (const secret of secrets) {
    try {
      return stripeClient(db, config).webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      // Not signed with this one: the next.
    }
  }
  return undefined;
}

/**
 * The secrets of STRIPE_WEBHOOK_SECRET: one, or while an endpoint is replaced two, comma-separated
 * (the new endpoint's and the old one's; `npm run stripe-setup` says when the old one may go).
 */
export const configuredWebhookSecrets = (config: Config): string[] => secretList(config.stripe.webhookSecret);

/** The secrets of a comma-separated list. */
const secretList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter(Boolean);

/**
 * The secrets that sign webhook events: STRIPE_WEBHOOK_SECRET's, or while the sandbox is on, this
 * installation's sandbox secret. With a real key and no STRIPE_WEBHOOK_SECRET there is none (events are refused).
 */
export async function webhookSecrets(db: Knex, config: Config): Promise<string[]> {
  const configured = configuredWebhookSecrets(config);
  if (configured.length) return configured;
  return usesSandbox(config) ? [(await sandboxCredentials(db)).webhookSecret] : [];
}

/**
 * The secrets that sign the events of the platform's Connect endpoint, which gets the events of every
 * connected account (https://docs.stripe.com/connect/webhooks): PLATFORM_STRIPE_WEBHOOK_SECRET's
 * (comma-separated while an endpoint is replaced), or while the papers run their sandboxes the one
 * the sandboxes sign with. With a real key and no PLATFORM_STRIPE_WEBHOOK_SECRET there is none.
 */
export function platformWebhookSecrets(config: Config): string[] {
  const configured = secretList(config.platform.stripeWebhookSecret);
  if (configured.length) return configured;
  return usesSandbox(config) && config.platform.secret ? [platformConnectSecret(config.platform.secret)] : [];
}

/** What the settle step reads from a session: the payment and its fee in one call. */
export function retrieveSession(db: Knex, config: Config, sessionId: string): Promise<Stripe.Checkout.Session> {
  return call(db, config, (stripe, options) =>
    stripe.checkout.sessions.retrieve(
      sessionId,
      { expand: ['payment_intent.latest_charge.balance_transaction'] },
      options,
    ),
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
export const retrieveRefund = (db: Knex, config: Config, id: string) =>
  call(db, config, (stripe, options) => stripe.refunds.retrieve(id, {}, options));

/** Every refund of a charge: a `charge.refunded` from Stripe's Dashboard names only the charge. */
export async function chargeRefunds(db: Knex, config: Config, charge: string): Promise<Stripe.Refund[]> {
  return (await call(db, config, (stripe, options) => stripe.refunds.list({ charge, limit: 100 }, options))).data;
}

/** A dispute as Stripe has it now, with its balance transactions (the money it moved). */
export const retrieveDispute = (db: Knex, config: Config, id: string) =>
  call(db, config, (stripe, options) => stripe.disputes.retrieve(id, {}, options));

/**
 * The list parameters of a sweep: every object created since `since`, each with its payment intent
 * expanded, so that its metadata tells at once whether the payment is one of ours (no request per
 * object of another shop on the account).
 */
const sweptSince = (since: Date) => ({
  created: { gte: Math.floor(since.getTime() / 1000) },
  expand: ['data.payment_intent'],
  limit: 100,
});

/** Every refund Stripe made since `since` (ours, the Dashboard's), newest first, page by page. */
export const recentRefunds = (db: Knex, config: Config, since: Date) =>
  call(db, config, (stripe, options) =>
    stripe.refunds.list(sweptSince(since), options).autoPagingToArray({ limit: 10_000 }),
  );

/** Every dispute Stripe opened since `since`, with its balance transactions, page by page. */
export const recentDisputes = (db: Knex, config: Config, since: Date) =>
  call(db, config, (stripe, options) =>
    stripe.disputes.list(sweptSince(since), options).autoPagingToArray({ limit: 10_000 }),
  );

/** Every early fraud warning Radar raised since `since`, page by page. */
export const recentEarlyFraudWarnings = (db: Knex, config: Config, since: Date) =>
  call(db, config, (stripe, options) =>
    stripe.radar.earlyFraudWarnings.list(sweptSince(since), options).autoPagingToArray({ limit: 10_000 }),
  );

/** A payment intent: its metadata names the order it pays (`payment_intent_data` when the session was made). */
export const retrievePaymentIntent = (db: Knex, config: Config, id: string) =>
  call(db, config, (stripe, options) => stripe.paymentIntents.retrieve(id, {}, options));

/** Radar's early fraud warning as Stripe has it now. */
export const retrieveEarlyFraudWarning = (db: Knex, config: Config, id: string) =>
  call(db, config, (stripe, options) => stripe.radar.earlyFraudWarnings.retrieve(id, {}, options));

/** A payout to the bank as Stripe has it now. */
export const retrievePayout = (db: Knex, config: Config, id: string) =>
  call(db, config, (stripe, options) => stripe.payouts.retrieve(id, {}, options));

/** Every payout Stripe created since `since`, page by page. */
export const recentPayouts = (db: Knex, config: Config, since: Date) =>
  call(db, config, (stripe, options) =>
    stripe.payouts
      .list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100 }, options)
      .autoPagingToArray({
        limit: 10_000,
      }),
  );

/**
 * Every balance transaction Stripe created from `from` (inclusive) to `to` (exclusive), with its
 * source object (the charge, refund, dispute or payout) expanded, page by page
 * (https://docs.stripe.com/api/balance_transactions/list). Stripe's times are whole seconds.
 */
export const balanceTransactionsBetween = (db: Knex, config: Config, from: Date, to: Date) =>
  call(db, config, async (stripe, options) => {
    const all: Stripe.BalanceTransaction[] = [];
    const pages = stripe.balanceTransactions.list(
      {
        created: { gte: Math.ceil(from.getTime() / 1000), lt: Math.ceil(to.getTime() / 1000) },
        expand: ['data.source'],
        limit: 100,
      },
      options,
    );
    for await (const txn of pages) all.push(txn);
    return all;
  });

/** A charge as Stripe has it (its payment intent names our order). */
export const retrieveCharge = (db: Knex, config: Config, id: string) =>
  call(db, config, (stripe, options) => stripe.charges.retrieve(id, {}, options));
