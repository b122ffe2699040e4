import type { CsvColumn } from '../foundations/csv.ts';
import { tr, type Message } from '../language/messages.ts';
import { figures, type Figure, type ObjectType, type Reconciliation } from './answer.ts';

// The reconciliation as one CSV table the bookkeeper can sort and filter: first a line per figure
// (Stripe's total, the books' total, the difference), then a line per Stripe object that differs.

/** The figures as staff read them; `total` is what Stripe should hold more at the end than at the start. */
export const figureNames: Record<Figure | 'total', Message> = {
  charges: tr('Card payments'),
  cardFees: tr('Card fees charged by Stripe'),
  refunds: tr('Refunds to customers'),
  refundFailures: tr('Refunds that failed'),
  disputes: tr('Chargebacks withdrawn'),
  disputeReinstatements: tr('Chargebacks reinstated'),
  disputeFees: tr('Chargeback fees charged'),
  disputeFeesReturned: tr('Chargeback fees given back'),
  payouts: tr('Payouts to the bank'),
  payoutFailures: tr('Payouts that failed'),
  other: tr('Other movements'),
  total: tr('Change of the Stripe balance'),
};

const objectNames: Record<ObjectType, Message> = {
  charge: tr('Payment'),
  refund: tr('Refund'),
  dispute: tr('Chargeback'),
  payout: tr('Payout'),
  balance_transaction: tr('Balance transaction'),
};

export interface ReconciliationLine {
  section: 'total' | 'difference';
  figure: Figure | 'total';
  object: string | null;
  type: ObjectType | null;
  balanceTransaction: string | null;
  orderId: number | null;
  at: string | null;
  stripe: number;
  books: number;
}

/** The lines of the CSV: the totals, then the differences. */
export function reconciliationLines(reconciliation: Reconciliation): ReconciliationLine[] {
  const totals = ([...figures, 'total'] as const).map((figure): ReconciliationLine => ({
    section: 'total',
    figure,
    object: null,
    type: null,
    balanceTransaction: null,
    orderId: null,
    at: null,
    stripe: reconciliation.stripe[figure],
    books: reconciliation.books[figure],
  }));
  const differences = reconciliation.differences.map((difference): ReconciliationLine => ({
    section: 'difference',
    ...difference,
  }));
  return [...totals, ...differences];
}

export const reconciliationCsvColumns: CsvColumn<ReconciliationLine>[] = [
  {
    header: 'Line',
    value: (line) => (line.section === 'total' ? tr('Total') : tr('Difference')),
  },
  { header: 'Figure', value: (line) => figureNames[line.figure] },
  { header: 'Stripe object', value: (line) => line.object },
  { header: 'Object type', value: (line) => (line.type ? objectNames[line.type] : null) },
  { header: 'Balance transaction', value: (line) => line.balanceTransaction },
  { header: 'Order', value: (line) => line.orderId },
  { header: 'Time', value: (line) => line.at, format: 'date' },
  { header: 'Stripe', value: (line) => line.stripe, format: 'cents' },
  { header: 'Books', value: (line) => line.books, format: 'cents' },
  { header: 'Difference', value: (line) => line.stripe - line.books, format: 'cents' },
];
