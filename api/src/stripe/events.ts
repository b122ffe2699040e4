// The Stripe events the shop handles, in one place: the webhook handler acts on exactly these, and
// `npm run stripe-setup` subscribes the webhook endpoint to exactly these. A new kind of event is
// added here, then handled in orders/stripe-events.ts, then `npm run stripe-setup` is run again.

/** Events of a Checkout Session: each makes the settle step ask Stripe for the session's state. */
export const sessionEvents = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const;

/** A refund's state changed (ours or one made in Stripe's Dashboard): the refund is read again. */
export const refundEvents = ['refund.created', 'refund.updated', 'refund.failed'] as const;

/** A chargeback's state changed: the dispute is read again. */
export const disputeEvents = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
] as const;

/** Radar's early fraud warning on a payment: the order is flagged for staff with a refund action. */
export const fraudWarningEvents = ['radar.early_fraud_warning.created', 'radar.early_fraud_warning.updated'] as const;

/**
 * A payout to the bank was paid, failed or was cancelled: the payout is read again and booked
 * (https://docs.stripe.com/api/payouts/object: a payout may show as paid and fail later).
 */
export const payoutEvents = ['payout.paid', 'payout.failed', 'payout.canceled'] as const;

/** Every event the webhook handler acts on. */
export const handledEvents = [
  ...sessionEvents,
  'charge.updated',
  'charge.refunded',
  ...refundEvents,
  ...disputeEvents,
  ...fraudWarningEvents,
  ...payoutEvents,
] as const;

export type HandledEvent = (typeof handledEvents)[number];
