import type { Knex } from 'knex';
import { respondCsv, wantsCsv } from '../http/csv-response.ts';
import { badRequest } from '../http/errors.ts';
import { applyFilters, readListFilter, respondList } from '../http/list-query.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { idParam, readInput } from '../http/validate.ts';
import { vendorAccountId } from '../ledger/accounts.ts';
import { vendorAccountSummary, vendorMoneyToApi, withVendorMoney, type VendorMoneyColumns } from '../ledger/queries.ts';
import { removeVendorWithoutCredit } from '../ledger/vendor.ts';
import { vendorLines } from '../ledger/vendor-lines.ts';
import { commentRoutes } from './comments/routes.ts';
import { locationRoutes } from './locations/routes.ts';
import { vendorOfUser } from './me.ts';
import {
  createVendor,
  deleteVendor,
  findVendor,
  licenseSortKey,
  liveVendors,
  searchVendors,
  setVendorDisabled,
  updateVendor,
  vendorNotFound,
  vendorToApi,
  type VendorRow,
} from './queries.ts';
import { vendorInput, vendorStateInput } from './schema.ts';
import { tr } from '../language/messages.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import type { ListSpec } from '../foundations/lists.ts';

type VendorWithMoney = VendorRow & VendorMoneyColumns & { open_warnings: number };

/**
 * Vendors as the back office sees them: the record, the money from the ledger and how many warning
 * comments are still open (the list marks those vendors), in one query.
 */
const vendorsWithMoney = (db: Knex | Knex.Transaction) =>
  withVendorMoney(liveVendors(db), 'vendors.id').select(
    db.raw(
      `(select count(*) from vendor_comments c
        where c.vendor_id = vendors.id and c.warning and c.resolved_at is null)::integer as open_warnings`,
    ),
  );

const vendorCsvColumns: CsvColumn<VendorWithMoney>[] = [
  { header: 'Licence ID', value: (v) => v.license_id },
  { header: 'First name', value: (v) => v.first_name },
  { header: 'Last name', value: (v) => v.last_name },
  { header: 'E-mail', value: (v) => v.email },
  { header: 'Telephone', value: (v) => v.telephone },
  { header: 'Credit', value: (v) => v.credit, format: 'cents' },
  { header: 'Deactivated', value: (v) => v.is_disabled },
];

const vendorWithMoneyToApi = (row: VendorWithMoney) => ({
  ...vendorToApi(row),
  ...vendorMoneyToApi(row),
  openWarnings: row.open_warnings,
});

async function vendorAnswer(ctx: AppContext, id: number) {
  const row = await vendorsWithMoney(ctx.db).where('vendors.id', id).first<VendorWithMoney | undefined>();
  if (!row) throw vendorNotFound(id);
  return vendorWithMoneyToApi(row);
}

const booleanFilter =
  (name: string, apply: (query: Knex.QueryBuilder, value: boolean) => unknown) =>
  (query: Knex.QueryBuilder, value: unknown) => {
    if (typeof value !== 'boolean') throw badRequest(tr('The filter "{name}" must be true or false.', { name }));
    apply(query, value);
  };

const vendorList: ListSpec<VendorWithMoney, ReturnType<typeof vendorWithMoneyToApi>> = {
  resource: 'vendors',
  // Names sort as people read them, regardless of case.
  sortable: {
    id: 'id',
    licenseId: licenseSortKey('license_id'),
    firstName: 'lower(first_name)',
    lastName: 'lower(last_name)',
    email: 'lower(email)',
    createdAt: 'created_at',
    isDisabled: 'is_disabled',
    credit: 'money.credit',
    openPayments: 'money.open_payments',
    lastPayout: 'last_payout.last_payout_at',
  },
  defaultSort: ['id', 'ASC'],
  idColumn: 'id',
  filters: {
    q: (query, value) => {
      if (typeof value !== 'string') throw badRequest('The search filter "q" must be text.');
      searchVendors(query, value);
    },
    isDisabled: booleanFilter('isDisabled', (query, value) => query.where('is_disabled', value)),
    hasWarning: booleanFilter('hasWarning', (query, value) =>
      query.whereRaw(
        `${value ? '' : 'not '}exists (select 1 from vendor_comments c
          where c.vendor_id = vendors.id and c.warning and c.resolved_at is null)`,
      ),
    ),
    // true: something to pay out (credit > 0); false: nothing (credit ≤ 0).
    hasCredit: booleanFilter('hasCredit', (query, value) => query.where('money.credit', value ? '>' : '<=', 0)),
    // true: the vendor owes money (credit < 0, e.g. a refund after a payout); false: credit ≥ 0.
    hasDebt: booleanFilter('hasDebt', (query, value) => query.where('money.credit', value ? '<' : '>=', 0)),
  },
  toApi: vendorWithMoneyToApi,
};

const vendorId = (ctx: AppContext) => idParam(ctx.params.id, 'vendor');

/** The protocol compares a vendor as the back office sees it. */
const vendorProtocol: ProtocolSpec = {
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
    throw badRequest(
      tr('The id in the body ({bodyId}) does not match the vendor {id} in the address.', {
        bodyId: JSON.stringify(bodyId),
        id,
      }),
      {
        id: 'Does not match the address.',
      },
    );
  }
}

// Deliberately vague: the shop must not tell apart unknown, deleted and deactivated vendors.
/** A vendor's own page: the record as the office sees it and the money from the ledger. */
const ownVendorRoute: RouteDef = {
  method: 'GET',
  path: '/api/vendors/me',
  access: 'vendor',
  handler: async (ctx) => {
    const vendor = await vendorOfUser(ctx.db, ctx.state.user!);
    ctx.body = { ...vendorToApi(vendor), ...(await vendorAccountSummary(ctx.db, vendor.id)) };
  },
};

/** How many of their latest lines a vendor sees on their page. */
const ownLinesShown = 50;

/**
 * The vendor's latest money movements, newest first, a card sale or a refund as one line, each
 * marked as paid out or still open. Item names come in the page's language (`lang`), else the
 * vendor's own.
 */
const ownPaymentsRoute: RouteDef = {
  method: 'GET',
  path: '/api/vendors/me/payments',
  access: 'vendor',
  handler: async (ctx) => {
    const vendor = await vendorOfUser(ctx.db, ctx.state.user!);
    const account = await vendorAccountId(ctx.db, vendor.id);
    const asked = ctx.query.lang;
    const language = asked === 'de' || asked === 'en' ? asked : vendor.language;
    ctx.body = account === undefined ? [] : await vendorLines(ctx.db, account, language, ownLinesShown);
  },
};

export const vendorRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/vendors',
    access: 'backoffice',
    handler: async (ctx) => {
      if (!wantsCsv(ctx)) return respondList(ctx, vendorsWithMoney(ctx.db), vendorList);
      // Every filtered vendor at once: a newspaper has hundreds, not millions.
      const spec = vendorList as ListSpec<never, unknown>;
      const query = vendorsWithMoney(ctx.db).orderByRaw(licenseSortKey('license_id'));
      applyFilters(ctx, query, readListFilter(ctx, spec), spec);
      respondCsv(ctx, 'verkaeufer.csv', vendorCsvColumns, [await query]);
    },
  },
  {
    method: 'POST',
    path: '/api/vendors',
    access: 'backoffice',
    body: 'json',
    input: vendorInput,
    protocol: vendorProtocol,
    handler: async (ctx) => {
      const input = readInput(ctx, vendorInput);
      const { vendor, login } = await createVendor(ctx.db, input);
      ctx.status = 201;
      // The vendor's login with its one-time password: shown to staff in this answer only.
      ctx.body = { ...(await vendorAnswer(ctx, vendor.id)), login };
    },
  },
  // Before /api/vendors/:id, which would otherwise take "me" for an id and refuse vendors.
  ownVendorRoute,
  ownPaymentsRoute,
  {
    method: 'GET',
    path: '/api/vendors/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await vendorAnswer(ctx, vendorId(ctx));
    },
  },
  {
    method: 'PUT',
    path: '/api/vendors/:id',
    access: 'backoffice',
    body: 'json',
    input: vendorInput,
    protocol: { ...vendorProtocol, id: vendorId },
    handler: async (ctx) => {
      const id = vendorId(ctx);
      assertSameId(ctx.request.body, id);
      const input = readInput(ctx, vendorInput);
      if (!(await updateVendor(ctx.db, id, input))) throw vendorNotFound(id);
      ctx.body = await vendorAnswer(ctx, id);
    },
  },
  {
    // Deactivating or reactivating alone, without the whole record: the list's bulk action.
    method: 'PATCH',
    path: '/api/vendors/:id',
    access: 'backoffice',
    body: 'json',
    input: vendorStateInput,
    protocol: { ...vendorProtocol, id: vendorId },
    handler: async (ctx) => {
      const id = vendorId(ctx);
      assertSameId(ctx.request.body, id);
      const { isDisabled } = readInput(ctx, vendorStateInput);
      if (!(await setVendorDisabled(ctx.db, id, isDisabled))) throw vendorNotFound(id);
      ctx.body = await vendorAnswer(ctx, id);
    },
  },
  {
    method: 'DELETE',
    path: '/api/vendors/:id',
    access: 'backoffice',
    protocol: { ...vendorProtocol, id: vendorId },
    handler: async (ctx) => {
      const id = vendorId(ctx);
      // Money must not vanish with a vendor: the office pays the credit out or settles the debt first.
      const vendor = await removeVendorWithoutCredit(ctx.db, id, (trx) => deleteVendor(trx, id));
      if (!vendor) throw vendorNotFound(id);
      ctx.body = vendorToApi(vendor);
    },
  },
  ...locationRoutes,
  ...commentRoutes,
];
