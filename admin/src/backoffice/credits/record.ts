import type { Identifier } from 'react-admin';

/** A vendor with its credit as GET /api/vendors answers it (the fields the credit screens show). */
export interface CreditRecord {
  /** A number from the API; the payout page asks for it by its address's text. */
  id: Identifier;
  licenseId: string;
  firstName: string;
  lastName: string;
  /** Minor units the vendor has to get; negative when the vendor owes money. */
  credit: number;
  lastPayout: { amount: number; at: string } | null;
}
