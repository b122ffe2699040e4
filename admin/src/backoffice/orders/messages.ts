// The orders screen's texts; merged in i18n/messages.ts.
export const de = {
  app: {
    menu: { orders: 'Bestellungen' },
    page: { orders: 'Bestellungen' },
    order: {
      status_pending: 'Offen',
      status_paid: 'Bezahlt',
      status_failed: 'Fehlgeschlagen',
      status_expired: 'Abgelaufen',
      status_flagged: 'Zu prüfen',
      status_refunded: 'Erstattet',
      order: 'Bestellung',
      vendor: 'Verkäufer',
      check: 'Jetzt bei Stripe prüfen',
      checked: 'Bestellung %{id} ist jetzt: %{status}',
      refund: 'Erstatten',
      refund_title: 'Bestellung %{id} erstatten?',
      refund_content: '%{amount} gehen über Stripe an die Kundin oder den Kunden zurück, und die Buchungen werden umgekehrt. Das kann nicht rückgängig gemacht werden.',
      refunded: 'Bestellung %{id} wurde erstattet',
      empty: 'Keine Bestellungen mit diesem Status.',
    },
  },
  resources: {
    orders: {
      name: 'Bestellung |||| Bestellungen',
      fields: {
        id: 'Nr.',
        createdAt: 'Erstellt',
        paidAt: 'Bezahlt am',
        amountTotal: 'Betrag',
        status: 'Status',
        flagReason: 'Grund',
        email: 'E-Mail',
        checkedAt: 'Zuletzt geprüft',
      },
    },
  },
};

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
      refund_content: '%{amount} go back to the customer through Stripe, and the bookings are reversed. This cannot be undone.',
      refunded: 'Order %{id} was refunded',
      empty: 'No orders with this status.',
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
      },
    },
  },
};
