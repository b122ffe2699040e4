import { notFound } from '../http/errors.ts';
import { respondList } from '../http/list-query.ts';
import { tr } from '../language/messages.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { idParam, readInput } from '../http/validate.ts';
import { rejectFields } from '../foundations/errors.ts';
import { endpointAddressProblem } from './address.ts';
import {
  createEndpoint,
  deliveriesBase,
  deliveryList,
  endpointList,
  endpointsBase,
  findDelivery,
  findEndpoint,
  resendDelivery,
  rotateSecret,
  updateEndpoint,
} from './queries.ts';
import { endpointChange, endpointInput } from './schema.ts';

// Outbound webhooks as staff manage them: the endpoints other systems listen at, and what was sent
// to each. The secret appears in exactly two answers (creation, rotation) and nowhere else.

const endpointId = (ctx: AppContext) => idParam(ctx.params.id, 'endpoint');
const deliveryId = (ctx: AppContext) => idParam(ctx.params.id, 'delivery');

/** The protocol keeps an endpoint as the list shows it: its secret's date, never the secret. */
const endpointProtocol = (action?: string): ProtocolSpec => ({
  recordType: 'webhook_endpoint',
  ...(action ? { action, id: endpointId } : {}),
  load: (ctx, id) => findEndpoint(ctx.db, Number(id)),
});

async function checkUrl(ctx: AppContext, url: string | undefined): Promise<void> {
  const problem = url === undefined ? undefined : await endpointAddressProblem(url, ctx.config.publicUrl);
  if (problem) rejectFields({ url: problem });
}

async function requireEndpoint(ctx: AppContext, id: number) {
  const endpoint = await findEndpoint(ctx.db, id);
  if (!endpoint) throw notFound(tr('There is no webhook endpoint with the id {id}.', { id }));
  return endpoint;
}

export const eventRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/webhook-endpoints',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, endpointsBase(ctx.db), endpointList),
  },
  {
    method: 'GET',
    path: '/api/webhook-endpoints/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await requireEndpoint(ctx, endpointId(ctx));
    },
  },
  {
    method: 'POST',
    path: '/api/webhook-endpoints',
    access: 'backoffice',
    body: 'json',
    input: endpointInput,
    protocol: endpointProtocol(),
    handler: async (ctx) => {
      const input = readInput(ctx, endpointInput);
      await checkUrl(ctx, input.url);
      const { id, secret } = await createEndpoint(ctx.db, input);
      ctx.status = 201;
      ctx.body = { ...(await requireEndpoint(ctx, id)), secret };
    },
  },
  {
    method: 'PUT',
    path: '/api/webhook-endpoints/:id',
    access: 'backoffice',
    body: 'json',
    input: endpointChange,
    protocol: { ...endpointProtocol(), id: endpointId },
    handler: async (ctx) => {
      const id = endpointId(ctx);
      const input = readInput(ctx, endpointChange);
      await checkUrl(ctx, input.url);
      await requireEndpoint(ctx, id);
      await updateEndpoint(ctx.db, id, input);
      ctx.body = await requireEndpoint(ctx, id);
    },
  },
  {
    // The old secret stops signing at once: the receiver must be given the new one.
    method: 'POST',
    path: '/api/webhook-endpoints/:id/secret',
    access: 'backoffice',
    protocol: endpointProtocol('rotate-secret'),
    handler: async (ctx) => {
      const id = endpointId(ctx);
      const secret = await rotateSecret(ctx.db, id);
      if (!secret) throw notFound(tr('There is no webhook endpoint with the id {id}.', { id }));
      ctx.body = { ...(await requireEndpoint(ctx, id)), secret };
    },
  },
  {
    method: 'GET',
    path: '/api/webhook-deliveries',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, deliveriesBase(ctx.db), deliveryList),
  },
  {
    method: 'GET',
    path: '/api/webhook-deliveries/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = deliveryId(ctx);
      const delivery = await findDelivery(ctx.db, id);
      if (!delivery) throw notFound(tr('There is no webhook delivery with the id {id}.', { id }));
      ctx.body = delivery;
    },
  },
  {
    method: 'POST',
    path: '/api/webhook-deliveries/:id/resend',
    access: 'backoffice',
    protocol: {
      recordType: 'webhook_delivery',
      action: 'resend',
      id: deliveryId,
      load: (ctx, id) => findDelivery(ctx.db, Number(id)),
    },
    handler: async (ctx) => {
      const id = deliveryId(ctx);
      if (!(await resendDelivery(ctx.db, id)))
        throw notFound(tr('There is no webhook delivery with the id {id}.', { id }));
      ctx.body = await findDelivery(ctx.db, id);
    },
  },
];
