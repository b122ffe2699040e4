import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { conflictError, notFoundError, serviceError } from '../foundations/errors.ts';
import { assertRefundable } from '../ledger/refund.ts';
import { recordEvent } from '../protocol/record.ts';
import { idempotencyKey, refundPayment, retrieveDispute, StripeFailure, type Stripe } from '../stripe/adapter.ts';
import { applyDispute, applyRefund } from './lifecycle.ts';
import { findOrder, type OrderRow } from './queries.ts';
import { tr } from '../language/messages.ts';

const unreachable = () =>
  serviceError('Stripe could not be reached for the refund. Nothing was booked; please try again later.');

/** Runs a Stripe call of the refund; Stripe out of reach is a 503 with a sentence for staff. */
async function asking<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof StripeFailure && error.reason === 'unavailable') throw unreachable();
    throw error;
  }
}

/**
 * Asks Stripe to refund what is left of the payment (Stripe refunds all that is not refunded yet when
 * no amount is named). The key makes a repeated or concurrent call get the same refund. An attempt
 * ends with a refund that failed or with Stripe's refusal, and the next attempt is a new request
 * under a new key (the count of ended attempts is in it): Stripe saves a request's answer under its
 * key, an error too, and answers every request with the key so for 24 hours
 * (https://docs.stripe.com/api/idempotent_requests), so a refusal's key would refuse again even once
 * the payment can be refunded.
 */
async function refundAtStripe(db: Knex, config: Config, order: OrderRow, staff: string): Promise<Stripe.Refund> {
  const failed = await db('stripe_refunds')
    .where({ order_id: order.id })
    .whereIn('status', ['failed', 'canceled'])
    .count<{ n: string | number }[]>({ n: '*' });
  const refused = await db('protocol_entries')
    .where({ record_type: 'order', record_id: String(order.id), action: 'payment.refund_refused' })
    .count<{ n: string | number }[]>({ n: '*' });
  const attempt = Number(failed[0]?.n ?? 0) + Number(refused[0]?.n ?? 0) + 1;
  try {
    return await refundPayment(
      db,
      config,
      { payment_intent: order.stripe_payment_intent_id!, metadata: { order: String(order.id), requested_by: staff } },
      idempotencyKey(order, `refund-${attempt}`),
    );
  } catch (error) {
    if (error instanceof StripeFailure && error.reason === 'refused') {
      // Stripe's code only: its message may quote parts of the key.
      await recordEvent(db, {
        action: 'payment.refund_refused',
        actor: staff,
        recordType: 'order',
        recordId: order.id,
        details: { reason: error.code ?? error.type },
      });
      throw conflictError(tr('Stripe refused the refund: {reason}', { reason: error.message }));
    }
    if (error instanceof StripeFailure) throw unreachable();
    throw error;
  }
}

/**
 * Whether a dispute keeps the payment from being refunded. A chargeback does (Stripe refuses with
 * `charge_disputed`; the dispute decides). An inquiry does only while Stripe says the charge is not
 * refundable: its `is_charge_refundable` ("If true, it's still possible to refund the disputed
 * payment", https://docs.stripe.com/api/disputes/object), read afresh, and the dispute brought in
 * line with it (an inquiry may have become a chargeback meanwhile).
 */
async function blocksRefund(db: Knex, config: Config, dispute: { id: string; status: string }): Promise<boolean> {
  if (!dispute.status.startsWith('warning_')) return true;
  const current = await asking(() => retrieveDispute(db, config, dispute.id));
  await asking(() => applyDispute(db, config, current));
  return !current.is_charge_refundable;
}

/**
 * Refunds what is left of a paid order: first at Stripe (outside any transaction: a slow Stripe must not hold a
 * connection or a lock), then, once Stripe says the refund succeeded, the reverse of its sales in the
 * books, once. A pending refund is booked when Stripe reports it succeeded; a failed one never.
 * Calling it again for a refunded order does nothing.
 */
export async function refundOrder(db: Knex, config: Config, orderId: number, staff: string): Promise<void> {
  const order = await findOrder(db, orderId);
  if (!order) throw notFoundError(tr('There is no order with the id {id}.', { id: orderId }));
  if (order.status === 'refunded') return;
  // An inquiry closed without a chargeback leaves the payment refundable.
  const disputes = await db('stripe_disputes')
    .where({ order_id: orderId })
    .whereNot({ status: 'warning_closed' })
    .select<{ id: string; status: string }[]>('id', 'status');
  let disputed = false;
  for (const dispute of disputes) {
    disputed = await blocksRefund(db, config, dispute);
    if (disputed) break;
  }
  assertRefundable(order, disputed);
  await applyRefund(db, config, await refundAtStripe(db, config, order, staff), staff);
}
