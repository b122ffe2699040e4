import type { Locale } from './locale.ts';

// Dates as people here read them: 21.11.2026 in German, 21/11/2026 in English, whatever the
// browser's own language is.
export const dateTag = (locale: Locale) => (locale === 'en' ? 'en-GB' : 'de-DE');

/** A day ("2026-11-21" or an ISO instant) as a date. */
export const formatDate = (value: string, locale: Locale) => new Date(value).toLocaleDateString(dateTag(locale));

/** An ISO instant as date and time, short. */
export const formatDateTime = (value: string, locale: Locale) =>
  new Date(value).toLocaleString(dateTag(locale), { dateStyle: 'short', timeStyle: 'short' });

const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;

/** How a day input shows its day: "21.11.2026" in German, "21/11/2026" in English. */
export function formatDay(iso: string, locale: Locale): string {
  const match = isoDay.exec(iso);
  if (!match) return iso;
  const [, year, month, day] = match;
  return locale === 'en' ? `${day}/${month}/${year}` : `${day}.${month}.${year}`;
}

/** What a day input expects, as a hint in the field. */
export const dayPattern = (locale: Locale) => (locale === 'en' ? 'DD/MM/YYYY' : 'TT.MM.JJJJ');

/**
 * A typed day as the API's "YYYY-MM-DD": "21.11.2026" or "21.11.26" in German, "21/11/2026" in
 * English, and "2026-11-21" in both; undefined for anything else, including days no calendar has.
 */
export function parseDay(text: string, locale: Locale): string | undefined {
  const value = text.trim();
  const separator = locale === 'en' ? '/' : '.';
  let parts: [string, string, string] | undefined;
  const iso = isoDay.exec(value);
  if (iso) parts = [iso[1], iso[2], iso[3]];
  else {
    const local = value.split(separator);
    if (local.length === 3 && local.every((part) => /^\d{1,4}$/.test(part))) {
      const [day, month, year] = local as [string, string, string];
      if (year.length === 4 || year.length === 2) parts = [year.length === 2 ? `20${year}` : year, month, day];
    }
  }
  if (!parts) return undefined;
  const [year, month, day] = parts.map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
