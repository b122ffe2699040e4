import type { Locale } from './locale.ts';

// Dates as people here read them: 21.11.2026 in German, 21/11/2026 in English.
const tag = (locale: Locale) => (locale === 'en' ? 'en-GB' : 'de-DE');

/** A day ("2026-11-21" or an ISO instant) as a date. */
export const formatDate = (value: string, locale: Locale) => new Date(value).toLocaleDateString(tag(locale));

/** An ISO instant as date and time, short. */
export const formatDateTime = (value: string, locale: Locale) =>
  new Date(value).toLocaleString(tag(locale), { dateStyle: 'short', timeStyle: 'short' });
