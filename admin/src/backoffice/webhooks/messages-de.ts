// The webhook screens' texts (endpoints for other systems and their deliveries); merged in i18n/german.ts and i18n/english.ts.
// In German; the English texts are in messages-en.ts, so that each language loads alone.
export const de = {
  app: {
    menu: { webhooks: 'Webhooks' },
    page: {
      webhooks: 'Webhooks',
      new_webhook: 'Neuer Webhook',
      edit_webhook: 'Webhook bearbeiten',
    },
    webhooks: {
      intro:
        'Andere Systeme (etwa die Buchhaltung oder ein ERP) erhalten hier signierte Nachrichten, wenn Geld bewegt wird.',
      empty: 'Noch kein Webhook eingerichtet.',
      url_help: 'Muss mit https:// beginnen.',
      type_order_paid: 'Bestellung bezahlt',
      type_order_refunded: 'Bestellung erstattet',
      type_payout_created: 'Auszahlung',
      type_payout_reversed: 'Auszahlung storniert',
      type_counter_sale: 'Verkauf an der Theke',
      type_counter_day_closed: 'Tagesabschluss',
      active_yes: 'Aktiv',
      active_no: 'Pausiert',
      secret_title: 'Geheimnis des Webhooks',
      secret_text:
        'Das Geheimnis wird nur jetzt angezeigt. Bitte kopieren Sie es in das empfangende System; damit prüft es die Signatur jeder Nachricht.',
      secret_done: 'Ich habe es kopiert',
      rotate: 'Geheimnis erneuern',
      rotate_title: 'Neues Geheimnis erzeugen?',
      rotate_content: 'Das bisherige Geheimnis gilt sofort nicht mehr. Das empfangende System braucht danach das neue.',
      secret_set_at: 'Geheimnis erzeugt am %{date}',
      deliveries: 'Zustellungen',
      deliveries_empty: 'Noch keine Zustellungen.',
      status_pending: 'Wartet',
      status_delivered: 'Zugestellt',
      status_failed: 'Fehlgeschlagen',
      resend: 'Erneut senden',
      resent: 'Die Zustellung wird erneut gesendet.',
    },
  },
  resources: {
    'webhook-endpoints': {
      name: 'Webhook |||| Webhooks',
      fields: {
        url: 'Adresse (URL)',
        description: 'Beschreibung',
        eventTypes: 'Ereignisse',
        active: 'Aktiv',
        pending: 'Wartend',
        failed: 'Fehlgeschlagen',
        createdAt: 'Erstellt',
      },
    },
    'webhook-deliveries': {
      name: 'Zustellung |||| Zustellungen',
      fields: {
        createdAt: 'Ereignis vom',
        eventType: 'Ereignis',
        status: 'Status',
        attempts: 'Versuche',
        lastError: 'Letzter Fehler',
        nextAttemptAt: 'Nächster Versuch',
        deliveredAt: 'Zugestellt am',
      },
    },
  },
};
