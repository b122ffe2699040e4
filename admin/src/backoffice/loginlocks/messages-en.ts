import type { de } from './messages-de.ts';

// The locked logins screen's texts; merged in i18n/german.ts and i18n/english.ts.
// In English; the German texts are in messages-de.ts, so that each language loads alone.
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
