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
 * "1,000.50", "1 000,50", "1.000.000" (a trailing or leading "€" is ignored). One separator followed
 * by three digits and nothing else ("1.000", "12,505") is refused: it is a thousand in one language
 * and three decimals in the other, and the screens show no language's guess about money. Anything
 * else (negative, three decimals, text, mixed grouping) → undefined.
 */
export function parseEuros(text: string): number | undefined {
  const bare = text
    .replace(/€/g, '')
    .trim()
    .replace(/[\s\u00a0\u202f]+/g, ' ');
  const plain = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(bare);
  const grouped = /^(\d{1,3})((?:([ .,])\d{3})(?:\3\d{3})*)(?:([.,])(\d{1,2}))?$/.exec(bare);
  let whole: string;
  let decimals: string | undefined;
  if (plain) [whole, decimals] = [plain[1], plain[2]];
  else if (grouped) {
    const [, head, groups, separator, decimalPoint, fraction] = grouped;
    if (decimalPoint === separator) return undefined;
    if (!decimalPoint && separator !== ' ' && groups.length === 4) return undefined;
    [whole, decimals] = [head + groups.replace(/\D/g, ''), fraction];
  } else return undefined;
  if (whole.length > 9) return undefined;
  return Number(whole) * 100 + Number((decimals ?? '0').padEnd(2, '0'));
}
