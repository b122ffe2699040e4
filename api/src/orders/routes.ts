import { clientBucket } from '../http/client-address.ts';
import { perProcess, TokenBuckets } from '../http/rate-limit.ts';
import type { Config } from '../foundations/config.ts';
import { TooManyRequests } from '../foundations/errors.ts';
import { HttpError } from '../http/errors.ts';
import { staffName } from '../http/context.ts';
import { respondList } from '../http/list-query.ts';
import { pathParam } from '../http/params.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { idParam, readInput } from '../http/validate.ts';
import { StripeFailure } from '../stripe/adapter.ts';
import { placeOrder } from './place.ts';
import { decideDispute } from './lifecycle.ts';
import {
  findOrder,
  findOrderByToken,
  orderReceipt,
  orderRefunds,
  receiptChangedTo,
  type Receipt,
  staffDisputes,
  staffOrderList,
  staffOrders,
  staffOrderToApi,
  type OrderRow,
  type StaffOrderRow,
} from './queries.ts';
import { refundOrder } from './refund.ts';
import { disputeDecision, orderInput } from './schema.ts';
import { invalidConfirmation, settleOrder } from './settle.ts';
import { whenSettled } from './changes.ts';
import { isSessionOf, verifyRateLimit, verifyWithStripe } from './verify-throttle.ts';
import { tr } from '../language/messages.ts';

/** An order whose money has moved: its receipt stands, whatever a page that still shows it unpaid asks. */
const moneyMoved = new Set(['paid', 'flagged', 'refunded']);

/** The receipt's order; every kind of wrong token gets the same answer. */
async function orderOfToken(ctx: AppContext, token: unknown): Promise<OrderRow> {
  const order = await findOrderByToken(ctx.db, token);
  if (!order) throw invalidConfirmation();
  return order;
}

// The verify call's limit per client address, counted in this process without a write (one set of
// buckets per running app, as each has its own configuration object): each of PROCESS_COUNT
// processes allows its share of verifyRateLimit a minute.
const verifyCalls = new WeakMap<Config, TokenBuckets>();

/** Counts this verify call of its client address; refuses it (429, Retry-After) beyond the limit. */
function limitVerifyCalls(ctx: AppContext): void {
  const { config } = ctx;
  let buckets = verifyCalls.get(config);
  if (!buckets) verifyCalls.set(config, (buckets = new TokenBuckets(perProcess(verifyRateLimit, config.processCount))));
  const wait = buckets.take(clientBucket(ctx, config));
  if (wait)
    throw new TooManyRequests(
      tr('Too many payment confirmations were asked for from this connection. Please wait a minute and try again.'),
      wait,
    );
}

/**
 * `?wait=<seconds>`: how long the customer's page is willing to wait for a pending payment's booking
 * (none unless asked), kept within the request deadline so the answer is never a timeout.
 */
function waitSeconds(ctx: AppContext): number {
  const asked = ctx.query.wait;
  if (asked === undefined) return 0;
  if (typeof asked !== 'string' || !/^\d{1,6}$/.test(asked))
    throw new HttpError(400, tr('"wait" must be a whole number of seconds.'));
  return Math.min(Number(asked), Math.floor(ctx.config.requestTimeoutSeconds / 2));
}

/** The receipt, after waiting for a pending payment's booking as long as the customer asked. */
async function receiptAfterWait(ctx: AppContext, token: string, seconds: number): Promise<Receipt> {
  const mailServer = { mailServer: Boolean(ctx.config.smtpUrl) };
  const receipt = await orderReceipt(ctx.db, token, mailServer);
  if (!receipt) throw invalidConfirmation();
  if (receipt.status !== 'pending' || !seconds) return receipt;
  const customerLeft = new AbortController();
  // Aborted only for a connection closed before the answer: an abort makes an error, stack and all.
  ctx.res.once('close', () => ctx.res.writableFinished || customerLeft.abort());
  return whenSettled(
    ctx.db,
    receipt,
    seconds,
    customerLeft.signal,
    async (change) => (change && receiptChangedTo(receipt, change)) ?? orderReceipt(ctx.db, token, mailServer),
  );
}

export const orderRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/api/orders',
    access: 'public',
    body: 'json',
    input: orderInput,
    handler: async (ctx) => {
      const input = readInput(ctx, orderInput);
      // "Try again" of an order whose money has moved since (paid on another device): its receipt,
      // never a second order of the same cart that could be paid too.
      const retried = input.retryOf
        ? await orderReceipt(ctx.db, input.retryOf, { mailServer: Boolean(ctx.config.smtpUrl) })
        : undefined;
      if (retried && moneyMoved.has(retried.status)) {
        ctx.body = { order: retried.order, checkoutUrl: null, receipt: retried };
        return;
      }
      const placed = await placeOrder(ctx.db, ctx.config, input, clientBucket(ctx, ctx.config));
      ctx.status = 201;
      ctx.body = { order: placed.token, checkoutUrl: placed.checkoutUrl };
    },
  },
  {
    method: 'GET',
    path: '/api/orders',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, staffOrders(ctx.db), staffOrderList),
  },
  // Registered before /api/orders/:token, which would otherwise take "verify" for a token.
  {
    // The success page's call: the session id Stripe put into the return address must be this order's.
    // Public and unauthenticated, so limited per client address and per order (verify-throttle.ts).
    method: 'GET',
    path: '/api/orders/verify',
    access: 'public',
    handler: async (ctx) => {
      limitVerifyCalls(ctx);
      const wait = waitSeconds(ctx);
      const order = await orderOfToken(ctx, ctx.query.order);
      const sessionId = ctx.query.session_id;
      if (!isSessionOf(order, sessionId)) throw invalidConfirmation();
      const verified = await verifyWithStripe(ctx.db, ctx.config, order, sessionId);
      // Stripe has the money and its booking did not land: said at once, without waiting, so the
      // customer can show the vendor that much while the webhook or the job books it.
      const receipt = await receiptAfterWait(ctx, verified.order.token, verified.charged ? 0 : wait);
      ctx.body = verified.charged && receipt.status === 'pending' ? { ...receipt, charged: true } : receipt;
    },
  },
  {
    method: 'GET',
    path: '/api/orders/:token',
    access: 'public',
    handler: async (ctx) => {
      ctx.body = await receiptAfterWait(ctx, pathParam(ctx, 'token'), waitSeconds(ctx));
    },
  },
  {
    method: 'POST',
    path: '/api/orders/:id/reconcile',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = idParam(ctx.params.id, 'order');
      const order = await findOrder(ctx.db, id);
      if (!order) throw new HttpError(404, tr('There is no order with the id {id}.', { id }));
      if (!order.stripe_session_id)
        throw new HttpError(409, 'This order never reached Stripe, so there is nothing to ask about.');
      try {
        await settleOrder(ctx.db, ctx.config, id);
      } catch (error) {
        if (!(error instanceof StripeFailure)) throw error;
        throw new HttpError(502, 'Stripe could not be asked right now. Please try again later.');
      }
      ctx.body = staffOrderToApi(await staffOrders(ctx.db).where('o.id', id).first<StaffOrderRow>());
    },
  },
  {
    // No `protocol` spec: that would run the handler in a transaction, and Stripe is never called in
    // one. The protocol records the request; the booking records `payment.refunded` itself.
    method: 'POST',
    path: '/api/orders/:id/refund',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = idParam(ctx.params.id, 'order');
      await refundOrder(ctx.db, ctx.config, id, staffName(ctx));
      ctx.body = staffOrderToApi(await staffOrders(ctx.db).where('o.id', id).first<StaffOrderRow>());
    },
  },
  {
    // Pending and failed refunds included: staff see what Stripe is still doing with the money.
    method: 'GET',
    path: '/api/orders/:id/refunds',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = idParam(ctx.params.id, 'order');
      if (!(await findOrder(ctx.db, id))) throw new HttpError(404, tr('There is no order with the id {id}.', { id }));
      ctx.body = await orderRefunds(ctx.db, id);
    },
  },
  {
    // Chargebacks: the orders needing attention, undecided first.
    method: 'GET',
    path: '/api/disputes',
    access: 'backoffice',
    handler: async (ctx) => {
      const disputes = await staffDisputes(ctx.db);
      ctx.set('Content-Range', `disputes 0-${Math.max(disputes.length - 1, 0)}/${disputes.length}`);
      ctx.body = disputes;
    },
  },
  {
    method: 'POST',
    path: '/api/disputes/:id/decision',
    access: 'backoffice',
    body: 'json',
    input: disputeDecision,
    handler: async (ctx) => {
      const { bearer } = readInput(ctx, disputeDecision);
      const id = pathParam(ctx, 'id');
      if (!/^dp_[A-Za-z0-9_]{1,100}$/.test(id)) throw new HttpError(404, 'There is no such dispute.');
      await decideDispute(ctx.db, id, bearer, staffName(ctx));
      ctx.body = (await staffDisputes(ctx.db)).find((d) => d.id === id);
    },
  },
];
