// The records as the API answers them. The event types the form offers are the API's own list
// (free of Node imports), so a new type reaches the form without a copy to keep in step.
export { eventTypes } from '../../../../api/src/webhooks-out/types.ts';

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
