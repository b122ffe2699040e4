import type { Knex } from 'knex';
import { forbiddenError } from '../foundations/errors.ts';
import type { User } from '../identity/user.ts';
import { findVendor, liveVendors, type VendorRow } from './queries.ts';

type Db = Knex | Knex.Transaction;

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
  if (!vendor) throw forbiddenError('Your login is not linked to a vendor. Please ask the office.');
  if (candidates.length > 1)
    throw forbiddenError(
      'Your login matches more than one vendor. Please ask the office to correct the e-mail addresses.',
    );
  if (vendor.is_disabled) throw forbiddenError('Your vendor account is deactivated. Please ask the office.');
  return vendor;
}
