import type { Knex } from 'knex';
import { protocolInsert, recordEvent, systemEntry } from '../protocol/record.ts';
import type { Config } from '../foundations/config.ts';
import { conflictError, notFoundError } from '../foundations/errors.ts';
import { hotRows } from '../db/connection.ts';
import { eventStored, orderPaidEvent } from '../webhooks-out/emit.ts';
import { bookFee, bookOrder, takesFee } from '../ledger/book.ts';
import { VendorDeleted } from '../ledger/errors.ts';
import { kickOutbox } from '../mail/outbox.ts';
import { oneRow } from '../foundations/one-row.ts';
import {
  matchesKeyMode,
  paymentIntentId,
  retrievePaymentIntent,
  retrieveSession,
  sessionFee,
  StripeFailure,
  type Stripe,
} from '../stripe/adapter.ts';
import { orderChanged } from './changes.ts';
import { deliverOrder, mailReceipt } from './deliveries.ts';
import { findOrder, lockOrder, orderColumns, type OrderRow } from './queries.ts';

// The one way an order becomes paid. The webhook, the success page's verify call and the
// reconciliation job all end here; Stripe's answer about the session is the truth, never the
// caller's word. The order row is locked while it changes, so concurrent calls queue and the
// later ones find nothing left to do.

export const invalidConfirmation = () => notFoundError('Invalid payment confirmation');

/** An order Stripe has nothing more to tell us about. */
const isSettled = (order: OrderRow) => order.status === 'flagged' || (takesFee(order) && order.fee !== null);

/** Statuses from which a payment Stripe reports as made is booked (a late payment of an expired order included). */
const payable = new Set<OrderRow['status']>(['pending', 'expired', 'failed']);

/** Payment intent states after which an asynchronous payment has failed for good. */
const failedIntent = new Set(['requires_payment_method', 'canceled']);

/**
 * Asks Stripe about the order's Checkout Session and brings the order in line with it: paid (all
 * rows booked, deliveries queued), fee booked once known, expired or failed. Idempotent. A session
 * id is needed only while the order has none stored (a webhook faster than the order's creation).
 */
export async function settleOrder(
  db: Knex,
  config: Config,
  orderId: number,
  sessionId?: string,
): Promise<OrderRow | undefined> {
  const order = await findOrder(db, orderId);
  if (!order) return undefined;
  const id = order.stripe_session_id ?? sessionId;
  if (!id || isSettled(order)) return order;
  return applySession(db, config, orderId, await retrieveSession(db, config, id));
}

/**
 * A payment of ours that Stripe does not report paid yet: an event about it (a refund, a dispute, a
 * fraud warning) is left unprocessed, so that Stripe delivers it again, instead of counting as done.
 */
export class PaymentNotSettled extends Error {
  constructor(readonly intent: string) {
    super(`The payment ${intent} of an order is not settled yet.`);
    this.name = 'PaymentNotSettled';
  }
}

/**
 * Stripe's ids: a prefix such as `pi_`, then letters and digits, at most 255 characters in all (the
 * length Stripe gives its object ids); a longer one is no payment of ours and is not asked about.
 */
const stripeId = /^(?=.{4,255}$)[a-z]+_[A-Za-z0-9_]+$/;

/** An order id as we write it into Stripe's metadata; undefined for anything else (another shop's numbering). */
function orderOfMetadata(metadata: Stripe.Metadata | null | undefined): number | undefined {
  const id = Number(metadata?.order);
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : undefined;
}

/**
 * The order a payment intent paid, for an event about the payment (a refund, a dispute, a fraud
 * warning, a fee). Stripe does not deliver events in the order they happened, and asks to fetch
 * what is missing from the API (https://docs.stripe.com/webhooks#event-ordering): when the order
 * is not settled yet (its `checkout.session.completed` is still on its way), the intent's metadata
 * names the order, and its session (which must name this intent) settles it first. Undefined for
 * a payment that is not ours; PaymentNotSettled when it is ours but Stripe does not report it paid.
 * `payment` may be the intent itself, as a sweep lists it expanded.
 */
export async function orderOfPayment(
  db: Knex,
  config: Config,
  payment: string | Stripe.PaymentIntent | null | undefined,
): Promise<number | undefined> {
  const intentId = typeof payment === 'string' ? payment : payment?.id;
  // Only an id as Stripe writes them is looked up; anything else (a NUL, which PostgreSQL's text
  // refuses) names no payment of ours.
  if (!intentId || !stripeId.test(intentId)) return undefined;
  const known = await db('orders')
    .where({ stripe_payment_intent_id: intentId })
    .first<{ id: number } | undefined>('id');
  if (known) return known.id;
  const intent = typeof payment === 'string' ? await intentOrNone(db, config, intentId) : payment;
  if (!intent) return undefined;
  const orderId = orderOfMetadata(intent.metadata);
  const order = orderId === undefined ? undefined : await findOrder(db, orderId);
  // Paid with another intent, or never given a session: the metadata is another shop's.
  if (!order?.stripe_session_id || order.stripe_payment_intent_id) return undefined;
  const session = await retrieveSession(db, config, order.stripe_session_id);
  if (paymentIntentId(session) !== intentId) return undefined;
  const settled = await applySession(db, config, order.id, session);
  if (settled.stripe_payment_intent_id !== intentId) throw new PaymentNotSettled(intentId);
  return order.id;
}

/**
 * The intent as Stripe has it, or undefined when Stripe refuses to know it (no such intent at this
 * account, an id of another form): such an event is not about a payment of ours, and asking again
 * would get the same answer. Stripe not answering still leaves as StripeFailure, to be delivered again.
 */
async function intentOrNone(db: Knex, config: Config, intentId: string): Promise<Stripe.PaymentIntent | undefined> {
  try {
    return await retrievePaymentIntent(db, config, intentId);
  } catch (error) {
    if (error instanceof StripeFailure && error.reason === 'refused') return undefined;
    throw error;
  }
}

/**
 * Applies what Stripe says about a session to its order, in one transaction. Refuses a session that
 * belongs to another order (the metadata Stripe keeps for us names it).
 */
export async function applySession(
  db: Knex,
  config: Config,
  orderId: number,
  session: Stripe.Checkout.Session,
): Promise<OrderRow> {
  if (session.metadata?.order !== String(orderId)) throw invalidConfirmation();
  // A test payment never pays an order of a live shop (nor the reverse).
  if (!matchesKeyMode(config, session))
    throw conflictError(
      'Stripe reported this payment in the other mode (test or live) than the shop’s key; nothing was booked.',
    );
  let mailQueued = false;
  const order = await db.transaction(async (trx) => {
    const order = await lockOrder(trx, orderId);
    const changes: Partial<Record<keyof OrderRow, unknown>> = {};
    const fee = sessionFee(session);
    if (session.payment_status === 'paid' && payable.has(order.status)) {
      if (session.amount_total !== order.amount_total || session.currency !== order.currency) {
        const reported = `${session.amount_total} ${session.currency}`;
        const asked = `${order.amount_total} ${order.currency}`;
        return flagOrder(trx, order, session, `Stripe reported ${reported}, the order is ${asked}.`);
      }
      let kinds: Awaited<ReturnType<typeof bookOrder>>;
      try {
        // The fee too, when Stripe already knows it: one booking instead of two.
        kinds = await bookOrder(trx, order, order.fee === null ? fee : null);
      } catch (error) {
        if (!(error instanceof VendorDeleted)) throw error;
        const reason = 'The vendor was deleted before the payment arrived; nothing was booked.';
        return flagOrder(trx, order, session, reason);
      }
      // A digital edition always pays a licence share (orderEntryRows) and gets its PDF mail; an order
      // without one gets its receipt by e-mail when the customer gave an address.
      mailQueued = kinds.includes('licence')
        ? await deliverOrder(trx, order.id, config)
        : await mailReceipt(trx, order.id, config);
      return markPaid(trx, order, session, fee);
    }
    if (order.status === 'pending' && session.status === 'expired') {
      changes.status = 'expired';
    } else if (order.status === 'pending' && session.status === 'complete' && session.payment_status === 'unpaid') {
      // An asynchronous payment method (e.g. a bank debit) reported back; failed only when the intent says so.
      const intent = session.payment_intent;
      if (intent && typeof intent !== 'string' && failedIntent.has(intent.status)) changes.status = 'failed';
    }
    if (takesFee(order) && order.fee === null && fee !== null) {
      await bookFee(trx, order, fee);
      changes.fee = fee;
    }
    if (!order.stripe_session_id) changes.stripe_session_id = session.id;
    if (!Object.keys(changes).length) return order;
    return oneRow(
      await trx('orders')
        .where({ id: orderId })
        .update({ ...changes, updated_at: trx.fn.now() })
        .returning<OrderRow[]>(orderColumns),
    );
  });
  // Mails go out after the payment is committed; a failed send never touches the payment.
  if (mailQueued) kickOutbox(db, config);
  if (order.status !== 'pending') orderChanged(db, orderId, order);
  return order;
}

/**
 * Marks the locked, booked order paid, in one statement with what records it: the protocol's entry
 * and the order.paid event, which reads the paid row (its time of payment included). The fee and the
 * session are stored only where the order has none yet, as the booking took the fee.
 */
async function markPaid(
  trx: Knex.Transaction,
  order: OrderRow,
  session: Stripe.Checkout.Session,
  fee: number | null,
): Promise<OrderRow> {
  const protocol = protocolInsert(
    systemEntry({
      action: 'payment.confirmed',
      recordType: 'order',
      recordId: order.id,
      details: { amount: order.amount_total, currency: order.currency, session: session.id },
    }),
  );
  const event = orderPaidEvent('paid');
  const { deliveries, ...paid } = oneRow(
    await hotRows<OrderRow & { deliveries: number }>(
      trx,
      `with paid as (
         update orders set status = 'paid', paid_at = now(), stripe_payment_intent_id = ?, fee = coalesce(fee, ?),
           stripe_session_id = coalesce(stripe_session_id, ?), updated_at = now()
         where id = ? returning ${orderColumns.join(', ')}),
       protocol as (${protocol.sql}),
       ${event.sql}
       select paid.*, (select count(*)::int from deliveries) as deliveries from paid`,
      [paymentIntentId(session), fee, session.id, order.id, ...protocol.bindings, ...event.bindings],
    ),
  );
  eventStored(trx, deliveries);
  return paid;
}

/**
 * A payment that cannot be booked as it is (Stripe took a different amount than the order asks for,
 * or the vendor is gone): nothing is booked, staff decide.
 */
async function flagOrder(
  trx: Knex.Transaction,
  order: OrderRow,
  session: Stripe.Checkout.Session,
  reason: string,
): Promise<OrderRow> {
  const flagged = await trx('orders')
    .where({ id: order.id })
    .update({
      status: 'flagged',
      flag_reason: reason,
      stripe_session_id: session.id,
      stripe_payment_intent_id: paymentIntentId(session),
      updated_at: trx.fn.now(),
    })
    .returning<OrderRow[]>(orderColumns);
  await recordEvent(trx, {
    action: 'payment.flagged',
    recordType: 'order',
    recordId: order.id,
    details: { reason, session: session.id },
  });
  return oneRow(flagged);
}
