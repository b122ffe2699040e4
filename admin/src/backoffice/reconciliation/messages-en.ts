import type { de } from './messages-de.ts';

// The Stripe reconciliation screen's texts; merged in i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
export const en: typeof de = {
  app: {
    menu: { reconciliation: 'Stripe reconciliation' },
    page: { reconciliation: 'Stripe reconciliation' },
    reconciliation: {
      intro:
        'What Stripe did with the newspaper’s money in this period, beside what our books say of it. Money in is positive, money out negative.',
      loading: 'Loading the reconciliation …',
      failed: 'The reconciliation could not be loaded: %{message}',
      figures: 'Totals',
      figure: 'Figure',
      stripe: 'Stripe',
      books: 'Our books',
      difference: 'Difference',
      differences: 'Differences',
      none: 'No differences',
      none_detail: 'Every movement at Stripe in this period is booked as Stripe reports it.',
      count: '%{smart_count} difference |||| %{smart_count} differences',
      object: 'Stripe object',
      order: 'Order %{id}',
      csv: 'Download CSV',
      figure_charges: 'Card payments',
      figure_cardFees: 'Card fees charged by Stripe',
      figure_refunds: 'Refunds to customers',
      figure_refundFailures: 'Refunds that failed',
      figure_disputes: 'Chargebacks withdrawn',
      figure_disputeReinstatements: 'Chargebacks reinstated',
      figure_disputeFees: 'Chargeback fees charged',
      figure_disputeFeesReturned: 'Chargeback fees given back',
      figure_payouts: 'Payouts to the bank',
      figure_payoutFailures: 'Payouts that failed',
      figure_other: 'Other movements',
      figure_total: 'Change of the Stripe balance',
      type_charge: 'Payment',
      type_refund: 'Refund',
      type_dispute: 'Chargeback',
      type_payout: 'Payout',
      type_balance_transaction: 'Balance transaction',
    },
  },
};
