import { notFound } from '../../http/errors.ts';
import { respondList, type ListSpec } from '../../http/list.ts';
import type { RouteDef } from '../../http/routes.ts';
import { parse } from '../../http/validate.ts';
import { childIds, liveVendorId } from '../params.ts';
import { createLocation, deleteLocation, locationToApi, updateLocation, vendorLocations, type LocationRow } from './queries.ts';
import { locationInput, locationPatch } from './schema.ts';

const locationList: ListSpec<LocationRow, ReturnType<typeof locationToApi>> = {
  resource: 'locations',
  sortable: { id: 'id', name: 'lower(name)' },
  defaultSort: ['id', 'ASC'],
  idColumn: 'id',
  toApi: locationToApi,
};

const locationNotFound = (vendorId: number, id: number) => notFound(`Vendor ${vendorId} has no location with the id ${id}.`);

export const locationRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/vendors/:id/locations',
    access: 'backoffice',
    handler: async (ctx) => respondList(ctx, vendorLocations(ctx.db, await liveVendorId(ctx)), locationList),
  },
  {
    method: 'POST',
    path: '/api/vendors/:id/locations',
    access: 'backoffice',
    body: 'json',
    handler: async (ctx) => {
      const vendorId = await liveVendorId(ctx);
      const input = parse(locationInput, ctx.request.body);
      ctx.status = 201;
      ctx.body = locationToApi(await createLocation(ctx.db, vendorId, input));
    },
  },
  {
    method: 'PATCH',
    path: '/api/vendors/:id/locations/:locId',
    access: 'backoffice',
    body: 'json',
    handler: async (ctx) => {
      const [vendorId, id] = await childIds(ctx, 'locId', 'location');
      const input = parse(locationPatch, ctx.request.body);
      const location = await updateLocation(ctx.db, vendorId, id, input);
      if (!location) throw locationNotFound(vendorId, id);
      ctx.body = locationToApi(location);
    },
  },
  {
    method: 'DELETE',
    path: '/api/vendors/:id/locations/:locId',
    access: 'backoffice',
    handler: async (ctx) => {
      const [vendorId, id] = await childIds(ctx, 'locId', 'location');
      const location = await deleteLocation(ctx.db, vendorId, id);
      if (!location) throw locationNotFound(vendorId, id);
      ctx.body = locationToApi(location);
    },
  },
];
