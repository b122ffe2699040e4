// The events other systems can subscribe to, in one place: the migration's check, the endpoint
// form's choices (imported by the back office: keep this file free of Node imports) and the table
// in docs/webhooks.md follow this list. A new type is added here, then emitted
// in the transaction that books what it reports.

export const eventTypes = [
  'order.paid',
  'order.refunded',
  'payout.created',
  'payout.reversed',
  'counter.sale',
  'counter.day_closed',
] as const;

export type EventType = (typeof eventTypes)[number];
