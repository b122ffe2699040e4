import type { de } from './messages-de.ts';

// The webhook screens' texts (endpoints for other systems and their deliveries); merged in i18n/german.ts and i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
export const en: typeof de = {
  app: {
    menu: { webhooks: 'Webhooks' },
    page: {
      webhooks: 'Webhooks',
      new_webhook: 'New webhook',
      edit_webhook: 'Edit webhook',
    },
    webhooks: {
      intro: 'Other systems (such as bookkeeping or an ERP) receive signed messages here when money moves.',
      empty: 'No webhook set up yet.',
      url_help: 'Must start with https://.',
      type_order_paid: 'Order paid',
      type_order_refunded: 'Order refunded',
      type_payout_created: 'Payout',
      type_payout_reversed: 'Payout reversed',
      type_counter_sale: 'Counter sale',
      type_counter_day_closed: 'Daily close',
      active_yes: 'Active',
      active_no: 'Paused',
      secret_title: 'The webhook’s secret',
      secret_text:
        'The secret is shown only now. Please copy it into the receiving system; it checks the signature of every message with it.',
      secret_done: 'I have copied it',
      rotate: 'Rotate secret',
      rotate_title: 'Make a new secret?',
      rotate_content: 'The current secret stops working at once. The receiving system needs the new one afterwards.',
      secret_set_at: 'Secret made on %{date}',
      deliveries: 'Deliveries',
      deliveries_empty: 'No deliveries yet.',
      status_pending: 'Waiting',
      status_delivered: 'Delivered',
      status_failed: 'Failed',
      resend: 'Resend',
      resent: 'The delivery is being sent again.',
    },
  },
  resources: {
    'webhook-endpoints': {
      name: 'Webhook |||| Webhooks',
      fields: {
        url: 'Address (URL)',
        description: 'Description',
        eventTypes: 'Events',
        active: 'Active',
        pending: 'Waiting',
        failed: 'Failed',
        createdAt: 'Created',
      },
    },
    'webhook-deliveries': {
      name: 'Delivery |||| Deliveries',
      fields: {
        createdAt: 'Event of',
        eventType: 'Event',
        status: 'Status',
        attempts: 'Attempts',
        lastError: 'Last error',
        nextAttemptAt: 'Next attempt',
        deliveredAt: 'Delivered on',
      },
    },
  },
};
