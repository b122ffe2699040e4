// The outbox screen's texts; merged in i18n/german.ts and i18n/english.ts.
export const de = {
  app: {
    menu: { outbox: 'Postausgang' },
    page: { outbox: 'Postausgang' },
    outbox: {
      status_queued: 'Wartet',
      status_sent: 'Gesendet',
      status_stored: 'Gespeichert',
      stored_hint: 'Es ist kein Mailserver eingerichtet: Bitte den Text von Hand an den Empfänger weiterleiten.',
      status_failed: 'Fehlgeschlagen',
      empty: 'Keine E-Mails für diese Auswahl.',
      order: 'Bestellung %{id}',
    },
  },
  resources: {
    outbox: {
      name: 'E-Mail |||| E-Mails',
      fields: {
        createdAt: 'Erstellt',
        recipient: 'Empfänger',
        subject: 'Betreff',
        status: 'Status',
        attempts: 'Versuche',
        lastError: 'Letzter Fehler',
        orderId: 'Bestellung',
        text: 'Text',
      },
    },
  },
};

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
