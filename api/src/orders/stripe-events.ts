import type { Knex } from 'knex';
import { hotRows } from '../db/connection.ts';
import type { Config } from '../foundations/config.ts';
import { applyDispute, applyEarlyFraudWarning, applyRefund } from './lifecycle.ts';
import { orderOfPayment, settleOrder } from './settle.ts';
import { applyPayout } from '../stripe-balance/bank-transfers.ts';
import {
  chargeRefunds,
  retrieveDispute,
  retrieveEarlyFraudWarning,
  retrievePayout,
  retrieveRefund,
  type Stripe,
} from '../stripe/adapter.ts';
import {
  disputeEvents,
  fraudWarningEvents,
  handledEvents,
  payoutEvents,
  refundEvents,
  sessionEvents as sessionEventTypes,
} from '../stripe/events.ts';

// Stripe's events only say "look again": the settle step asks Stripe for the session's current
// state, so a stale, repeated or out-of-order event can never book anything wrong. An event about a
// payment whose order is not settled yet settles it first (orderOfPayment) or, when Stripe does not
// report the payment made yet, stays unprocessed with a 5xx, so that Stripe delivers it again.

const sessionEvents = new Set<string>(sessionEventTypes);
const handled = new Set<string>(handledEvents);

const refundEventSet = new Set<string>(refundEvents);
const disputeEventSet = new Set<string>(disputeEvents);
const fraudWarningEventSet = new Set<string>(fraudWarningEvents);
const payoutEventSet = new Set<string>(payoutEvents);

/** Stripe's ids: a prefix such as `pi_`, then letters and digits. */
const stripeId = /^[a-z]+_[A-Za-z0-9_]+$/;

/** The order a session was opened for, from the metadata we gave Stripe; undefined for foreign sessions. */
function orderOfSession(session: Stripe.Checkout.Session): number | undefined {
  const id = Number(session.metadata?.order ?? session.client_reference_id);
  // Another shop on the same Stripe account may number its orders beyond our integer ids: not ours either.
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : undefined;
}

async function processEvent(db: Knex, config: Config, event: Stripe.Event): Promise<void> {
  // Only what the endpoint is subscribed to (events.ts); anything else is recorded and left alone.
  if (!handled.has(event.type)) return;
  if (sessionEvents.has(event.type)) {
    const session = event.data.object as Stripe.Checkout.Session;
    const orderId = orderOfSession(session);
    if (orderId !== undefined) await settleOrder(db, config, orderId, session.id);
  } else if (event.type === 'charge.updated') {
    // A fee that was unknown when the order was paid; an order not settled yet is settled, fee included.
    const charge = event.data.object;
    const order = await orderOfPayment(db, config, charge.payment_intent);
    if (order !== undefined) await settleOrder(db, config, order);
  } else if (refundEventSet.has(event.type)) {
    const refund = event.data.object as Stripe.Refund;
    if (stripeId.test(refund.id)) await applyRefund(db, config, await retrieveRefund(db, config, refund.id));
  } else if (event.type === 'charge.refunded') {
    // A refund made in Stripe's Dashboard: the charge names no refund, so all of its refunds are read.
    const charge = event.data.object;
    if (stripeId.test(charge.id)) {
      for (const refund of await chargeRefunds(db, config, charge.id)) await applyRefund(db, config, refund);
    }
  } else if (disputeEventSet.has(event.type)) {
    const dispute = event.data.object as Stripe.Dispute;
    if (stripeId.test(dispute.id)) await applyDispute(db, config, await retrieveDispute(db, config, dispute.id));
  } else if (fraudWarningEventSet.has(event.type)) {
    const warning = event.data.object as Stripe.Radar.EarlyFraudWarning;
    if (stripeId.test(warning.id))
      await applyEarlyFraudWarning(db, config, await retrieveEarlyFraudWarning(db, config, warning.id));
  } else if (payoutEventSet.has(event.type)) {
    const payout = event.data.object as Stripe.Payout;
    if (stripeId.test(payout.id)) await applyPayout(db, config, await retrievePayout(db, config, payout.id));
  }
}

/** A half of a surrogate pair without its other half. */
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const wellFormed = (text: string) => text.replace(loneSurrogate, '\ufffd').replaceAll('\u0000', '\ufffd');

function storable(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [wellFormed(key), storable(entry)]));
  return value;
}

/**
 * The event as jsonb can store it: jsonb refuses NUL and half surrogate pairs, which a customer's
 * text in an event may carry; each is kept as U+FFFD (in keys too), so the event is still recorded and processed.
 */
export function storablePayload(event: Stripe.Event): string {
  const json = JSON.stringify(event);
  // JSON.stringify writes NUL and every half surrogate pair as an escape (\u0000, \udxxx): without
  // one (the usual event) the text is storable as it is, and the walk through the event is saved.
  return /\\u(0000|d[89a-f])/i.test(json) ? JSON.stringify(storable(event)) : json;
}

/**
 * Handles a verified event once: an event already processed is a no-op; a failure leaves it
 * unprocessed and rethrows, so the answer is a 5xx and Stripe delivers it again.
 */
export async function handleStripeEvent(
  db: Knex,
  config: Config,
  event: Stripe.Event,
): Promise<'processed' | 'duplicate'> {
  // Stored, or found stored by an earlier delivery, in one statement.
  const rows = await hotRows<{ processed_at: Date | null }>(
    db,
    `with stored as (
       insert into stripe_events (id, type, payload) values (?, ?, ?) on conflict (id) do nothing returning processed_at
     )
     select processed_at from stored union all select processed_at from stripe_events where id = ?`,
    [event.id, event.type, storablePayload(event), event.id],
  );
  if (rows.some((row) => row.processed_at)) return 'duplicate';
  try {
    await processEvent(db, config, event);
  } catch (error) {
    await db('stripe_events')
      .where({ id: event.id })
      .update({
        attempts: db.raw('attempts + 1'),
        last_error: String((error as Error)?.message ?? error).slice(0, 1000),
      });
    throw error;
  }
  await hotRows(
    db,
    'update stripe_events set attempts = attempts + 1, processed_at = now(), last_error = null where id = ?',
    [event.id],
  );
  return 'processed';
}
