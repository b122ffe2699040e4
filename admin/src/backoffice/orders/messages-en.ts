import type { de } from './messages-de.ts';

// The orders screen's texts; merged in i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
export const en: typeof de = {
  app: {
    menu: { orders: 'Orders' },
    page: { orders: 'Orders' },
    order: {
      status_pending: 'Pending',
      status_paid: 'Paid',
      status_failed: 'Failed',
      status_expired: 'Expired',
      status_flagged: 'To check',
      status_refunded: 'Refunded',
      order: 'Order',
      vendor: 'Vendor',
      check: 'Check with Stripe now',
      checked: 'Order %{id} is now: %{status}',
      refund: 'Refund',
      refund_title: 'Refund order %{id}?',
      refund_content:
        '%{amount} go back to the customer through Stripe, and the bookings are reversed. This cannot be undone.',
      refunded: 'Order %{id} was refunded',
      refund_requested: 'Refund of order %{id} requested: it is booked once Stripe reports it done',
      empty: 'No orders with this status.',
      attention: 'Only chargebacks to decide',
      stripe: 'At Stripe',
      refund_pending: 'Refund pending',
      partly_refunded: '%{amount} refunded',
      fraud_warning: 'Fraud warning from the bank (%{type}): a refund spares a chargeback',
      refund_requires_action: 'Refund waiting',
      refund_failed: 'Refund failed',
      refund_canceled: 'Refund canceled',
      dispute: 'Chargeback %{amount}, due %{due} (%{status})',
      dispute_borne_vendor: 'Chargeback %{amount}: borne by the vendor (%{status})',
      dispute_borne_newspaper: 'Chargeback %{amount}: borne by the newspaper (%{status})',
      dispute_vendor: 'Vendor bears it',
      dispute_newspaper: 'Newspaper bears it',
      dispute_title: 'Chargeback on order %{id}: who bears it?',
      dispute_content_vendor:
        '%{amount} are taken off the credit of %{vendor}. If the newspaper wins the case, %{vendor} gets it back.',
      dispute_content_newspaper: 'The newspaper bears %{amount}; the credit of %{vendor} stays as it is.',
      dispute_decided_vendor: 'Chargeback on order %{id}: taken off the credit',
      dispute_decided_newspaper: 'Chargeback on order %{id}: borne by the newspaper',
    },
  },
  resources: {
    orders: {
      name: 'Order |||| Orders',
      fields: {
        id: 'No.',
        createdAt: 'Created',
        paidAt: 'Paid on',
        amountTotal: 'Amount',
        status: 'Status',
        flagReason: 'Reason',
        email: 'E-mail',
        checkedAt: 'Last checked',
        attention: 'Only chargebacks to decide',
      },
    },
  },
};
