import type { Knex } from 'knex';
import { hotRows } from '../db/connection.ts';
import { oneRow } from '../foundations/one-row.ts';
import { shopData, type ShopData } from './cache.ts';
import { licenseIdPattern } from '../vendors/schema.ts';

/** What the shop may show of the vendor behind a badge. */
export interface VendorCheck {
  licenseId: string;
  displayName: string;
  accountProofUrl: string | null;
}

interface CheckRow {
  revision: number;
  id: number | null;
  license_id: string | null;
  first_name: string | null;
  account_proof_url: string | null;
  is_disabled: boolean | null;
}

/**
 * The shop's view of a scanned licence id (null for none), with the shop's settings and items, in
 * one query: the vendor's row joined to the revision that says whether this process's copy of the
 * rest is current. Deliberately one answer for unknown, deleted and deactivated vendors, so the shop
 * cannot tell them apart. `vendorId` is for the server's own use (a new order), never for an answer.
 */
export async function checkVendorInShop(
  db: Knex,
  licenseId: string | undefined,
): Promise<{ vendor: VendorCheck | null; vendorId?: number; shop: ShopData }> {
  const valid = licenseId !== undefined && licenseIdPattern.test(licenseId);
  const rows = await hotRows<CheckRow>(
    db,
    `select coalesce((select revision from shop_revision where id = 1), 0) as revision,
       v.id, v.license_id, v.first_name, v.account_proof_url, v.is_disabled
     from (select 1) as one
     left join vendors v on ? and lower(v.license_id) = lower(?) and v.deleted_at is null`,
    [valid, valid ? licenseId : ''],
  );
  const row = oneRow(rows);
  const shop = await shopData(db, Number(row.revision));
  if (row.id === null || row.license_id === null || row.is_disabled !== false) return { vendor: null, shop };
  return {
    vendorId: row.id,
    vendor: {
      licenseId: row.license_id,
      displayName: shop.settings.use_vendor_license_id_in_shop ? row.license_id : (row.first_name ?? ''),
      accountProofUrl: row.account_proof_url,
    },
    shop,
  };
}

export async function checkVendor(db: Knex, licenseId: string): Promise<VendorCheck | null> {
  return (await checkVendorInShop(db, licenseId)).vendor;
}
