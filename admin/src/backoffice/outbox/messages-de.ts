// The outbox screen's texts; merged in i18n/german.ts and i18n/english.ts.
// In German; the English texts are in messages-en.ts, so that each language loads alone.
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
