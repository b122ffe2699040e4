import type { Knex } from 'knex';
import { recordEvent } from '../protocol/record.ts';
import { oneRow } from '../foundations/one-row.ts';
import { notFoundError } from '../foundations/errors.ts';
import { bookDisputeState, decideDisputeBearer } from '../ledger/dispute.ts';
import type { Bearer } from '../ledger/kinds.ts';
import { emitOrderRefunded } from '../webhooks-out/emit.ts';
import { bookStripeRefund, statusAfterRefunds } from '../ledger/refund.ts';
import type { Config } from '../foundations/config.ts';
import type { Stripe } from '../stripe/adapter.ts';
import { lockOrder, type DisputeRow } from './queries.ts';
import { orderOfPayment } from './settle.ts';
import { tr } from '../language/messages.ts';

// What happens to a paid order at Stripe afterwards: refunds (ours or made in Stripe's Dashboard),
// disputes and Radar's early fraud warnings. Each is applied from Stripe's current state of the
// object, under the order's lock, and keyed by Stripe's id, so an event delivered twice, late or out
// of order books exactly once. An event about a payment whose order is not settled yet settles it
// first (settle.ts, orderOfPayment), so none is lost for arriving before `checkout.session.completed`.

/** Who is named for a refund nobody of ours asked for. */
export const dashboardRefunder = 'Stripe Dashboard';

/**
 * Records a refund with its status, and brings the books in line with it (ledger/refund.ts): a refund
 * that succeeded is booked once, by its amount (a part, or all that is left); one that failed or was
 * cancelled after it was booked is given back. The order is refunded once all of it is, and paid
 * again when a refund that made it so fails. Pending refunds are only shown.
 */
export async function applyRefund(db: Knex, config: Config, refund: Stripe.Refund, staff?: string): Promise<void> {
  const orderId = await orderOfPayment(db, config, refund.payment_intent);
  if (orderId === undefined) return;
  await db.transaction(async (trx) => {
    const order = await lockOrder(trx, orderId);
    const requestedBy = staff ?? refund.metadata?.requested_by ?? null;
    const [stored] = await trx('stripe_refunds')
      .insert({
        id: refund.id,
        order_id: orderId,
        amount: refund.amount,
        status: refund.status,
        failure_reason: refund.failure_reason ?? null,
        requested_by: requestedBy,
      })
      .onConflict('id')
      .merge({
        status: refund.status,
        failure_reason: refund.failure_reason ?? null,
        requested_by: trx.raw('coalesce(stripe_refunds.requested_by, excluded.requested_by)'),
        updated_at: trx.fn.now(),
      })
      .returning<{ booked_amount: number }[]>('booked_amount');
    const by = requestedBy ?? dashboardRefunder;
    const change = await bookStripeRefund(trx, order, refund, stored?.booked_amount ?? 0, by);
    if (change === 0) return;
    await trx('stripe_refunds')
      .where({ id: refund.id })
      .update({ booked_amount: change > 0 ? change : 0, booked_at: change > 0 ? trx.fn.now() : null });
    const amountRefunded = order.amount_refunded + change;
    const status = statusAfterRefunds(order, amountRefunded);
    await trx('orders')
      .where({ id: orderId })
      .update({
        status,
        amount_refunded: amountRefunded,
        ...(status === 'refunded'
          ? { stripe_refund_id: refund.id, refunded_at: trx.fn.now(), refunded_by: by }
          : { stripe_refund_id: null, refunded_at: null, refunded_by: null }),
        updated_at: trx.fn.now(),
      });
    if (change > 0) {
      await emitOrderRefunded(trx, { orderId, refundId: refund.id, amount: change, currency: refund.currency });
      await recordEvent(trx, {
        action: 'payment.refunded',
        actor: by,
        recordType: 'order',
        recordId: orderId,
        details: { amount: change, currency: refund.currency, refund: refund.id, refundedInAll: amountRefunded },
      });
    } else {
      await recordEvent(trx, {
        action: 'payment.refund_failed',
        recordType: 'order',
        recordId: orderId,
        details: { amount: -change, refund: refund.id, status: refund.status, reason: refund.failure_reason ?? null },
      });
    }
  });
}

/**
 * Records a dispute (a charge may have several) and books every balance transaction of it that the
 * books do not hold yet (ledger/dispute.ts): the money taken and its fees, the money and fees returned.
 */
export async function applyDispute(db: Knex, config: Config, dispute: Stripe.Dispute): Promise<void> {
  const orderId = await orderOfPayment(db, config, dispute.payment_intent);
  if (orderId === undefined) return;
  await db.transaction(async (trx) => {
    const order = await lockOrder(trx, orderId);
    const due = dispute.evidence_details?.due_by ? new Date(dispute.evidence_details.due_by * 1000) : null;
    await trx('stripe_disputes')
      .insert({
        id: dispute.id,
        order_id: orderId,
        amount: dispute.amount,
        reason: dispute.reason,
        status: dispute.status,
        evidence_due_by: due,
      })
      .onConflict('id')
      .merge({ status: dispute.status, evidence_due_by: due, updated_at: trx.fn.now() });
    const row = oneRow(await trx('stripe_disputes').where({ id: dispute.id }).select<DisputeRow[]>('*'));
    const booked = await bookDisputeState(trx, order, row, {
      balanceTransactions: dispute.balance_transactions.map((bt) => ({ id: bt.id, amount: bt.amount, fee: bt.fee })),
    });
    if (booked.withdrawal) {
      await trx('stripe_disputes').where({ id: dispute.id }).update({ withdrawn_at: trx.fn.now() });
      await recordEvent(trx, {
        action: 'payment.disputed',
        recordType: 'order',
        recordId: orderId,
        details: {
          amount: row.amount,
          fee: booked.withdrawal.fee,
          reason: dispute.reason,
          dispute: dispute.id,
          evidenceDueBy: due?.toISOString() ?? null,
        },
      });
    }
    if (booked.won) {
      await trx('stripe_disputes').where({ id: dispute.id }).update({ reinstated_at: trx.fn.now() });
      await recordEvent(trx, {
        action: 'payment.dispute_won',
        recordType: 'order',
        recordId: orderId,
        details: { amount: row.amount, dispute: dispute.id },
      });
    }
  });
}

/**
 * Radar's early fraud warning on a payment of ours: the order is flagged for staff with its fraud type,
 * so they can refund it before the card's bank opens a dispute (which costs Stripe's dispute fee).
 */
export async function applyEarlyFraudWarning(
  db: Knex,
  config: Config,
  warning: Stripe.Radar.EarlyFraudWarning,
): Promise<void> {
  const orderId = await orderOfPayment(db, config, warning.payment_intent);
  if (orderId === undefined) return;
  await db.transaction(async (trx) => {
    const order = await lockOrder(trx, orderId);
    if (order.fraud_warning === warning.fraud_type) return;
    await trx('orders').where({ id: orderId }).update({ fraud_warning: warning.fraud_type, updated_at: trx.fn.now() });
    await recordEvent(trx, {
      action: 'payment.fraud_warning',
      recordType: 'order',
      recordId: orderId,
      details: { warning: warning.id, fraudType: warning.fraud_type, actionable: warning.actionable },
    });
  });
}

export type { Bearer };

/**
 * Staff decide who bears a dispute's money: the vendor's credit, or the newspaper (the ledger's rule,
 * ledger/dispute.ts). Once; protocolled.
 */
export async function decideDispute(db: Knex, disputeId: string, bearer: Bearer, staff: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('stripe_disputes').where({ id: disputeId }).forUpdate().first<DisputeRow | undefined>();
    if (!row) throw notFoundError(tr('There is no dispute {id}.', { id: disputeId }));
    const order = await lockOrder(trx, row.order_id);
    const vendorAmount = await decideDisputeBearer(trx, order, row, bearer, staff);
    if (vendorAmount === null) return;
    await trx('stripe_disputes').where({ id: disputeId }).update({
      bearer,
      vendor_amount: vendorAmount,
      decided_by: staff,
      decided_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    });
    await recordEvent(trx, {
      action: 'dispute.decided',
      actor: staff,
      recordType: 'order',
      recordId: row.order_id,
      details: { dispute: disputeId, bearer, amount: row.amount, vendorAmount },
    });
  });
}
