// The records as the API answers them, and the event types the form offers (api/src/events/types.ts).

export const eventTypes = [
  'order.paid',
  'order.refunded',
  'payout.created',
  'payout.reversed',
  'counter.sale',
  'counter.day_closed',
] as const;

/** The message key of an event type's name. */
export const eventTypeLabel = (type: string) => `app.webhooks.type_${type.replace('.', '_')}`;

export interface EndpointRecord {
  id: number;
  url: string;
  description: string;
  eventTypes: string[];
  active: boolean;
  secretSetAt: string;
  pending: number;
  failed: number;
  createdAt: string;
  /** Only in the answer that made the endpoint or rotated its secret. */
  secret?: string;
}

export interface DeliveryRecord {
  id: number;
  eventId: string;
  eventType: string;
  endpointId: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}
