// The installation's currency: its ISO 4217 code, how many digits its minor unit has, and how a reader
// sees an amount. Amounts are integers in the minor unit everywhere (cents, pence, Rappen; whole yen),
// exactly as Stripe counts them. The back office, /me and the shop import this file, so it stays free
// of Node and server imports.

/**
 * Stripe's zero-decimal currencies: an amount is a whole number of the currency's unit (500 JPY is
 * `amount: 500`), https://docs.stripe.com/currencies#zero-decimal. ISK, HUF, TWD and UGX, which Stripe
 * treats as zero-decimal but still counts with two decimals in the API, and the three-decimal ones
 * (https://docs.stripe.com/currencies#three-decimal) are not offered below.
 */
const zeroDecimal = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/**
 * The currencies an installation may keep its books in: those of the countries street papers sell in,
 * each one Stripe charges and pays out in (https://docs.stripe.com/currencies#presentment-currencies).
 */
export const currencies = [
  'EUR',
  'CHF',
  'GBP',
  'USD',
  'CAD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'AUD',
  'NZD',
  'JPY',
  'KRW',
] as const;
export type Currency = (typeof currencies)[number];

export function isCurrency(code: string): code is Currency {
  return (currencies as readonly string[]).includes(code);
}

/** The digits after the decimal point of the currency's amounts as Stripe counts them: 2, or 0 for JPY. */
export function minorUnitExponent(currency: string): 0 | 2 {
  return zeroDecimal.has(currency.toUpperCase()) ? 0 : 2;
}

/**
 * Stripe's smallest charge in the currency, in its minor unit
 * (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts); one whole unit for a
 * currency that table does not name.
 */
const minimumCharges: Record<string, number> = {
  EUR: 50,
  CHF: 50,
  GBP: 30,
  USD: 50,
  CAD: 50,
  AUD: 50,
  NZD: 50,
  SEK: 300,
  NOK: 300,
  DKK: 250,
  PLN: 200,
  CZK: 1500,
  JPY: 50,
};
export const minimumCharge = (currency: string) =>
  minimumCharges[currency.toUpperCase()] ?? (minorUnitExponent(currency) === 0 ? 1 : 100);

/** How many minor units make one unit: 100 (cents), 1 (yen). */
export const minorPerMajor = (currency: string) => (minorUnitExponent(currency) === 0 ? 1 : 100);

/** The code as Stripe's requests and objects write it: lower case ("chf"). */
export const stripeCurrency = (currency: string) => currency.toLowerCase();

/**
 * The country whose way of writing the currency the reader's language borrows: "CHF 3.50" in Swiss
 * German, "3,50 €" in German German. The euro in English keeps Ireland's "€3.50".
 */
const homeRegion: Record<string, { de: string; en: string }> = {
  EUR: { de: 'DE', en: 'IE' },
  CHF: { de: 'CH', en: 'CH' },
  GBP: { de: 'DE', en: 'GB' },
  USD: { de: 'DE', en: 'US' },
  CAD: { de: 'DE', en: 'CA' },
  AUD: { de: 'DE', en: 'AU' },
  NZD: { de: 'DE', en: 'NZ' },
  JPY: { de: 'DE', en: 'JP' },
};

/** The locale an amount is written in for a reader of `language` ('de', 'en'): de-CH for francs. */
export function moneyLocale(language: string, currency: string): string {
  const lang = language.slice(0, 2).toLowerCase() === 'de' ? 'de' : 'en';
  const region = homeRegion[currency]?.[lang];
  return region ? `${lang}-${region}` : lang;
}

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, currency: string, plain: boolean): Intl.NumberFormat {
  const key = `${locale}|${currency}|${plain}`;
  let format = formats.get(key);
  if (!format) {
    const digits = minorUnitExponent(currency);
    format = new Intl.NumberFormat(
      locale,
      plain
        ? { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }
        : { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits },
    );
    formats.set(key, format);
  }
  return format;
}

/** An amount in minor units for a reader: "CHF 3.50" (de-CH), "£3.50" (en-GB), "3,50 €" (de-DE), "¥500". */
export function formatMoney(minor: number, currency: string, locale: string): string {
  return numberFormat(locale, currency, false).format(minor / minorPerMajor(currency));
}

/** An amount for a reader of `language` in the installation's currency (see `moneyLocale`). */
export function formatAmount(minor: number, currency: string, language: string): string {
  return formatMoney(minor, currency, moneyLocale(language, currency));
}

/** The amount as a number without sign or grouping, for a form field or a CSV: "3.50", "3,50", "500". */
export function formatPlain(minor: number, currency: string, locale: string): string {
  return numberFormat(locale, currency, true).format(minor / minorPerMajor(currency));
}

/** The currency's own sign as the reader's locale writes it: "€", "£", "CHF", "¥". */
export function currencySymbol(currency: string, locale: string): string {
  return (
    new Intl.NumberFormat(locale, { style: 'currency', currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
}
