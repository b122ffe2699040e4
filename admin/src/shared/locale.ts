// The interface language of the back office and of /me: German by default, the choice remembered on
// this device and shared by both pages and the login page (ui_locales).
export const locales = ['de', 'en'] as const;
export type Locale = (typeof locales)[number];

const storageKey = 'street-paper.locale';

/** The language chosen on this device, or null while nobody chose one here. */
export function chosenLocale(): Locale | null {
  try {
    const value = localStorage.getItem(storageKey);
    return value === 'en' || value === 'de' ? value : null;
  } catch {
    return null;
  }
}

export function storedLocale(): Locale {
  return chosenLocale() ?? 'de';
}

export function rememberLocale(locale: Locale): void {
  try {
    localStorage.setItem(storageKey, locale);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  document.documentElement.lang = locale;
}
