import type { Locale } from './locale.ts';

// Dates as people here read them: 21.11.2026 in German, 21/11/2026 in English, whatever the
// browser's own language is.
export const dateTag = (locale: Locale) => (locale === 'en' ? 'en-GB' : 'de-DE');

// Times are the newspaper's (TIME_ZONE, which GET /api/settings answers as timeZone), whatever the
// office computer's zone: the receipt, the CSV and the screen then show a payout at the same hour.
// One zone per server, fixed at its start, so it is set once before anything renders.
let newspaperZone = 'Europe/Berlin';

/** Makes every date and time of this page the newspaper's; called with the settings' timeZone. */
export function setTimeZone(zone: string): void {
  newspaperZone = zone;
  formats.clear();
}

/** The newspaper's time zone (IANA name). */
export const timeZone = () => newspaperZone;

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per language, zone and style: lists format hundreds of rows. */
function format(tag: string, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${tag} ${zone} ${JSON.stringify(options)}`;
  let found = formats.get(key);
  if (!found) formats.set(key, (found = new Intl.DateTimeFormat(tag, { ...options, timeZone: zone })));
  return found;
}

const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A day as a date: a calendar day ("2026-11-21", a birthday, a statistics day) as itself, an ISO
 * instant as its day in the newspaper's zone.
 */
export function formatDate(value: string, locale: Locale): string {
  const day = isoDay.test(value);
  return format(dateTag(locale), day ? 'UTC' : newspaperZone, {}).format(new Date(day ? `${value}T00:00:00Z` : value));
}

/** An ISO instant as date and time, short, in the newspaper's zone. */
export const formatDateTime = (value: string, locale: Locale) =>
  format(dateTag(locale), newspaperZone, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(value));

/** A month ("2026-05") as its name and year: "Mai 2026", "May 2026". */
export const formatMonth = (month: string, locale: Locale) =>
  format(dateTag(locale), 'UTC', { month: 'long', year: 'numeric' }).format(new Date(`${month}-15T12:00:00Z`));

/** The newspaper's calendar day of an instant (now unless given), as the API's "YYYY-MM-DD". */
export function localDay(at: Date = new Date()): string {
  const parts = format('en-CA', newspaperZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The calendar day `days` after (or before) a "YYYY-MM-DD" day; month lengths and leap years included. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

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
