import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import type { Locale } from '../../shared/locale.ts';
import { englishMessages, germanMessages } from './messages.ts';

export function createI18nProvider(initialLocale: Locale) {
  return polyglotI18nProvider(
    (locale) => (locale === 'en' ? englishMessages : germanMessages) as TranslationMessages,
    initialLocale,
    [
      { locale: 'de', name: 'Deutsch' },
      { locale: 'en', name: 'English' },
    ],
  );
}
