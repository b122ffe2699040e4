import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { log } from '../../log.ts';
import { invalidParam, StripeApiError } from './errors.ts';
import { expandPaths, list, onlyKnown, parseParams, readBody, requiredText, text, type Params } from './form.ts';
import { SANDBOX_SECRET_KEY } from './keys.ts';
import {
  balanceTransaction,
  createRefund,
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
import { outcomeOfEvidence, reinstatement } from './lifecycle.ts';
import { claimIdempotencyKey, deleteObject, getObject, insertObject, listObjects, saveObject, storeIdempotentResponse, type StripeObject } from './store.ts';
import { sendEvents, stripeEvent, type StripeEvent, type WebhookEndpoint } from './webhooks.ts';

/** What a sandbox API call answers, and the events it causes (sent once the change is committed). */
interface Outcome {
  body: unknown;
  events: StripeEvent[];
}

type Handler = (trx: Knex.Transaction, params: Params, ctx: Context & { params: Record<string, string> }) => Promise<Outcome>;

const bodyLimit = 256 * 1024;

/** Stripe never shows a key it refuses in full. */
const maskKey = (key: string) => (key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '*'.repeat(key.length));

/** Stripe's bearer key check: a missing or wrong key is a 401 the SDK turns into StripeAuthenticationError. */
function checkKey(ctx: Context): void {
  const key = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
  if (!key) {
    throw new StripeApiError(401, 'invalid_request_error', "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').");
  }
  if (key !== SANDBOX_SECRET_KEY) throw new StripeApiError(401, 'invalid_request_error', `Invalid API Key provided: ${maskKey(key)}`);
}

/** Answers an error in Stripe's shape; anything unexpected is Stripe's api_error and goes to the log. */
function sendError(ctx: Context, error: unknown, requestId: string): void {
  const known = error instanceof StripeApiError ? error : new StripeApiError(500, 'api_error', 'An unexpected error occurred in the local Stripe sandbox.');
  if (known !== error) log.error('stripe sandbox request failed', { requestId, method: ctx.method, path: ctx.path, error: String((error as Error)?.stack ?? error) });
  ctx.status = known.status;
  ctx.body = known.toJSON();
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
      checkKey(ctx);
      const params = ctx.method === 'GET' ? parseParams(ctx.querystring) : parseParams(await readBody(ctx.req, bodyLimit));
      const key = ctx.method === 'POST' ? ctx.get('Idempotency-Key') : '';
      const { outcome, replayed } = await db.transaction(async (trx) => {
        const replay = key ? await claimIdempotencyKey(trx, key, `${ctx.method} ${ctx.path} ${JSON.stringify(params)}`) : undefined;
        if (replay) return { outcome: { body: replay.body, events: [] }, replayed: true };
        const outcome = await handler(trx, params, ctx);
        if (key) await storeIdempotentResponse(trx, key, outcome.body);
        return { outcome, replayed: false };
      });
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      ctx.status = 200;
      ctx.body = outcome.body;
      sendEvents(db, config, outcome.events);
    } catch (error) {
      sendError(ctx, error, requestId);
    }
  };
}

/** The session, expired first when its time is up (with the event Stripe would send). */
export async function currentSession(trx: Knex.Transaction, id: string, events: StripeEvent[]): Promise<CheckoutSession> {
  const session = await getObject<CheckoutSession>(trx, 'checkout.session', id, { lock: true });
  if (isDue(session)) {
    markExpired(session);
    await saveObject(trx, session);
    events.push(stripeEvent('checkout.session.expired', present(session)));
  }
  return session;
}

/** A GET of one object by id, with `expand[]`. */
function retrieve(type: string): Handler {
  return async (trx, params, ctx) => {
    onlyKnown(params, ['expand']);
    const events: StripeEvent[] = [];
    const object = type === 'checkout.session' ? await currentSession(trx, ctx.params.id, events) : await getObject(trx, type, ctx.params.id);
    return { body: await expand(trx, object, expandPaths(params)), events };
  };
}

const createCheckoutSession = (config: Config): Handler => async (trx, params) => {
  const session = createSession(params, (id) => `${config.publicUrl}/stripe-sandbox/pay/${id}`);
  await insertObject(trx, session);
  return { body: await expand(trx, session, expandPaths(params)), events: [] };
};

const expireCheckoutSession: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['expand']);
  const events: StripeEvent[] = [];
  const session = await currentSession(trx, ctx.params.id, events);
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
  const session = await getObject<CheckoutSession>(trx, 'checkout.session', ctx.params.id, { lock: true });
  const intent = session.payment_intent ? await getObject(trx, 'payment_intent', session.payment_intent) : undefined;
  const charge = intent && (await getObject<Charge>(trx, 'charge', intent.latest_charge as string, { lock: true }));
  if (!charge || charge.balance_transaction) {
    throw new StripeApiError(400, 'invalid_request_error', 'This Checkout Session has no payment whose fee is held back (pay it with the hold-fee test card 4000 0000 0000 0010).');
  }
  const txn = balanceTransaction(charge);
  await insertObject(trx, txn);
  charge.balance_transaction = txn.id;
  await saveObject(trx, charge);
  return { body: charge, events: [stripeEvent('charge.updated', charge, { balance_transaction: null })] };
};

/** A refund of a payment (by `payment_intent` or `charge`); `charge.refunded` and `refund.created` follow. */
const createRefundHandler: Handler = async (trx, params) => {
  onlyKnown(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
  return refundCharge(trx, params);
};

/** Sandbox-only: a refund of the whole payment as someone makes it in Stripe's Dashboard (no metadata of ours). */
const dashboardRefund: Handler = async (trx, params, ctx) => {
  onlyKnown(params, []);
  return refundCharge(trx, { payment_intent: ctx.params.id });
};

async function refundCharge(trx: Knex.Transaction, params: Params): Promise<Outcome> {
  const intentId = text(params, 'payment_intent');
  let chargeId = text(params, 'charge');
  if (!intentId && !chargeId) throw invalidParam('payment_intent', 'One of the following params should be provided for this request: payment_intent or charge.');
  if (intentId) {
    const intent = await getObject(trx, 'payment_intent', intentId);
    if (chargeId && chargeId !== intent.latest_charge) throw invalidParam('charge', `The charge ${chargeId} does not belong to the PaymentIntent ${intentId}.`);
    chargeId = intent.latest_charge as string;
  }
  const charge = await getObject<Charge>(trx, 'charge', chargeId!, { lock: true });
  const { refund, txn } = createRefund(params, charge);
  // Cards 7726 and 3476: the refund waits for the bank (finished with /stripe-sandbox/refunds/<id>/finish).
  if (charge.sandbox_refunds) refund.status = 'pending';
  await insertObject(trx, txn);
  await insertObject(trx, refund);
  const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += refund.amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  await saveObject(trx, charge);
  return {
    body: await expand(trx, refund, expandPaths(params)),
    events: [stripeEvent('charge.refunded', charge, previous), stripeEvent('refund.created', refund)],
  };
}

/** The refunds of a charge (`charge=`), newest first, as Stripe lists them. */
const listRefunds: Handler = async (trx, params) => {
  onlyKnown(params, ['charge', 'payment_intent', 'limit']);
  const charge = text(params, 'charge');
  const intent = text(params, 'payment_intent');
  const all = await listObjects<Refund>(trx, 'refund');
  const data = all.filter((r) => (!charge || r.charge === charge) && (!intent || r.payment_intent === intent)).reverse();
  return { body: { object: 'list', data, has_more: false, url: '/v1/refunds' }, events: [] };
};

/** Sandbox-only: the bank's answer to a pending refund: it succeeds (card 7726) or fails (card 3476). */
const finishRefund: Handler = async (trx, params, ctx) => {
  onlyKnown(params, []);
  const refund = await getObject<Refund>(trx, 'refund', ctx.params.id, { lock: true });
  const charge = await getObject<Charge>(trx, 'charge', refund.charge, { lock: true });
  if (refund.status !== 'pending') throw new StripeApiError(400, 'invalid_request_error', `This refund is ${refund.status}, not pending.`);
  const events: StripeEvent[] = [];
  if (charge.sandbox_refunds === 'refund_fails') {
    Object.assign(refund, { status: 'failed', failure_reason: 'expired_or_canceled_card' });
    charge.amount_refunded -= refund.amount;
    charge.refunded = false;
    await saveObject(trx, charge);
    events.push(stripeEvent('refund.updated', refund, { status: 'pending' }), stripeEvent('refund.failed', refund));
  } else {
    refund.status = 'succeeded';
    events.push(stripeEvent('refund.updated', refund, { status: 'pending' }));
  }
  await saveObject(trx, refund);
  return { body: refund, events };
};

/** Stripe's test flow for disputes: evidence `winning_evidence` or `losing_evidence`, submitted, closes it. */
const updateDispute: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['evidence', 'submit', 'metadata', 'expand']);
  const dispute = await getObject(trx, 'dispute', ctx.params.id, { lock: true });
  const evidence = (params.evidence ?? {}) as Params;
  const textEvidence = typeof evidence.uncategorized_text === 'string' ? evidence.uncategorized_text : undefined;
  if (!['needs_response', 'warning_needs_response'].includes(dispute.status as string)) {
    throw new StripeApiError(400, 'invalid_request_error', `This dispute is already closed (${dispute.status}).`);
  }
  const previous = { status: dispute.status };
  dispute.evidence = { ...(dispute.evidence as object), uncategorized_text: textEvidence ?? null };
  const outcome = params.submit === 'true' ? outcomeOfEvidence(textEvidence) : undefined;
  const events: StripeEvent[] = [];
  if (outcome) {
    dispute.status = outcome;
    if (outcome === 'won') {
      const charge = await getObject<Charge>(trx, 'charge', dispute.charge as string);
      dispute.balance_transactions = [...(dispute.balance_transactions as StripeObject[]), reinstatement(dispute, charge)];
    }
    events.push(stripeEvent('charge.dispute.updated', dispute, previous), stripeEvent('charge.dispute.closed', dispute));
    if (outcome === 'won') events.push(stripeEvent('charge.dispute.funds_reinstated', dispute));
  } else if (params.submit === 'true') {
    dispute.status = 'under_review';
    events.push(stripeEvent('charge.dispute.updated', dispute, previous));
  }
  await saveObject(trx, dispute);
  return { body: dispute, events };
};

const createWebhookEndpoint: Handler = async (trx, params) => {
  onlyKnown(params, ['url', 'enabled_events', 'description', 'expand']);
  const url = requiredText(params, 'url');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw invalidParam('url', `Invalid URL: ${url}`, 'url_invalid');
  const enabled = (list(params, 'enabled_events') ?? []).map((e) => String(e));
  if (enabled.length === 0) throw invalidParam('enabled_events', 'Missing required param: enabled_events.', 'parameter_missing');
  const endpoint: WebhookEndpoint = {
    id: newId('we_'),
    object: 'webhook_endpoint',
    api_version: null,
    created: unixNow(),
    description: text(params, 'description') ?? null,
    enabled_events: enabled,
    livemode: false,
    metadata: {},
    secret: newId('whsec_', 32),
    status: 'enabled',
    url,
  };
  await insertObject(trx, endpoint);
  return { body: endpoint, events: [] };
};

/** Stripe shows an endpoint's signing secret only once, when it is created. */
const withoutSecret = ({ secret: _secret, ...endpoint }: StripeObject) => endpoint;

const retrieveWebhookEndpoint: Handler = async (trx, params, ctx) => {
  onlyKnown(params, ['expand']);
  return { body: withoutSecret(await getObject(trx, 'webhook_endpoint', ctx.params.id)), events: [] };
};

const deleteWebhookEndpoint: Handler = async (trx, params, ctx) => {
  onlyKnown(params, []);
  const endpoint = await getObject(trx, 'webhook_endpoint', ctx.params.id);
  await deleteObject(trx, endpoint);
  return { body: { id: endpoint.id, object: 'webhook_endpoint', deleted: true }, events: [] };
};

/** The Stripe API calls our adapter makes (checkout, refunds), plus webhook endpoints (for tests) and the sandbox's fee release. */
export function mountApi(router: Router, db: Db, config: Config): void {
  const r = (handler: Handler) => route(db, config, handler);
  router.post('/v1/checkout/sessions', r(createCheckoutSession(config)));
  router.get('/v1/checkout/sessions/:id', r(retrieve('checkout.session')));
  router.post('/v1/checkout/sessions/:id/expire', r(expireCheckoutSession));
  router.get('/v1/payment_intents/:id', r(retrieve('payment_intent')));
  router.get('/v1/charges/:id', r(retrieve('charge')));
  router.get('/v1/balance_transactions/:id', r(retrieve('balance_transaction')));
  router.post('/v1/refunds', r(createRefundHandler));
  router.get('/v1/refunds', r(listRefunds));
  router.get('/v1/refunds/:id', r(retrieve('refund')));
  router.get('/v1/disputes/:id', r(retrieve('dispute')));
  router.post('/v1/disputes/:id', r(updateDispute));
  router.post('/stripe-sandbox/refunds/:id/finish', r(finishRefund));
  router.post('/stripe-sandbox/payment_intents/:id/dashboard-refund', r(dashboardRefund));
  router.post('/v1/webhook_endpoints', r(createWebhookEndpoint));
  router.get('/v1/webhook_endpoints/:id', r(retrieveWebhookEndpoint));
  router.delete('/v1/webhook_endpoints/:id', r(deleteWebhookEndpoint));
  router.post('/stripe-sandbox/sessions/:id/release-fee', r(releaseHeldFee));
}

/** Stripe's answer to a path it does not know. */
export function unknownRoute(ctx: Context): void {
  sendError(ctx, new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${ctx.method}: ${ctx.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`), newId('req_', 14));
}
