import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import type { Locale } from '../../shared/locale.ts';

/**
 * The texts of one language. Each language is a file of its own that loads when it is needed: the
 * back office's first screen carries only the language it is shown in.
 */
export function loadMessages(locale: Locale): Promise<TranslationMessages> {
  const messages =
    locale === 'en'
      ? import('./english.ts').then((module) => module.englishMessages)
      : import('./german.ts').then((module) => module.germanMessages);
  return messages as Promise<TranslationMessages>;
}

/** The back office's translations, starting in `initialLocale` with its texts already loaded. */
export function createI18nProvider(initialLocale: Locale, initialMessages: TranslationMessages) {
  return polyglotI18nProvider(
    (locale) => (locale === initialLocale ? initialMessages : loadMessages(locale === 'en' ? 'en' : 'de')),
    initialLocale,
    [
      { locale: 'de', name: 'Deutsch' },
      { locale: 'en', name: 'English' },
    ],
  );
}
