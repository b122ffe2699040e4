import { vendorSubResourceRoutes } from '../subresource-routes.ts';
import { locationWithAuthor, createLocation, deleteLocation, updateLocation, vendorLocations } from './queries.ts';
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
    toApi: locationWithAuthor,
  },
  input: locationInput,
  patch: locationPatch,
  query: vendorLocations,
  create: createLocation,
  update: updateLocation,
  remove: deleteLocation,
});
