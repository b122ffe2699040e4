// The answer of GET /api/stripe-reconciliation (api/src/stripe-balance/reconciliation.ts).

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

export type Totals = Record<Figure | 'total', number>;

export interface Difference {
  object: string;
  type: 'charge' | 'refund' | 'dispute' | 'payout' | 'balance_transaction';
  figure: Figure;
  balanceTransaction: string | null;
  orderId: number | null;
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

export interface Days {
  from: string;
  to: string;
}

export const query = (days: Days) => `from=${days.from}&to=${days.to}`;
