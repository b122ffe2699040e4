import type { AuditSpec } from '../audit/protocol.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { respondList, type ListSpec } from '../http/list.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { idParam, parse } from '../http/validate.ts';
import { getSettingsRow } from '../settings/queries.ts';
import { commentRoutes } from './comments/routes.ts';
import { locationRoutes } from './locations/routes.ts';
import { ownVendorRoute } from './me.ts';
import {
  createVendor,
  deleteVendor,
  findVendor,
  findVendorByLicense,
  liveVendors,
  searchVendors,
  updateVendor,
  vendorNotFound,
  vendorToApi,
  type VendorRow,
} from './queries.ts';
import { licenseIdPattern, vendorInput } from './schema.ts';

const vendorList: ListSpec<VendorRow, ReturnType<typeof vendorToApi>> = {
  resource: 'vendors',
  // Names sort as people read them, regardless of case.
  sortable: {
    id: 'id',
    licenseId: 'lower(license_id)',
    firstName: 'lower(first_name)',
    lastName: 'lower(last_name)',
    email: 'lower(email)',
    createdAt: 'created_at',
    isDisabled: 'is_disabled',
  },
  defaultSort: ['id', 'ASC'],
  idColumn: 'id',
  filters: {
    q: (query, value) => {
      if (typeof value !== 'string') throw badRequest('The search filter "q" must be text.');
      searchVendors(query, value);
    },
    isDisabled: (query, value) => {
      if (typeof value !== 'boolean') throw badRequest('The filter "isDisabled" must be true or false.');
      query.where('is_disabled', value);
    },
  },
  toApi: vendorToApi,
};

const vendorId = (ctx: AppContext) => idParam(ctx.params.id, 'vendor');

/** The protocol compares a vendor as the back office sees it. */
const vendorAudit: AuditSpec = {
  recordType: 'vendor',
  load: async (ctx, id) => {
    const vendor = await findVendor(ctx.db, Number(id));
    return vendor && vendorToApi(vendor);
  },
};

/** react-admin sends the whole record back, id included; a different id means a confused client. */
function assertSameId(body: unknown, id: number): void {
  const bodyId = (body as { id?: unknown } | null)?.id;
  if (bodyId != null && Number(bodyId) !== id) {
    throw badRequest(`The id in the body (${String(bodyId)}) does not match the vendor ${id} in the address.`, {
      id: 'Does not match the address.',
    });
  }
}

// Deliberately vague: the shop must not tell apart unknown, deleted and deactivated vendors.
const invalidId = () => notFound('This ID is invalid');

export const vendorRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/vendors',
    access: 'backoffice',
    handler: (ctx) => respondList(ctx, liveVendors(ctx.db), vendorList),
  },
  {
    method: 'POST',
    path: '/api/vendors',
    access: 'backoffice',
    body: 'json',
    audit: vendorAudit,
    handler: async (ctx) => {
      const input = parse(vendorInput, ctx.request.body);
      const { vendor, login } = await createVendor(ctx.db, input);
      ctx.status = 201;
      // The vendor's login with its one-time password: shown to staff in this answer only.
      ctx.body = { ...vendorToApi(vendor), login };
    },
  },
  {
    // The shop's first call after a badge scan; it answers only what the shop may show.
    method: 'GET',
    path: '/api/vendors/check/:licenseId',
    access: 'public',
    handler: async (ctx) => {
      const licenseId = ctx.params.licenseId;
      if (!licenseIdPattern.test(licenseId)) throw invalidId();
      const vendor = await findVendorByLicense(ctx.db, licenseId);
      if (!vendor || vendor.is_disabled) throw invalidId();
      const { use_vendor_license_id_in_shop: hideName } = await getSettingsRow(ctx.db);
      ctx.body = {
        licenseId: vendor.license_id,
        displayName: hideName ? vendor.license_id : vendor.first_name,
        accountProofUrl: vendor.account_proof_url,
      };
    },
  },
  // Before /api/vendors/:id, which would otherwise take "me" for an id and refuse vendors.
  ownVendorRoute,
  {
    method: 'GET',
    path: '/api/vendors/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = vendorId(ctx);
      const vendor = await findVendor(ctx.db, id);
      if (!vendor) throw vendorNotFound(id);
      ctx.body = vendorToApi(vendor);
    },
  },
  {
    method: 'PUT',
    path: '/api/vendors/:id',
    access: 'backoffice',
    body: 'json',
    audit: { ...vendorAudit, id: vendorId },
    handler: async (ctx) => {
      const id = vendorId(ctx);
      assertSameId(ctx.request.body, id);
      const input = parse(vendorInput, ctx.request.body);
      const vendor = await updateVendor(ctx.db, id, input);
      if (!vendor) throw vendorNotFound(id);
      ctx.body = vendorToApi(vendor);
    },
  },
  {
    method: 'DELETE',
    path: '/api/vendors/:id',
    access: 'backoffice',
    audit: { ...vendorAudit, id: vendorId },
    handler: async (ctx) => {
      const id = vendorId(ctx);
      const vendor = await deleteVendor(ctx.db, id);
      if (!vendor) throw vendorNotFound(id);
      ctx.body = vendorToApi(vendor);
    },
  },
  ...locationRoutes,
  ...commentRoutes,
];
