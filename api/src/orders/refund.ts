import type { Knex } from 'knex';
import { recordEvent } from '../audit/record.ts';
import type { Config } from '../config.ts';
import { conflict, HttpError, notFound } from '../http/errors.ts';
import { bookRefund } from '../ledger/refund.ts';
import { Stripe, stripeClient } from '../stripe/adapter.ts';
import { findOrder, type OrderRow } from './queries.ts';

const notRefundable = (order: OrderRow) => conflict(`Only a paid order can be refunded; this one is ${order.status}.`);

/** Asks Stripe to refund the whole payment; the key makes a repeated or concurrent call get the same refund. */
async function refundAtStripe(db: Knex, config: Config, order: OrderRow): Promise<Stripe.Refund> {
  try {
    return await stripeClient(db, config).refunds.create(
      { payment_intent: order.stripe_payment_intent_id!, metadata: { order: String(order.id) } },
      { idempotencyKey: `order-${order.id}-refund` },
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      throw conflict(`Stripe refused the refund: ${error.message}`);
    }
    if (error instanceof Stripe.errors.StripeError) {
      throw new HttpError(502, 'Stripe could not be reached for the refund. Nothing was booked; please try again later.');
    }
    throw error;
  }
}

/**
 * Refunds a paid order: first at Stripe (outside any transaction: a slow Stripe must not hold a
 * connection or a lock), then the reverse of its sales in the books, once, under the order's lock.
 * Calling it again for a refunded order does nothing.
 */
export async function refundOrder(db: Knex, config: Config, orderId: number, staff: string): Promise<void> {
  const order = await findOrder(db, orderId);
  if (!order) throw notFound(`There is no order with the id ${orderId}.`);
  if (order.status === 'refunded') return;
  if (order.status !== 'paid' || !order.stripe_payment_intent_id) throw notRefundable(order);
  const refund = await refundAtStripe(db, config, order);
  await db.transaction(async (trx) => {
    const locked = (await trx('orders').where({ id: orderId }).forUpdate().first()) as OrderRow;
    // A concurrent call got here first with the same refund.
    if (locked.status === 'refunded') return;
    if (locked.status !== 'paid') throw notRefundable(locked);
    await bookRefund(trx, orderId, staff);
    await trx('orders').where({ id: orderId }).update({
      status: 'refunded',
      stripe_refund_id: refund.id,
      refunded_at: trx.fn.now(),
      refunded_by: staff,
      updated_at: trx.fn.now(),
    });
    await recordEvent(trx, {
      action: 'payment.refunded',
      actor: staff,
      recordType: 'order',
      recordId: orderId,
      details: { amount: refund.amount, currency: refund.currency, refund: refund.id },
    });
  });
}
