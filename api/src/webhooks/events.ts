// The Stripe events the shop handles, in one place: the webhook handler acts on exactly these, and
// `npm run stripe-setup` subscribes the webhook endpoint to exactly these. A new kind of event is
// added here, then handled in stripe.ts, then `npm run stripe-setup` is run again.

/** Events of a Checkout Session: each makes the settle step ask Stripe for the session's state. */
export const sessionEvents = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const;

/** Every event the webhook handler acts on. */
export const handledEvents = [...sessionEvents, 'charge.updated'] as const;

export type HandledEvent = (typeof handledEvents)[number];
