import type { Knex } from 'knex';
import { getSettingsRow } from '../settings/queries.ts';
import { findVendorByLicense } from './queries.ts';
import { licenseIdPattern } from './schema.ts';

/** What the shop may show of the vendor behind a badge. */
export interface VendorCheck {
  licenseId: string;
  displayName: string;
  accountProofUrl: string | null;
}

/**
 * The shop's view of a scanned licence id, or null. Deliberately one answer for unknown, deleted and
 * deactivated vendors, so the shop cannot tell them apart.
 */
export async function checkVendor(db: Knex, licenseId: string): Promise<VendorCheck | null> {
  if (!licenseIdPattern.test(licenseId)) return null;
  const vendor = await findVendorByLicense(db, licenseId);
  if (!vendor || vendor.is_disabled) return null;
  const { use_vendor_license_id_in_shop: hideName } = await getSettingsRow(db);
  return {
    licenseId: vendor.license_id,
    displayName: hideName ? vendor.license_id : vendor.first_name,
    accountProofUrl: vendor.account_proof_url,
  };
}
