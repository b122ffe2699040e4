import type { Knex } from 'knex';
import type { WorkingTime } from '../vendors/locations/schema.ts';

interface MapVendorRow {
  id: number;
  license_id: string;
  first_name: string;
  last_name: string;
}

interface MapLocationRow {
  id: number;
  vendor_id: number;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  working_time: WorkingTime;
}

/** Vendors who agreed to be on the map and can sell. */
const onMap = (db: Knex) => db('vendors').where({ online_map: true, is_disabled: false }).whereNull('deleted_at');

/** Those vendors, each with the locations that can be drawn (the ones with coordinates). */
export async function mapVendors(db: Knex) {
  const vendors = (await onMap(db)
    .select('id', 'license_id', 'first_name', 'last_name')
    .orderBy('id')) as MapVendorRow[];
  const locations = (await db('vendor_locations')
    .select('id', 'vendor_id', 'name', 'address', 'latitude', 'longitude', 'working_time')
    .whereIn('vendor_id', onMap(db).select('id'))
    .whereNotNull('latitude')
    .whereNotNull('longitude')
    .orderBy('id')) as MapLocationRow[];
  const byVendor = new Map<number, MapLocationRow[]>();
  for (const location of locations) {
    const list = byVendor.get(location.vendor_id);
    if (list) list.push(location);
    else byVendor.set(location.vendor_id, [location]);
  }
  return vendors.map((vendor) => ({
    id: vendor.id,
    licenseId: vendor.license_id,
    firstName: vendor.first_name,
    lastName: vendor.last_name,
    locations: (byVendor.get(vendor.id) ?? []).map((location) => ({
      id: location.id,
      name: location.name,
      address: location.address,
      latitude: location.latitude,
      longitude: location.longitude,
      workingTime: location.working_time,
    })),
  }));
}
