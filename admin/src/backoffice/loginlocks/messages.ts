// The locked logins screen's texts; merged in i18n/german.ts and i18n/english.ts.
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

export const en: typeof de = {
  app: {
    menu: { loginlocks: 'Locked logins' },
    page: { loginlocks: 'Locked logins' },
    loginlocks: {
      empty: 'No login is locked.',
      unlock: 'Unlock',
      confirm_title: 'Unlock the login “%{username}”?',
      confirm_content: 'Every address may then try again at once. Please do so only when the person has contacted you.',
      unlocked: 'The login “%{username}” is unlocked.',
    },
  },
  resources: {
    'login-locks': {
      name: 'Locked login |||| Locked logins',
      fields: {
        username: 'Username',
        addresses: 'Locked addresses',
        attempts: 'Attempts (all addresses)',
        until: 'Locked until',
      },
    },
  },
};
