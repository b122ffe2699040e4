import { vendorSubResourceRoutes } from '../subresource-routes.ts';
import { createLocation, deleteLocation, locationToApi, updateLocation, vendorLocations } from './queries.ts';
import { locationInput, locationPatch } from './schema.ts';

export const locationRoutes = vendorSubResourceRoutes({
  name: 'location',
  plural: 'locations',
  param: 'locId',
  list: {
    resource: 'locations',
    sortable: { id: 'id', name: 'lower(name)' },
    defaultSort: ['id', 'ASC'],
    idColumn: 'id',
    toApi: locationToApi,
  },
  input: locationInput,
  patch: locationPatch,
  query: vendorLocations,
  create: createLocation,
  update: updateLocation,
  remove: deleteLocation,
});
