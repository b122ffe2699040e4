import type { Knex } from 'knex';
import type { z } from 'zod';
import { notFound } from '../http/errors.ts';
import { respondList } from '../http/list-query.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { idParam, readInput } from '../http/validate.ts';
import { requireLiveVendor } from './queries.ts';
import { tr, languageOf } from '../language/messages.ts';
import type { ListSpec } from '../foundations/lists.ts';

type Db = Knex | Knex.Transaction;

/** The vendor of a sub-resource route (/api/vendors/:id/…); a deleted vendor has no sub-resources. */
async function liveVendorId(ctx: AppContext): Promise<number> {
  const vendorId = idParam(ctx.params.id, 'vendor');
  await requireLiveVendor(ctx.db, vendorId);
  return vendorId;
}

/** Vendor id and child id (location, comment), both checked for shape before either is looked up. */
async function childIds(ctx: AppContext, param: string, what: string): Promise<[vendorId: number, id: number]> {
  const vendorId = idParam(ctx.params.id, 'vendor');
  const id = idParam(ctx.params[param], what);
  await requireLiveVendor(ctx.db, vendorId);
  return [vendorId, id];
}

/** A resource that belongs to one vendor (locations, comments) and is managed below its address. */
export interface VendorSubResource<Row, Input, Patch> {
  /** Singular, for messages: 'location'. */
  name: string;
  /** Path segment and list resource name: 'locations'. */
  plural: string;
  /** Route parameter of the child id, as the specification names it: 'locId'. */
  param: string;
  list: ListSpec<Row, unknown>;
  input: z.ZodType<Input>;
  patch: z.ZodType<Patch>;
  query(db: Db, vendorId: number): Knex.QueryBuilder;
  create(db: Db, vendorId: number, input: Input): Promise<Row>;
  update(db: Db, vendorId: number, id: number, patch: Patch): Promise<Row | undefined>;
  remove(db: Db, vendorId: number, id: number): Promise<Row | undefined>;
}

export function vendorSubResourceRoutes<Row, Input, Patch>(r: VendorSubResource<Row, Input, Patch>): RouteDef[] {
  const base = `/api/vendors/:id/${r.plural}`;
  const one = `${base}/:${r.param}`;
  const missing = (vendorId: number, id: number) =>
    notFound(tr('Vendor {vendorId} has no {kind} with the id {id}.', { vendorId, kind: r.name, id }));
  const protocol: ProtocolSpec = {
    recordType: `vendor_${r.name}`,
    load: async (ctx, id) => {
      const row = (await r.query(ctx.db, idParam(ctx.params.id, 'vendor')).where({ id }).first()) as Row | undefined;
      return row && (r.list.toApi(row, languageOf(ctx.get('Accept-Language'))) as object);
    },
    details: (ctx) => ({ vendorId: Number(ctx.params.id) }),
  };
  const protocolOne: ProtocolSpec = { ...protocol, id: (ctx) => idParam(ctx.params[r.param], r.name) };
  return [
    {
      method: 'GET',
      path: base,
      access: 'backoffice',
      handler: async (ctx) => respondList(ctx, r.query(ctx.db, await liveVendorId(ctx)), r.list),
    },
    {
      method: 'POST',
      path: base,
      access: 'backoffice',
      body: 'json',
      input: r.input,
      protocol,
      handler: async (ctx) => {
        const vendorId = await liveVendorId(ctx);
        const input = readInput(ctx, r.input);
        ctx.status = 201;
        ctx.body = r.list.toApi(await r.create(ctx.db, vendorId, input), languageOf(ctx.get('Accept-Language')));
      },
    },
    {
      method: 'PATCH',
      path: one,
      access: 'backoffice',
      body: 'json',
      input: r.patch,
      protocol: protocolOne,
      handler: async (ctx) => {
        const [vendorId, id] = await childIds(ctx, r.param, r.name);
        const patch = readInput(ctx, r.patch);
        const row = await r.update(ctx.db, vendorId, id, patch);
        if (!row) throw missing(vendorId, id);
        ctx.body = r.list.toApi(row, languageOf(ctx.get('Accept-Language')));
      },
    },
    {
      method: 'DELETE',
      path: one,
      access: 'backoffice',
      protocol: protocolOne,
      handler: async (ctx) => {
        const [vendorId, id] = await childIds(ctx, r.param, r.name);
        const row = await r.remove(ctx.db, vendorId, id);
        if (!row) throw missing(vendorId, id);
        ctx.body = r.list.toApi(row, languageOf(ctx.get('Accept-Language')));
      },
    },
  ];
}
