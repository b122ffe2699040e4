import type { Knex } from 'knex';
import type { LocationPatch, WorkingTime } from './schema.ts';
import { oneRow } from '../../foundations/one-row.ts';
import { createdBy } from '../../protocol/queries.ts';
import { toIso } from '../../foundations/dates.ts';

type Db = Knex | Knex.Transaction;

export interface LocationRow {
  id: number;
  vendor_id: number;
  name: string;
  address: string;
  post_code: string;
  latitude: number | null;
  longitude: number | null;
  working_time: WorkingTime;
  created_at: Date | string;
  /** Absent where a write returns the row: the list and the protocol read it. */
  created_by?: string | null;
}

const columns = [
  'id',
  'vendor_id',
  'name',
  'address',
  'post_code',
  'latitude',
  'longitude',
  'working_time',
  'created_at',
];

/** As the back office lists it: with its author (the protocol's), whom the vendor's data export leaves out. */
export const locationWithAuthor = (row: LocationRow) => ({
  ...locationToApi(row),
  // A write's answer comes before its protocol entry: it names no author rather than a wrong one.
  ...(row.created_by !== undefined && { createdBy: row.created_by }),
});

export function locationToApi(row: LocationRow) {
  return {
    id: row.id,
    vendorId: row.vendor_id,
    name: row.name,
    address: row.address,
    postCode: row.post_code,
    latitude: row.latitude,
    longitude: row.longitude,
    workingTime: row.working_time,
    createdAt: toIso(row.created_at),
  };
}

/** Only the fields given; absent ones keep their value (or the column default on insert). */
function toRow(input: LocationPatch) {
  const row = {
    name: input.name,
    address: input.address,
    post_code: input.postCode,
    latitude: input.latitude,
    longitude: input.longitude,
    working_time: input.workingTime && JSON.stringify(input.workingTime),
  };
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined));
}

export const vendorLocations = (db: Db, vendorId: number) =>
  db('vendor_locations')
    .where({ vendor_id: vendorId })
    .select([...columns, createdBy(db as Knex, 'vendor_location', 'vendor_locations')]);

export async function createLocation(db: Db, vendorId: number, input: LocationPatch): Promise<LocationRow> {
  return oneRow(
    await db('vendor_locations')
      .insert({ ...toRow(input), vendor_id: vendorId })
      .returning<LocationRow[]>(columns),
  );
}

export async function updateLocation(
  db: Db,
  vendorId: number,
  id: number,
  input: LocationPatch,
): Promise<LocationRow | undefined> {
  const row = toRow(input);
  if (!Object.keys(row).length) return vendorLocations(db, vendorId).where({ id }).first<LocationRow | undefined>();
  const [updated] = await db('vendor_locations')
    .where({ id, vendor_id: vendorId })
    .update(row)
    .returning<LocationRow[]>([...columns, createdBy(db as Knex, 'vendor_location', 'vendor_locations')]);
  return updated;
}

export async function deleteLocation(db: Db, vendorId: number, id: number): Promise<LocationRow | undefined> {
  const [deleted] = await db('vendor_locations')
    .where({ id, vendor_id: vendorId })
    .delete()
    .returning<LocationRow[]>(columns);
  return deleted;
}
