// The answer of GET /api/stripe-reconciliation, in one place for the API and the back office
// (admin/src/backoffice/reconciliation imports this file, so it must stay free of Node and server
// imports, as api/src/ledger/kinds.ts is).

/** The figures, in the order staff read them. */
export const figures = [
  'charges',
  'cardFees',
  'refunds',
  'refundFailures',
  'disputes',
  'disputeReinstatements',
  'disputeFees',
  'disputeFeesReturned',
  'payouts',
  'payoutFailures',
  'other',
] as const;
export type Figure = (typeof figures)[number];

/** The kinds of Stripe object a difference names. */
export type ObjectType = 'charge' | 'refund' | 'dispute' | 'payout' | 'balance_transaction';

export type Totals = Record<Figure | 'total', number>;

/** One Stripe object whose figure differs between Stripe and the books. */
export interface Difference {
  /** Stripe's id of the object: the charge (or the payment when Stripe has no charge), refund, dispute, payout. */
  object: string;
  type: ObjectType;
  figure: Figure;
  /** The balance transaction, where the books name it (a dispute's) or Stripe has nothing else. */
  balanceTransaction: string | null;
  orderId: number | null;
  /** When Stripe or (if Stripe has nothing) the books recorded it. */
  at: string;
  stripe: number;
  books: number;
}

export interface Reconciliation {
  from: string;
  to: string;
  stripe: Totals;
  books: Totals;
  differences: Difference[];
}
