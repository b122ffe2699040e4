// The locked logins screen's texts; merged in i18n/german.ts and i18n/english.ts.
// In German; the English texts are in messages-en.ts, so that each language loads alone.
export const de = {
  app: {
    menu: { loginlocks: 'Gesperrte Anmeldungen' },
    page: { loginlocks: 'Gesperrte Anmeldungen' },
    loginlocks: {
      empty: 'Keine Anmeldung ist gesperrt.',
      unlock: 'Entsperren',
      confirm_title: 'Anmeldung „%{username}“ entsperren?',
      confirm_content:
        'Alle Adressen dürfen es dann sofort wieder versuchen. Bitte nur, wenn sich die Person bei euch gemeldet hat.',
      unlocked: 'Die Anmeldung „%{username}“ ist entsperrt.',
    },
  },
  resources: {
    'login-locks': {
      name: 'Gesperrte Anmeldung |||| Gesperrte Anmeldungen',
      fields: {
        username: 'Benutzername',
        addresses: 'Gesperrte Adressen',
        attempts: 'Versuche (alle Adressen)',
        until: 'Gesperrt bis',
      },
    },
  },
};
