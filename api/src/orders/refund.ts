import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { conflictError, notFoundError, serviceError } from '../errors.ts';
import { assertRefundable } from '../ledger/refund.ts';
import { idempotencyKey, refundPayment, StripeFailure, type Stripe } from '../stripe/adapter.ts';
import { applyRefund } from './lifecycle.ts';
import { findOrder, type OrderRow } from './queries.ts';
import { tr } from '../language/messages.ts';

/**
 * Asks Stripe to refund what is left of the payment (Stripe refunds all that is not refunded yet when
 * no amount is named). The key makes a repeated or concurrent call get the same refund; after a
 * refund that failed, the next attempt is a new one (its count is in the key).
 */
async function refundAtStripe(db: Knex, config: Config, order: OrderRow, staff: string): Promise<Stripe.Refund> {
  const failed = await db('stripe_refunds')
    .where({ order_id: order.id })
    .whereIn('status', ['failed', 'canceled'])
    .count<{ failed: string | number }[]>({ failed: '*' });
  try {
    return await refundPayment(
      db,
      config,
      { payment_intent: order.stripe_payment_intent_id!, metadata: { order: String(order.id), requested_by: staff } },
      idempotencyKey(order, `refund-${Number(failed[0]?.failed ?? 0) + 1}`),
    );
  } catch (error) {
    if (error instanceof StripeFailure && error.reason === 'refused') {
      throw conflictError(tr('Stripe refused the refund: {reason}', { reason: error.message }));
    }
    if (error instanceof StripeFailure) {
      throw serviceError('Stripe could not be reached for the refund. Nothing was booked; please try again later.');
    }
    throw error;
  }
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
  // An inquiry closed without a chargeback leaves the payment refundable; any other dispute decides.
  const disputed = await db('stripe_disputes')
    .where({ order_id: orderId })
    .whereNot({ status: 'warning_closed' })
    .first<{ id: string } | undefined>('id');
  assertRefundable(order, disputed !== undefined);
  await applyRefund(db, config, await refundAtStripe(db, config, order, staff), staff);
}
