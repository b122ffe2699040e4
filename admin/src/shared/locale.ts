// The interface language of the back office and of /me: German by default, the choice remembered on
// this device and shared by both pages and the login page (ui_locales).
export const locales = ['de', 'en'] as const;
export type Locale = (typeof locales)[number];

const storageKey = 'street-paper.locale';

export function storedLocale(): Locale {
  try {
    const value = localStorage.getItem(storageKey);
    return value === 'en' ? 'en' : 'de';
  } catch {
    return 'de';
  }
}

export function rememberLocale(locale: Locale): void {
  try {
    localStorage.setItem(storageKey, locale);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  document.documentElement.lang = locale;
}
