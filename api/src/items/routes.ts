import { formFiles } from '../http/form-body.ts';
import { respondList } from '../http/list-query.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { idParam, readInput } from '../http/validate.ts';
import { backofficeListSpec, deleteItem, findItem, itemNotFound, itemsQuery, saveItem } from './queries.ts';
import { itemCreateForm, itemFileFields, itemUpdateForm } from './schema.ts';

const itemId = (ctx: AppContext) => idParam(ctx.params.id, 'item');

const itemProtocol: ProtocolSpec = { recordType: 'item', load: (ctx, id) => findItem(ctx.db, Number(id)) };

export const itemRoutes: RouteDef[] = [
  // Registered before /api/items/:id, which would otherwise take "backoffice" for an id.
  {
    method: 'GET',
    path: '/api/items/backoffice',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, itemsQuery(ctx.db), backofficeListSpec),
  },
  {
    method: 'GET',
    path: '/api/items/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = itemId(ctx);
      const item = await findItem(ctx.db, id);
      if (!item) throw itemNotFound(id);
      ctx.body = item;
    },
  },
  {
    method: 'POST',
    path: '/api/items',
    access: 'backoffice',
    body: 'multipart',
    input: itemCreateForm,
    protocol: itemProtocol,
    handler: async (ctx) => {
      const form = readInput(ctx, itemCreateForm);
      ctx.body = await saveItem(ctx.db, undefined, form, formFiles(ctx, itemFileFields));
      ctx.status = 201;
    },
  },
  {
    method: 'PUT',
    path: '/api/items/:id',
    access: 'backoffice',
    body: 'multipart',
    input: itemUpdateForm,
    protocol: { ...itemProtocol, id: itemId },
    handler: async (ctx) => {
      const id = itemId(ctx);
      const form = readInput(ctx, itemUpdateForm);
      ctx.body = await saveItem(ctx.db, id, form, formFiles(ctx, itemFileFields));
    },
  },
  {
    method: 'DELETE',
    path: '/api/items/:id',
    access: 'backoffice',
    protocol: { ...itemProtocol, id: itemId },
    handler: async (ctx) => {
      ctx.body = await deleteItem(ctx.db, itemId(ctx));
    },
  },
];
