// Money in the shop is integer cents, as in the API. Amounts typed by a customer are read digit by
// digit, never through a float: "1,50" and "1.50" are both 150 cents, and nothing is lost to rounding.

export type Lang = 'de' | 'en';

const grouped = (whole: number, separator: string) => String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, separator);

/** "3,00 €" in German (no-break space before the sign), "€3.00" in English. */
export function formatMoney(cents: number, lang: Lang): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return lang === 'de'
    ? `${sign}${grouped(whole, '.')},${fraction}\u00a0€`
    : `${sign}€${grouped(whole, ',')}.${fraction}`;
}

export type MoneyProblem = 'empty' | 'invalid' | 'negative' | 'cents' | 'tooHigh';
export type ParsedMoney = { cents: number } | { problem: MoneyProblem };

/** More whole euros than any order can hold; longer input is too high, not unreadable. */
const maxWholeDigits = 7;

/**
 * Reads an amount in euros as typed: "1,50", "1.50", "1,5", "2", "2 €". Refuses a minus, letters,
 * more than two decimals, and anything above `max` cents.
 */
export function parseMoney(text: string, max = Number.MAX_SAFE_INTEGER): ParsedMoney {
  const clean = text.trim().replace(/^€\s*|\s*€$/g, '');
  if (!clean) return { problem: 'empty' };
  if (/^[-\u2212]/.test(clean)) return { problem: 'negative' };
  const match = /^(\d*)(?:[.,](\d*))?$/.exec(clean);
  if (!match || (!match[1] && !match[2])) return { problem: 'invalid' };
  const [, whole, fraction = ''] = match;
  if (fraction.length > 2) return { problem: 'cents' };
  if (whole.replace(/^0+/, '').length > maxWholeDigits) return { problem: 'tooHigh' };
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  return cents > max ? { problem: 'tooHigh' } : { cents };
}

/** The highest tip that keeps the order below the maximum order amount (the API refuses total ≥ max). */
export const maxTip = (itemsTotal: number, maxOrderAmount: number) => Math.max(0, maxOrderAmount - 1 - itemsTotal);

/** A tip in cents as the custom-tip field shows it again: "1,50" / "1.50". */
export function moneyInput(cents: number, lang: Lang): string {
  return `${Math.floor(cents / 100)}${lang === 'de' ? ',' : '.'}${String(cents % 100).padStart(2, '0')}`;
}
