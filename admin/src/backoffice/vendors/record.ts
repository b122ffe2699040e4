import type { RaRecord } from 'react-admin';

/** A vendor as GET /api/vendorsummary/:id answers it; the fields the back office reads. */
export interface VendorRecord extends RaRecord<number> {
  licenseId: string;
  firstName: string;
  lastName: string;
  isDisabled: boolean;
  /** Open credit in minor units; absent where the answer does not carry it. */
  credit?: number | null;
  lastPayout?: { amount: number; at: string } | null;
  /** Calendar days, "YYYY-MM-DD". */
  registrationDate?: string | null;
  vendorSince?: string | null;
}

/** The answer to creating a vendor: with the new login's one-time password, shown once. */
export interface CreatedVendor extends RaRecord {
  login?: { username: string; oneTimePassword: string };
}
