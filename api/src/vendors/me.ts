import type { Knex } from 'knex';
import { HttpError } from '../http/errors.ts';
import type { RouteDef } from '../http/routes.ts';
import type { User } from '../identity/user.ts';
import { vendorAccountId } from '../ledger/accounts.ts';
import { accountRows, accountRowToApi, vendorAccountSummary, type AccountRow } from '../ledger/queries.ts';
import { findVendor, liveVendors, vendorToApi, type VendorRow } from './queries.ts';
import { type Text } from '../language/messages.ts';

type Db = Knex | Knex.Transaction;

const refused = (message: Text) => new HttpError(403, message);

/**
 * The vendor record a vendor's login belongs to. The embedded provider's account carries the link;
 * an external provider's token names the vendor's licence id in its configured claim (OIDC_VENDOR_CLAIM),
 * which its owner cannot change, or, only where the newspaper chose it, a verified e-mail address
 * (the verifier hands over none else). An e-mail that several vendors share names none of them:
 * guessing could show one vendor another's money.
 */
export async function vendorOfUser(db: Db, user: User): Promise<VendorRow> {
  let candidates: VendorRow[];
  const licence = user.vendorClaim?.trim();
  const email = user.vendorEmail?.trim();
  if (user.accountId !== undefined) {
    const vendor = user.vendorId ? await findVendor(db, user.vendorId) : undefined;
    candidates = vendor ? [vendor] : [];
  } else if (licence) {
    candidates = (await liveVendors(db).whereRaw('lower(license_id) = lower(?)', [licence]).limit(2)) as VendorRow[];
  } else {
    candidates = email
      ? ((await liveVendors(db).whereRaw('lower(email) = lower(?)', [email]).limit(2)) as VendorRow[])
      : [];
  }
  const [vendor] = candidates;
  if (!vendor) throw refused('Your login is not linked to a vendor. Please ask the office.');
  if (candidates.length > 1)
    throw refused('Your login matches more than one vendor. Please ask the office to correct the e-mail addresses.');
  if (vendor.is_disabled) throw refused('Your vendor account is deactivated. Please ask the office.');
  return vendor;
}

/** A vendor's own page: the record as the office sees it and the money from the ledger. */
export const ownVendorRoute: RouteDef = {
  method: 'GET',
  path: '/api/vendors/me',
  access: 'vendor',
  handler: async (ctx) => {
    const vendor = await vendorOfUser(ctx.db, ctx.state.user!);
    ctx.body = { ...vendorToApi(vendor), ...(await vendorAccountSummary(ctx.db, vendor.id)) };
  },
};

/** How many of their latest ledger rows a vendor sees on their page. */
const ownRowsShown = 50;

/** The vendor's latest money movements, newest first, each marked as paid out or still open. */
export const ownPaymentsRoute: RouteDef = {
  method: 'GET',
  path: '/api/vendors/me/payments',
  access: 'vendor',
  handler: async (ctx) => {
    const vendor = await vendorOfUser(ctx.db, ctx.state.user!);
    const account = await vendorAccountId(ctx.db, vendor.id);
    const rows =
      account === undefined
        ? []
        : ((await accountRows(ctx.db, account)
            .orderBy('r.created_at', 'desc')
            .orderBy('r.id', 'desc')
            .limit(ownRowsShown)) as AccountRow[]);
    ctx.body = rows.map((row) => ({ ...accountRowToApi(row), paidOut: row.payout_id !== null }));
  },
};
