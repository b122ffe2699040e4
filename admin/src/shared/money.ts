import type { Locale } from './locale.ts';

// The API counts money in integer cents; people read and type euros. These are the only conversions.

const formats = new Map<Locale, Intl.NumberFormat>();

export function formatCents(cents: number, locale: Locale): string {
  if (!formats.has(locale))
    formats.set(
      locale,
      new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-IE', { style: 'currency', currency: 'EUR' }),
    );
  return formats.get(locale)!.format(cents / 100);
}

/** Cents as an amount to edit: 150 → "1,50" (German) or "1.50". */
export function centsToInput(cents: number, locale: Locale): string {
  const text = (cents / 100).toFixed(2);
  return locale === 'de' ? text.replace('.', ',') : text;
}

/** "1,50", "1.5" or "2" → whole cents; anything else (negative, three decimals, text) → undefined. */
export function parseEuros(text: string): number | undefined {
  const match = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}
