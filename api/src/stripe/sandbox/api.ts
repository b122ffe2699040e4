import { createHash, timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import Stripe from 'stripe';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { pathParam } from '../../http/params.ts';
import { oneRow } from '../../foundations/one-row.ts';
import { log } from '../../foundations/log.ts';
import { invalidParam, StripeApiError } from './errors.ts';
import { bookFee } from './fees.ts';
import {
  expandPaths,
  integer,
  list,
  metadata,
  onlyKnown,
  parseParams,
  readBody,
  requiredText,
  text,
  type Params,
} from './form.ts';
import { sandboxCredentials, type SandboxCredentials } from './keys.ts';
import { balance, listBalanceTransactions, listPayouts, payOutBalance } from './balance.ts';
import { chargingAccount, createAccount, createAccountLink, requestedAccount, retrieveAccount } from './connect.ts';
import {
  createSession,
  expand,
  isDue,
  markExpired,
  newId,
  notOpen,
  present,
  unixNow,
  type Charge,
  type CheckoutSession,
  type Refund,
} from './objects.ts';
import {
  answerDispute,
  close,
  notOpenDispute,
  openDispute,
  type Dispute,
  type EarlyFraudWarning,
} from './lifecycle.ts';
import { doBankActions } from './later.ts';
import { inRange, page, type StripeList } from './lists.ts';
import { finishRefund, refundCharge } from './refunds.ts';
import {
  claimIdempotencyKey,
  currentAccount,
  deleteObject,
  ensureRoom,
  getObject,
  insertObject,
  listObjects,
  onAccount,
  saveObject,
  storeIdempotentError,
  storeIdempotentResponse,
  type StripeObject,
} from './store.ts';
import {
  deliverDue,
  ownWebhookUrl,
  platformConnectUrl,
  queueEvents,
  retryDeliveriesNow,
  stripeEvent,
  type StripeEvent,
  type WebhookEndpoint,
} from './webhooks.ts';

/** What a sandbox API call answers, and the events it causes (sent once the change is committed). */
interface Outcome {
  body: unknown;
  events: StripeEvent[];
}

type Handler = (
  trx: Knex.Transaction,
  params: Params,
  ctx: Context & { params: Record<string, string> },
) => Promise<Outcome>;

const bodyLimit = 256 * 1024;

/** Stripe never shows a key it refuses in full. */
const maskKey = (key: string) =>
  key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '*'.repeat(key.length);

/**
 * Stripe's bearer key check against this installation's key: a missing or wrong key is a 401 the
 * SDK turns into StripeAuthenticationError. Answers who called (the key's hash), for idempotency keys.
 */
async function checkKey(
  db: Db,
  ctx: Context,
): Promise<{ caller: string; credentials: SandboxCredentials; maskedKey: string }> {
  const key = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  if (!key) {
    throw new StripeApiError(
      401,
      'invalid_request_error',
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  const credentials = await sandboxCredentials(db);
  const expected = createHash('sha256').update(credentials.secretKey).digest();
  const given = createHash('sha256').update(key).digest();
  // Compared in constant time: the key is the sandbox's only lock.
  if (!timingSafeEqual(given, expected))
    throw new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${maskKey(key)}`);
  return { caller: given.toString('hex'), credentials, maskedKey: maskKey(key) };
}

/** An error in Stripe's terms: anything unexpected is Stripe's api_error and goes to the log. */
function stripeError(ctx: Context, error: unknown, requestId: string): StripeApiError {
  if (error instanceof StripeApiError) return error;
  log.error('stripe sandbox request failed', {
    requestId,
    method: ctx.method,
    path: ctx.path,
    error: String((error as Error)?.stack ?? error),
  });
  return new StripeApiError(500, 'api_error', 'An unexpected error occurred in the local Stripe sandbox.');
}

/** Answers an error in Stripe's shape. */
function sendError(ctx: Context, error: unknown, requestId: string): void {
  const known = stripeError(ctx, error, requestId);
  ctx.status = known.status;
  ctx.body = known.toJSON();
}

/**
 * Whether Stripe keeps a failed request's answer under its idempotency key: it does once the request
 * began to run, and not when its parameters failed validation
 * (https://docs.stripe.com/api/idempotent_requests: "Results are only saved if an API endpoint started
 * executing. If incoming parameters failed validation … no idempotent result is saved").
 */
const keptUnderKey = (error: StripeApiError) =>
  !['parameter_invalid', 'parameter_missing', 'parameter_unknown', 'url_invalid'].includes(error.details.code ?? '');

/**
 * A request's parameters: Stripe's form encoding; the sandbox-only actions under /stripe-sandbox/
 * take a flat JSON object too (tests and scripts post `{ "amount": 300 }`).
 */
function bodyParams(ctx: Context, body: string): Params {
  if (!ctx.path.startsWith('/stripe-sandbox/') || !ctx.is('application/json')) return parseParams(body);
  let json: unknown;
  try {
    json = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw new StripeApiError(400, 'invalid_request_error', 'The request body is not valid JSON.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new StripeApiError(400, 'invalid_request_error', 'The request body must be a JSON object.');
  const params = Object.create(null) as Params;
  for (const [key, value] of Object.entries(json)) {
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw invalidParam(key, `Invalid ${key}: only text, numbers and true or false are taken.`);
    params[key] = String(value);
  }
  return params;
}

/**
 * One API route: key check, Stripe's form parameters, one transaction, `Idempotency-Key` (the same
 * key answers the same response without doing the work again), and the events after commit.
 */
function route(db: Db, config: Config, handler: Handler) {
  return async (ctx: Context & { params: Record<string, string> }) => {
    const requestId = newId('req_', 14);
    ctx.set('Request-Id', requestId);
    try {
      const { caller: keyHash, credentials, maskedKey } = await checkKey(db, ctx);
      ctx.state.credentials = credentials;
      // A request with the Stripe-Account header acts on that connected account, its idempotency
      // keys apart from the platform's (https://docs.stripe.com/connect/authentication).
      const account = await requestedAccount(db, ctx.get('Stripe-Account'), maskedKey);
      const caller = account ? `${keyHash}:${account}` : keyHash;
      const params =
        ctx.method === 'GET' ? parseParams(ctx.querystring) : bodyParams(ctx, await readBody(ctx.req, bodyLimit));
      const key = ctx.method === 'POST' ? ctx.get('Idempotency-Key') : '';
      const { outcome, replayed, failed } = await onAccount(account, () =>
        db.transaction(async (trx) => {
          const request = `${ctx.method} ${ctx.path} ${JSON.stringify(params)}`;
          const replay = key ? await claimIdempotencyKey(trx, caller, key, request) : undefined;
          if (replay) return { outcome: { body: replay.body, events: [] }, replayed: true, failed: replay.error };
          if (!key) return { outcome: await queued(trx, await handler(trx, params, ctx)), replayed: false };
          try {
            // A savepoint: a failure undoes the request's changes and keeps its key claimed.
            const outcome = await trx.transaction(async (inner) => queued(inner, await handler(inner, params, ctx)));
            await storeIdempotentResponse(trx, caller, key, outcome.body);
            return { outcome, replayed: false };
          } catch (error) {
            const known = stripeError(ctx, error, requestId);
            if (!keptUnderKey(known)) throw known;
            // Stripe answers the same error to every retry under this key for 24 hours.
            await storeIdempotentError(trx, caller, key, known);
            return { outcome: { body: null, events: [] }, replayed: false, failed: known };
          }
        }),
      );
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      if (failed) throw failed;
      ctx.status = 200;
      ctx.body = outcome.body;
      if (outcome.events.length) deliverDue(db, config);
    } catch (error) {
      sendError(ctx, error, requestId);
    }
  };
}

/** Queues an outcome's events in the transaction of its change. */
async function queued(trx: Knex.Transaction, outcome: Outcome): Promise<Outcome> {
  await queueEvents(trx, outcome.events);
  return outcome;
}

/** The session, expired first when its time is up (with the event Stripe would send). */
export async function currentSession(
  trx: Knex.Transaction,
  id: string,
  events: StripeEvent[],
): Promise<CheckoutSession> {
  const session = await getObject<CheckoutSession>(trx, 'checkout.session', id, { lock: true });
  if (isDue(session)) {
    markExpired(session);
    await saveObject(trx, session);
    events.push(stripeEvent('checkout.session.expired', present(session)));
  }
  return session;
}

/** A list with `expand[]=data.…`: each of its objects expanded. */
async function expandList<T extends StripeObject>(
  trx: Knex.Transaction,
  list: StripeList<T>,
  params: Params,
): Promise<StripeList<StripeObject>> {
  const paths = expandPaths(params).map((path) => {
    if (!path.startsWith('data.'))
      throw invalidParam('expand', `This property cannot be expanded (${path.split('.')[0]}).`);
    return path.slice('data.'.length);
  });
  // One after the other: a transaction's connection runs one query at a time.
  const data: StripeObject[] = [];
  for (const object of list.data) data.push(await expand(trx, object, paths));
  return { ...list, data };
}

/** A GET of one object by id, with `expand[]`. */
function retrieve(type: string): Handler {
  return async (trx, params, ctx) => {
    onlyKnown(params, ['expand']);
    const events: StripeEvent[] = [];
    const object =
      type === 'checkout.session'
        ? await currentSession(trx, pathParam(ctx, 'id'), events)
        : await getObject(trx, type, pathParam(ctx, 'id'));
    return { body: await expand(trx, object, expandPaths(params)), events };
  };
}

/** Whether pages of `origin` embed the shop: the shop's rule, handed in by the app. */
export type IsEmbedOrigin = (db: Knex, origin: string) => Promise<boolean>;

/**
 * The sandbox's page sends payers on from the shop's own origin, so only to the shop itself or to the
 * newspaper's sites that embed it: anywhere else would be an open redirect with the shop's name on it.
 */
async function checkReturnUrl(
  trx: Knex.Transaction,
  config: Config,
  isEmbedOrigin: IsEmbedOrigin,
  name: string,
  url: string | null,
): Promise<void> {
  if (url === null) return;
  const origin = new URL(url.replaceAll('{CHECKOUT_SESSION_ID}', 'x')).origin;
  if (origin === new URL(config.publicUrl).origin || (await isEmbedOrigin(trx, origin))) return;
  throw invalidParam(
    name,
    `The local Stripe sandbox returns payers only to this shop or the sites that embed it, not to ${origin}.`,
    'url_invalid',
  );
}

const createCheckoutSession =
  (config: Config, isEmbedOrigin: IsEmbedOrigin): Handler =>
  async (trx, params) => {
    // A direct charge on a connected account (https://docs.stripe.com/connect/direct-charges): in a
    // currency that account settles in, and only once it may charge at all.
    const account = currentAccount();
    const currencies = account ? [(await chargingAccount(trx, account)).default_currency] : config.sandboxCurrencies;
    const session = createSession(params, (id) => `${config.publicUrl}/stripe-sandbox/pay/${id}`, currencies);
    await checkReturnUrl(trx, config, isEmbedOrigin, 'success_url', session.success_url);
    await checkReturnUrl(trx, config, isEmbedOrigin, 'cancel_url', session.cancel_url);
    // A session is where storage grows (its payment and refunds follow from it): bounded here.
    await ensureRoom(trx, config.sandboxMaxObjects);
    await insertObject(trx, session);
    return { body: await expand(trx, session, expandPaths(params)), events: [] };
  };

const expireCheckoutSession: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['expand']);
  const events: StripeEvent[] = [];
  const session = await currentSession(trx, pathParam(ctx, 'id'), events);
  if (events.length === 0) {
    if (session.status !== 'open') throw notOpen(session);
    markExpired(session);
    await saveObject(trx, session);
    events.push(stripeEvent('checkout.session.expired', present(session)));
  }
  return { body: await expand(trx, session, expandPaths(params)), events };
};

/** Sandbox-only: books the fee that a payment with the hold-fee test card left out, and sends `charge.updated`. */
const releaseHeldFee: Handler = async (trx, params, ctx) => {
  onlyKnown(params, []);
  const session = await getObject<CheckoutSession>(trx, 'checkout.session', pathParam(ctx, 'id'), { lock: true });
  const intent = session.payment_intent ? await getObject(trx, 'payment_intent', session.payment_intent) : undefined;
  const charge = intent && (await getObject<Charge>(trx, 'charge', intent.latest_charge as string, { lock: true }));
  if (!charge || charge.balance_transaction) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      'This Checkout Session has no payment whose fee is held back (pay it with the hold-fee test card 4000 0000 0000 0010).',
    );
  }
  const event = await bookFee(trx, charge);
  return { body: charge, events: [event] };
};

/** A refund of a payment (by `payment_intent` or `charge`), whole or `amount` of it. */
const createRefundHandler: Handler = async (trx, params) => {
  onlyKnown(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
  const { refund, events } = await refundCharge(trx, params);
  return { body: await expand(trx, refund, expandPaths(params)), events };
};

/**
 * Sandbox-only: a refund as someone makes it in Stripe's Dashboard (no metadata of ours), of the
 * whole payment or `amount` of it.
 */
const dashboardRefund: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['amount']);
  const amount = text(params, 'amount');
  const { refund, events } = await refundCharge(trx, {
    payment_intent: pathParam(ctx, 'id'),
    ...(amount === undefined ? {} : { amount }),
  });
  return { body: refund, events };
};

/** The refunds of a charge or payment intent (or all), newest first, as Stripe lists them. */
const listRefunds: Handler = async (trx, params) => {
  onlyKnown(params, ['charge', 'payment_intent', 'created', 'limit', 'starting_after', 'ending_before', 'expand']);
  const charge = text(params, 'charge');
  const intent = text(params, 'payment_intent');
  const created = inRange(params, 'created');
  const all = (await listObjects<Refund>(trx, 'refund')).filter(
    (r) => (!charge || r.charge === charge) && (!intent || r.payment_intent === intent) && created(r.created as number),
  );
  return { body: await expandList(trx, page(all, params, '/v1/refunds'), params), events: [] };
};

/** Sandbox-only: "some time later" for the asynchronous refund cards 7726 (succeeds) and 5126 (fails). */
const finishRefundHandler: Handler = async (trx, params, ctx) => {
  onlyKnown(params, []);
  const { refund, events } = await finishRefund(trx, pathParam(ctx, 'id'));
  return { body: refund, events };
};

/** Stripe's test flow for disputes: evidence (https://docs.stripe.com/testing#evidence), submitted, answers it. */
const updateDispute: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['evidence', 'submit', 'metadata', 'expand']);
  const dispute = await getObject<Dispute>(trx, 'dispute', pathParam(ctx, 'id'), { lock: true });
  const evidence = (params.evidence ?? {}) as Params;
  const textEvidence = typeof evidence.uncategorized_text === 'string' ? evidence.uncategorized_text : undefined;
  if (params.metadata !== undefined) dispute.metadata = metadata(params);
  const events = await answerDispute(trx, dispute, textEvidence, params.submit === 'true');
  await saveObject(trx, dispute);
  return { body: await expand(trx, dispute, expandPaths(params)), events };
};

/** Accepting a dispute (https://docs.stripe.com/api/disputes/close): a chargeback is lost, an inquiry closed. */
const closeDispute: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['expand']);
  const dispute = await getObject<Dispute>(trx, 'dispute', pathParam(ctx, 'id'), { lock: true });
  if (!['needs_response', 'warning_needs_response', 'under_review', 'warning_under_review'].includes(dispute.status))
    throw notOpenDispute(dispute);
  const events = await close(trx, dispute, 'lost');
  await saveObject(trx, dispute);
  return { body: await expand(trx, dispute, expandPaths(params)), events };
};

const listDisputes: Handler = async (trx, params) => {
  onlyKnown(params, ['charge', 'payment_intent', 'created', 'limit', 'starting_after', 'ending_before', 'expand']);
  const charge = text(params, 'charge');
  const intent = text(params, 'payment_intent');
  const created = inRange(params, 'created');
  const all = (await listObjects<Dispute>(trx, 'dispute')).filter(
    (d) => (!charge || d.charge === charge) && (!intent || d.payment_intent === intent) && created(d.created as number),
  );
  return { body: await expandList(trx, page(all, params, '/v1/disputes'), params), events: [] };
};

/**
 * Sandbox-only: the card's bank disputes an existing charge, also one refunded already (Stripe
 * allows that): a chargeback of the whole charge or `amount`, with `reason`, or with `inquiry=true`
 * an inquiry. Answers the dispute.
 */
const disputeChargeHandler: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['amount', 'reason', 'inquiry']);
  const charge = await getObject<Charge>(trx, 'charge', pathParam(ctx, 'id'), { lock: true });
  const amount = integer(params, 'amount', { min: 1 });
  const reason = text(params, 'reason', { max: 100 });
  const { dispute, events } = await openDispute(trx, charge, {
    ...(amount === undefined ? {} : { amount }),
    ...(reason === undefined ? {} : { reason }),
    inquiry: text(params, 'inquiry') === 'true',
  });
  return { body: dispute, events };
};

const listFraudWarnings: Handler = async (trx, params) => {
  onlyKnown(params, ['charge', 'payment_intent', 'created', 'limit', 'starting_after', 'ending_before', 'expand']);
  const charge = text(params, 'charge');
  const intent = text(params, 'payment_intent');
  const created = inRange(params, 'created');
  const all = (await listObjects<EarlyFraudWarning>(trx, 'radar.early_fraud_warning')).filter(
    (w) => (!charge || w.charge === charge) && (!intent || w.payment_intent === intent) && created(w.created as number),
  );
  return { body: await expandList(trx, page(all, params, '/v1/radar/early_fraud_warnings'), params), events: [] };
};

const listBalanceTransactionsHandler: Handler = async (trx, params) => ({
  body: await expandList(trx, await listBalanceTransactions(trx, params), params),
  events: [],
});

const balanceHandler: Handler = async (trx, params) => {
  onlyKnown(params, ['expand']);
  return { body: await balance(trx), events: [] };
};

const listPayoutsHandler: Handler = async (trx, params) => ({
  body: await expandList(trx, await listPayouts(trx, params), params),
  events: [],
});

/**
 * Sandbox-only: Stripe's automatic payout of the whole balance to the bank account `iban` (Stripe's
 * test IBANs: one that succeeds unless given); answers the payout (the first, one per currency).
 */
const payOutHandler: Handler = async (trx, params) => {
  onlyKnown(params, ['iban']);
  const { payouts, events } = await payOutBalance(trx, text(params, 'iban') ?? undefined);
  return {
    body: payouts.length === 1 ? payouts[0] : { object: 'list', data: payouts, has_more: false, url: '/v1/payouts' },
    events,
  };
};

/**
 * Sandbox-only: Stripe's webhook retries of the next three days, due now. Outside a transaction of
 * its own: the deliveries go out after the update, on PGlite's one connection too.
 */
function retryWebhooksNow(db: Db, config: Config) {
  return async (ctx: Context) => {
    try {
      await checkKey(db, ctx);
      ctx.body = { object: 'sandbox_retry', retried: await retryDeliveriesNow(db, config) };
    } catch (error) {
      sendError(ctx, error, newId('req_', 14));
    }
  };
}

/**
 * Sandbox-only: the sandbox's clock hurried, the banks do now what they would do later (only the
 * steps of one payout when the query names it: `?payout=po_…`).
 */
function advanceClock(db: Db, config: Config) {
  return async (ctx: Context) => {
    try {
      await checkKey(db, ctx);
      const payout = ctx.query.payout;
      if (payout !== undefined && (typeof payout !== 'string' || !/^po_\w+$/.test(payout)))
        throw new StripeApiError(400, 'invalid_request_error', 'Invalid payout', { param: 'payout' });
      ctx.body = { object: 'sandbox_clock', done: await doBankActions(db, config, true, payout) };
    } catch (error) {
      sendError(ctx, error, newId('req_', 14));
    }
  };
}

/** Stripe's limit of webhook endpoints per account (test mode): it also bounds what a caller can store. */
const maxEndpoints = 16;

/**
 * The sandbox sends events only to the server's own webhook route (on a platform, or to the
 * platform's Connect endpoint): another URL would hand customers' e-mail addresses and receipt links
 * to whoever registered it, and make the server POST anywhere.
 */
function ownUrl(config: Config, params: Params): string {
  const url = requiredText(params, 'url');
  const allowed = [ownWebhookUrl(config), platformConnectUrl(config)].filter((own) => own !== undefined);
  if (!allowed.includes(url)) {
    throw invalidParam(
      'url',
      `The local Stripe sandbox sends events only to this server's own webhook ${allowed.length > 1 ? 'endpoints' : 'endpoint'}, ${allowed.join(' and ')}.`,
      'url_invalid',
    );
  }
  return url;
}

function enabledEvents(params: Params): string[] {
  const enabled = (list(params, 'enabled_events') ?? []).map((e) => {
    if (typeof e !== 'string' || e.length > 100)
      throw invalidParam('enabled_events', 'Invalid array: enabled_events must hold event types.');
    return e;
  });
  if (enabled.length === 0)
    throw invalidParam('enabled_events', 'Missing required param: enabled_events.', 'parameter_missing');
  return [...new Set(enabled)];
}

/** As Stripe shows an endpoint on creation: with its signing secret (the installation's), shown only then. */
const createWebhookEndpoint =
  (config: Config): Handler =>
  async (trx, params, ctx) => {
    onlyKnown(params, ['url', 'enabled_events', 'description', 'api_version', 'connect', 'metadata', 'expand']);
    const url = ownUrl(config, params);
    const connect = text(params, 'connect');
    if (connect !== undefined && connect !== 'true' && connect !== 'false')
      throw invalidParam('connect', 'Invalid boolean: connect must be true or false.');
    const enabled = enabledEvents(params);
    const apiVersion = text(params, 'api_version') ?? null;
    if (apiVersion !== null && apiVersion !== Stripe.API_VERSION)
      throw invalidParam('api_version', `Invalid API version: ${apiVersion}`);
    const { n } = oneRow(await trx('stripe_sandbox_objects').where({ type: 'webhook_endpoint' }).count({ n: '*' }));
    if (Number(n) >= maxEndpoints) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `You have reached the maximum of ${maxEndpoints} test webhook endpoints.`,
        { code: 'webhook_endpoints_limit' },
      );
    }
    const endpoint: WebhookEndpoint = {
      id: newId('we_'),
      object: 'webhook_endpoint',
      api_version: apiVersion,
      created: unixNow(),
      description: text(params, 'description', { max: 5000 }) ?? null,
      enabled_events: enabled,
      livemode: false,
      metadata: metadata(params),
      status: 'enabled',
      url,
      // Kept only on a Connect endpoint: an account endpoint looks as it always did.
      ...(connect === 'true' ? { connect: true } : {}),
    };
    await insertObject(trx, endpoint);
    const { webhookSecret } = ctx.state.credentials as SandboxCredentials;
    return { body: { ...endpoint, secret: webhookSecret }, events: [] };
  };

const retrieveWebhookEndpoint: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['expand']);
  return { body: await getObject(trx, 'webhook_endpoint', pathParam(ctx, 'id')), events: [] };
};

const listWebhookEndpoints: Handler = async (trx, params) => {
  onlyKnown(params, ['limit', 'expand']);
  const limit = integer(params, 'limit', { min: 1 }) ?? 10;
  if (limit > 100) throw invalidParam('limit', 'Invalid limit: must be between 1 and 100.');
  const all = await listObjects(trx, 'webhook_endpoint');
  return {
    body: { object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url: '/v1/webhook_endpoints' },
    events: [],
  };
};

const updateWebhookEndpoint =
  (config: Config): Handler =>
  async (trx, params, ctx) => {
    onlyKnown(params, ['url', 'enabled_events', 'description', 'disabled', 'metadata', 'expand']);
    const endpoint = await getObject<WebhookEndpoint>(trx, 'webhook_endpoint', pathParam(ctx, 'id'), { lock: true });
    if (params.url !== undefined) endpoint.url = ownUrl(config, params);
    if (params.enabled_events !== undefined) endpoint.enabled_events = enabledEvents(params);
    if (params.description !== undefined) endpoint.description = text(params, 'description', { max: 5000 }) || null;
    if (params.metadata !== undefined) endpoint.metadata = metadata(params);
    const disabled = text(params, 'disabled');
    if (disabled !== undefined) endpoint.status = disabled === 'true' ? 'disabled' : 'enabled';
    await saveObject(trx, endpoint);
    return { body: endpoint, events: [] };
  };

const deleteWebhookEndpoint: Handler = async (trx, params, ctx) => {
  onlyKnown(params, []);
  const endpoint = await getObject(trx, 'webhook_endpoint', pathParam(ctx, 'id'));
  await deleteObject(trx, endpoint);
  return { body: { id: endpoint.id, object: 'webhook_endpoint', deleted: true }, events: [] };
};

const createAccountHandler =
  (config: Config): Handler =>
  async (trx, params) => ({ body: await createAccount(trx, params, config), events: [] });

const retrieveAccountHandler: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['expand']);
  return { body: await retrieveAccount(trx, pathParam(ctx, 'id')), events: [] };
};

/** An account link returns its visitor to the shop or the sites that embed it, as the checkout page does. */
const createAccountLinkHandler =
  (config: Config, isEmbedOrigin: IsEmbedOrigin): Handler =>
  async (trx, params) => ({
    body: await createAccountLink(trx, params, config, (name, url) =>
      checkReturnUrl(trx, config, isEmbedOrigin, name, url),
    ),
    events: [],
  });

/** The Stripe API calls our adapter makes (checkout, refunds), plus webhook endpoints (for tests) and the sandbox's fee release. */
export function mountApi(router: Router, db: Db, config: Config, isEmbedOrigin: IsEmbedOrigin): void {
  const r = (handler: Handler) => route(db, config, handler);
  router.post('/v1/checkout/sessions', r(createCheckoutSession(config, isEmbedOrigin)));
  router.get('/v1/checkout/sessions/:id', r(retrieve('checkout.session')));
  router.post('/v1/checkout/sessions/:id/expire', r(expireCheckoutSession));
  router.get('/v1/payment_intents/:id', r(retrieve('payment_intent')));
  router.get('/v1/charges/:id', r(retrieve('charge')));
  router.get('/v1/balance_transactions/:id', r(retrieve('balance_transaction')));
  router.get('/v1/balance_transactions', r(listBalanceTransactionsHandler));
  router.get('/v1/balance', r(balanceHandler));
  router.post('/v1/refunds', r(createRefundHandler));
  router.get('/v1/refunds', r(listRefunds));
  router.get('/v1/refunds/:id', r(retrieve('refund')));
  router.get('/v1/disputes', r(listDisputes));
  router.get('/v1/disputes/:id', r(retrieve('dispute')));
  router.post('/v1/disputes/:id', r(updateDispute));
  router.post('/v1/disputes/:id/close', r(closeDispute));
  router.get('/v1/radar/early_fraud_warnings', r(listFraudWarnings));
  router.get('/v1/radar/early_fraud_warnings/:id', r(retrieve('radar.early_fraud_warning')));
  router.get('/v1/payouts', r(listPayoutsHandler));
  router.get('/v1/payouts/:id', r(retrieve('payout')));
  router.post('/stripe-sandbox/refunds/:id/finish', r(finishRefundHandler));
  router.post('/stripe-sandbox/payment_intents/:id/dashboard-refund', r(dashboardRefund));
  router.post('/stripe-sandbox/charges/:id/dispute', r(disputeChargeHandler));
  router.post('/stripe-sandbox/payouts', r(payOutHandler));
  router.post('/stripe-sandbox/webhooks/retry-now', retryWebhooksNow(db, config));
  router.post('/stripe-sandbox/clock/advance', advanceClock(db, config));
  router.post('/v1/webhook_endpoints', r(createWebhookEndpoint(config)));
  router.get('/v1/webhook_endpoints', r(listWebhookEndpoints));
  router.get('/v1/webhook_endpoints/:id', r(retrieveWebhookEndpoint));
  router.post('/v1/webhook_endpoints/:id', r(updateWebhookEndpoint(config)));
  router.delete('/v1/webhook_endpoints/:id', r(deleteWebhookEndpoint));
  router.post('/stripe-sandbox/sessions/:id/release-fee', r(releaseHeldFee));
  router.post('/v1/accounts', r(createAccountHandler(config)));
  router.get('/v1/accounts/:id', r(retrieveAccountHandler));
  router.post('/v1/account_links', r(createAccountLinkHandler(config, isEmbedOrigin)));
}

/** Stripe's answer to a path it does not know. */
export function unknownRoute(ctx: Context): void {
  sendError(
    ctx,
    new StripeApiError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${ctx.method}: ${ctx.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    ),
    newId('req_', 14),
  );
}
