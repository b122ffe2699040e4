import type { de } from './messages-de.ts';

// The outbox screen's texts; merged in i18n/german.ts and i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
export const en: typeof de = {
  app: {
    menu: { outbox: 'Outbox' },
    page: { outbox: 'Outbox' },
    outbox: {
      status_queued: 'Queued',
      status_sent: 'Sent',
      status_stored: 'Stored',
      stored_hint: 'No mail server is set up: please forward the text to the recipient by hand.',
      status_failed: 'Failed',
      empty: 'No e-mails for this selection.',
      order: 'Order %{id}',
    },
  },
  resources: {
    outbox: {
      name: 'E-mail |||| E-mails',
      fields: {
        createdAt: 'Created',
        recipient: 'Recipient',
        subject: 'Subject',
        status: 'Status',
        attempts: 'Attempts',
        lastError: 'Last error',
        orderId: 'Order',
        text: 'Text',
      },
    },
  },
};
