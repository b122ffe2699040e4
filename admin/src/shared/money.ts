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

/**
 * Euros as people type them → whole cents: "1,50", "1.5", "2", and with thousands "1.000,50",
 * "1,000.50", "1 000,50" in either language (a separator followed by three digits groups thousands,
 * one followed by one or two digits is the decimal point, so no language makes another's input
 * wrong); a trailing or leading "€" is ignored. Anything else (negative, three decimals, text, mixed
 * grouping) → undefined.
 */
export function parseEuros(text: string): number | undefined {
  const bare = text.replace(/[\s\u00a0\u202f]*€[\s\u00a0\u202f]*/g, '').trim();
  const grouped = /^(\d{1,3}(?:([.,\s\u00a0\u202f])\d{3})(?:\2\d{3})*)(?:([.,])(\d{1,2}))?$/.exec(bare);
  const plain = /^(\d{1,9})(?:([.,])(\d{1,2}))?$/.exec(bare);
  let whole: string;
  let decimals: string | undefined;
  if (plain) [whole, decimals] = [plain[1], plain[3]];
  else if (grouped && grouped[2] !== grouped[3]) [whole, decimals] = [grouped[1].replace(/\D/g, ''), grouped[4]];
  else return undefined;
  if (whole.length > 9) return undefined;
  return Number(whole) * 100 + Number((decimals ?? '0').padEnd(2, '0'));
}
