import {
  currencySymbol,
  formatAmount,
  formatPlain,
  minorUnitExponent,
  moneyLocale,
} from '../../../api/src/money/currency.ts';
import type { Locale } from './locale.ts';

// The API counts money in integers of the installation's minor unit (cents, Rappen, pence; whole yen);
// people read and type amounts in the currency's unit. These are the back office's and /me's only
// conversions, written as api/src/money/currency.ts writes amounts for the shop and the receipts.

/** formatAmount: an amount for a reader of `locale`, "CHF 3.50" (German), "£3.50" (English), "3,50 €", "¥500". */
export { formatAmount, minorUnitExponent };

/** The currency's sign beside an amount field: "CHF", "£", "€", "¥" (as the reader's locale writes it). */
export const moneySign = (currency: string, locale: Locale): string =>
  currencySymbol(currency, moneyLocale(locale, currency));

/** An amount to edit, with the currency's own decimals and no sign: "1,50" (German), "1.50", "500" (yen). */
export const amountToInput = (minor: number, currency: string, locale: Locale): string =>
  formatPlain(minor, currency, moneyLocale(locale, currency));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What may stand before or after a typed amount: the code ("CHF") and its signs in both languages ("£", "€", "¥"). */
function signs(currency: string): RegExp {
  const written = new Set([currency, ...(['de', 'en'] as const).map((locale) => moneySign(currency, locale))]);
  return new RegExp([...written].map(escape).join('|'), 'gi');
}

/**
 * An amount as people type it → integer minor units, with the currency's digits after the decimal
 * point (two; none for the yen): "1,50", "1.5", "2", and with thousands "1.000,50", "1,000.50",
 * "1 000,50", "1.000.000" (a leading or trailing sign of the currency, "€", "£", "CHF", is ignored).
 * With decimals, one separator followed by three digits and nothing else ("1.000", "12,505") is
 * refused: it is a thousand in one language and three decimals in the other, and the screens show no
 * language's guess about money. Without decimals it can only be a thousand ("1.000" yen), and any
 * decimals ("5.00", "5,5" yen) are refused. Anything else (negative, too many decimals, text, mixed
 * grouping) → undefined.
 */
export function parseAmount(text: string, currency: string): number | undefined {
  const digits = minorUnitExponent(currency);
  const bare = text
    .replace(signs(currency), '')
    .trim()
    .replace(/[\s\u00a0\u202f]+/g, ' ');
  const plain = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(bare);
  const grouped = /^(\d{1,3})((?:([ .,'’])\d{3})(?:\3\d{3})*)(?:([.,])(\d{1,2}))?$/.exec(bare);
  let whole: string;
  let decimals: string | undefined;
  if (plain) [whole, decimals] = [plain[1], plain[2]];
  else if (grouped) {
    const [, head, groups, separator, decimalPoint, fraction] = grouped;
    if (decimalPoint === separator) return undefined;
    const ambiguous = !decimalPoint && (separator === '.' || separator === ',') && groups.length === 4;
    if (ambiguous && digits > 0) return undefined;
    [whole, decimals] = [head + groups.replace(/\D/g, ''), fraction];
  } else return undefined;
  if (whole.length > 9) return undefined;
  if (decimals !== undefined && digits === 0) return undefined;
  return Number(whole) * 10 ** digits + Number((decimals ?? '').padEnd(digits, '0') || '0');
}
