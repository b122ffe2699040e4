import type { AppContext } from '../http/routes.ts';
import { idParam } from '../http/validate.ts';
import { requireLiveVendor } from './queries.ts';

/** The vendor of a sub-resource route (/api/vendors/:id/…); a deleted vendor has no sub-resources. */
export async function liveVendorId(ctx: AppContext): Promise<number> {
  const vendorId = idParam(ctx.params.id, 'vendor');
  await requireLiveVendor(ctx.db, vendorId);
  return vendorId;
}

/** Vendor id and child id (location, comment), both checked for shape before either is looked up. */
export async function childIds(ctx: AppContext, param: string, what: string): Promise<[vendorId: number, id: number]> {
  const vendorId = idParam(ctx.params.id, 'vendor');
  const id = idParam(ctx.params[param], what);
  await requireLiveVendor(ctx.db, vendorId);
  return [vendorId, id];
}
