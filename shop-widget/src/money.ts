import { formatAmount, minorUnitExponent } from '../../api/src/money/currency.ts';

// Money in the shop is integers in the installation's minor unit (cents; whole yen), as in the API.
// Amounts typed by a customer are read digit by digit, never through a float: "1,50" and "1.50" are
// both 150 cents, and nothing is lost to rounding.

export type Lang = 'de' | 'en';

/** "3,00 €" in German (no-break space before the sign), "€3.00" in English; "CHF 3.50", "¥500". */
export function formatMoney(cents: number, lang: Lang, currency = 'EUR'): string {
  return formatAmount(cents, currency, lang);
}

export type MoneyProblem = 'empty' | 'invalid' | 'negative' | 'cents' | 'tooHigh';
export type ParsedMoney = { cents: number } | { problem: MoneyProblem };

/** More whole units than any order can hold; longer input is too high, not unreadable. */
const maxWholeDigits = 7;

/**
 * Reads an amount as typed: "1,50", "1.50", "1,5", "2", "2 €", "CHF 2". Refuses a minus, letters,
 * more decimals than the currency has (none for yen), and anything above `max` minor units.
 */
export function parseMoney(text: string, max = Number.MAX_SAFE_INTEGER, currency = 'EUR'): ParsedMoney {
  const digits = minorUnitExponent(currency);
  const clean = text.trim().replace(/^(?:[€£$¥]|[A-Z]{3})\s*|\s*(?:[€£$¥]|[A-Z]{3}|kr)$/g, '');
  if (!clean) return { problem: 'empty' };
  if (/^[-\u2212]/.test(clean)) return { problem: 'negative' };
  const match = /^(\d*)(?:[.,](\d*))?$/.exec(clean);
  if (!match || (!match[1] && !match[2])) return { problem: 'invalid' };
  const [, whole, fraction = ''] = match;
  // "500,00" is 500 yen: zeros after the point say nothing, any other digit there is refused.
  const decimals = digits === 0 ? fraction.replace(/0+$/, '') : fraction;
  if (decimals.length > digits) return { problem: 'cents' };
  if (whole.replace(/^0+/, '').length > maxWholeDigits) return { problem: 'tooHigh' };
  const cents = Number(whole || '0') * 10 ** digits + (digits ? Number(fraction.padEnd(digits, '0')) : 0);
  return cents > max ? { problem: 'tooHigh' } : { cents };
}

/** The highest tip that keeps the order below the maximum order amount (the API refuses total ≥ max). */
export const maxTip = (itemsTotal: number, maxOrderAmount: number) => Math.max(0, maxOrderAmount - 1 - itemsTotal);

/** A tip in minor units as the custom-tip field shows it again: "1,50" / "1.50"; "500" yen. */
export function moneyInput(cents: number, lang: Lang, currency = 'EUR'): string {
  if (minorUnitExponent(currency) === 0) return String(cents);
  return `${Math.floor(cents / 100)}${lang === 'de' ? ',' : '.'}${String(cents % 100).padStart(2, '0')}`;
}
