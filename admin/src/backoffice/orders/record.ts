import type { RaRecord } from 'react-admin';

/** An order as GET /api/orders answers it (staffOrderToApi in api/src/orders/queries.ts). */
export interface OrderRecord extends RaRecord<number> {
  status: string;
  amountTotal: number;
  createdAt: string | null;
  vendorId: number;
  /** Null for an anonymised vendor. */
  vendorLicenseId: string | null;
  vendorName: string;
  stripeSessionId: string | null;
  flagReason: string | null;
  /** The latest refund at Stripe: pending, succeeded, failed, …; null when none was made. */
  refundStatus: string | null;
  /** What Stripe gave back of it in all; the order stays paid until it is all. */
  amountRefunded: number;
  /** Radar's early fraud warning on the payment (its fraud type); null when none came. */
  fraudWarning: string | null;
  dispute: {
    id: string;
    amount: number;
    status: string;
    evidenceDueBy: string | null;
    bearer: 'vendor' | 'newspaper' | null;
    needsDecision: boolean;
  } | null;
}

/** The data provider's `call` (dataProvider.ts): any call of our API with the login. */
export type CallApi = (path: string, options?: { method?: string; body?: unknown }) => Promise<unknown>;
