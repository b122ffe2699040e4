import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.ts';
import { oneRow } from '../foundations/one-row.ts';
import { toIso } from '../foundations/dates.ts';
import { wakeSenderAfterCommit } from './emit.ts';
import { eventTypes } from './types.ts';
import { idFilter, type ListSpec, oneOfFilter } from '../foundations/lists.ts';

// Endpoints as staff see them (never with their secret, except once in the answer that made it)
// and the deliveries of each.

interface EndpointRow {
  id: number;
  url: string;
  description: string;
  event_types: string[];
  active: boolean;
  secret_set_at: Date;
  created_at: Date;
  updated_at: Date;
  pending: number | string;
  failed: number | string;
}

export type Endpoint = ReturnType<typeof endpointToApi>;

const endpointToApi = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.event_types,
  active: row.active,
  secretSetAt: toIso(row.secret_set_at),
  pending: Number(row.pending),
  failed: Number(row.failed),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
});

/** Every column but the secret, with the deliveries still to make and those given up. */
export const endpointsBase = (db: Db) =>
  db('webhook_endpoints as e').select(
    'e.id',
    'e.url',
    'e.description',
    'e.event_types',
    'e.active',
    'e.secret_set_at',
    'e.created_at',
    'e.updated_at',
    db.raw(
      `(select count(*) from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending') as pending`,
    ),
    db.raw(`(select count(*) from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'failed') as failed`),
  );

export const endpointList: ListSpec<EndpointRow, Endpoint> = {
  resource: 'webhook-endpoints',
  sortable: { id: 'e.id', url: 'e.url', active: 'e.active', createdAt: 'e.created_at' },
  defaultSort: ['id', 'ASC'],
  idColumn: 'e.id',
  filters: {},
  toApi: endpointToApi,
};

export async function findEndpoint(db: Db, id: number): Promise<Endpoint | undefined> {
  const row = (await endpointsBase(db).where('e.id', id).first()) as EndpointRow | undefined;
  return row && endpointToApi(row);
}

/** A new secret: 32 random bytes, prefixed so that it is recognised when pasted in the wrong place. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export interface EndpointFields {
  url: string;
  description: string;
  eventTypes: string[];
  active: boolean;
}

/** Stores an endpoint; answers its id and its secret (which is shown this once). */
export async function createEndpoint(db: Db, fields: EndpointFields): Promise<{ id: number; secret: string }> {
  const secret = newSecret();
  const inserted = await db('webhook_endpoints')
    .insert({
      url: fields.url,
      description: fields.description,
      event_types: fields.eventTypes,
      active: fields.active,
      secret,
    })
    .returning<{ id: number }[]>('id');
  return { id: oneRow(inserted).id, secret };
}

export async function updateEndpoint(db: Db, id: number, fields: Partial<EndpointFields>): Promise<void> {
  const changed = await db('webhook_endpoints')
    .where({ id })
    .update({
      ...(fields.url === undefined ? {} : { url: fields.url }),
      ...(fields.description === undefined ? {} : { description: fields.description }),
      ...(fields.eventTypes === undefined ? {} : { event_types: fields.eventTypes }),
      ...(fields.active === undefined ? {} : { active: fields.active }),
      updated_at: db.fn.now(),
    });
  // An endpoint switched on again sends what waited meanwhile.
  if (changed && fields.active) wakeSenderAfterCommit(db);
}

/** A new secret for the endpoint; the old one stops signing at once. Undefined for no such endpoint. */
export async function rotateSecret(db: Db, id: number): Promise<string | undefined> {
  const secret = newSecret();
  const changed = await db('webhook_endpoints')
    .where({ id })
    .update({ secret, secret_set_at: db.fn.now(), updated_at: db.fn.now() });
  return changed ? secret : undefined;
}

interface DeliveryRow {
  id: number | string;
  event_id: string;
  type: string;
  endpoint_id: number;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;

const deliveryToApi = (row: DeliveryRow) => ({
  id: Number(row.id),
  eventId: row.event_id,
  eventType: row.type,
  endpointId: row.endpoint_id,
  status: row.status,
  attempts: row.attempts,
  // Only a delivery still to be made has a next try.
  nextAttemptAt: row.status === 'pending' ? toIso(row.next_attempt_at) : null,
  lastAttemptAt: toIso(row.last_attempt_at),
  lastStatus: row.last_status,
  lastError: row.last_error,
  deliveredAt: toIso(row.delivered_at),
  createdAt: toIso(row.created_at),
});

export type Delivery = ReturnType<typeof deliveryToApi>;

export const deliveriesBase = (db: Db) =>
  db('webhook_deliveries as d')
    .join('webhook_events as ev', 'ev.id', 'd.event_id')
    .select(
      'd.id',
      'd.event_id',
      'ev.type',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_attempt_at',
      'd.last_status',
      'd.last_error',
      'd.delivered_at',
      'd.created_at',
    );

export const deliveryList: ListSpec<DeliveryRow, Delivery> = {
  resource: 'webhook-deliveries',
  sortable: {
    id: 'd.id',
    createdAt: 'd.created_at',
    status: 'd.status',
    attempts: 'd.attempts',
    nextAttemptAt: 'd.next_attempt_at',
    eventType: 'ev.type',
  },
  defaultSort: ['id', 'DESC'],
  idColumn: 'd.id',
  filters: {
    endpointId: idFilter('endpointId', 'd.endpoint_id', 'an endpoint id'),
    status: oneOfFilter('status', 'd.status', deliveryStatuses),
    eventType: oneOfFilter('eventType', 'ev.type', eventTypes),
  },
  toApi: deliveryToApi,
};

export async function findDelivery(db: Db, id: number): Promise<Delivery | undefined> {
  const row = (await deliveriesBase(db).where('d.id', id).first()) as DeliveryRow | undefined;
  return row && deliveryToApi(row);
}

/**
 * Sends a delivery again, whatever became of it: due at once, with a fresh run of tries. The
 * receiver gets the same event id, so one that already has it can tell. False for no such delivery.
 */
export async function resendDelivery(db: Db, id: number): Promise<boolean> {
  const changed = await db('webhook_deliveries')
    .where({ id })
    .update({ status: 'pending', attempts: 0, next_attempt_at: db.fn.now() });
  if (changed) wakeSenderAfterCommit(db);
  return changed > 0;
}
