// What differs by country, by law or by custom, for a street paper selling there: the VAT (or sales
// tax) on newspapers, tips and other items, what a receipt must show, how cash is rounded at the
// counter, the coins and notes of the till, whether the till must be signed, the time zone and the
// week's first day. Each value names the page it comes from; a rate changes by law, so the source is
// where to check it again. The back office and the seed import this file, so it stays free of Node
// and server imports.
//
// Amounts are integers in the currency's minor unit (Stripe's exponent: JPY has none); rates are
// hundredths of a percent (700 for 7 %, 260 for 2.6 %), as vat_rate stores them (migration 029).

export const countries = ['DE', 'AT', 'CH', 'GB', 'US', 'CA', 'SE', 'JP'] as const;
export type Country = (typeof countries)[number];

export interface TaxPreset {
  /** Sales tax instead of VAT, set per state or province: the preset books none until a rate is set. */
  bySubdivision: boolean;
  /** The rate on a printed newspaper sold by a vendor (hundredths of a percent). */
  newspaper: number;
  /**
   * The rate on a tip. A tip given freely, for nothing in return, is no consideration for a supply in
   * any of these countries, so it carries no VAT (0).
   */
  tip: number;
  /** The standard rate, for other items (a mug, a calendar, a digital edition where it is not reduced). */
  standard: number;
  /** The rate on the digital edition (e-paper). */
  digital: number;
  /** The page the rates come from. */
  source: string;
}

export interface CashRounding {
  /** Cash amounts at the counter are rounded to a multiple of this (minor units); 1: not rounded. */
  step: number;
  /** The page the rule comes from. */
  source: string;
}

export interface CountryPreset {
  country: Country;
  /** The currency a new installation in the country takes (ISO 4217). */
  currency: string;
  /** The locale receipts and amounts are formatted for by default. */
  locale: string;
  tax: TaxPreset;
  /** What a small receipt (no buyer named) must show, as the law names it, and its source. */
  receipt: { law: string; shows: readonly string[]; source: string };
  cashRounding: CashRounding;
  /** The coins and notes of the till, in minor units, largest first; what a count at the close lists. */
  denominations: { values: readonly number[]; source: string };
  /**
   * The fiscal law a till is signed under: signing exists only for DE (KassenSichV, a TSE) and AT
   * (RKSV). Elsewhere it is null, and a till cannot be switched to another country's signing.
   */
  fiscal: { law: 'DE' | 'AT' | null; note: string; source: string };
  /** The default time zone (IANA); a country with several takes its most populous. */
  timeZone: string;
  /** 1 = Monday … 7 = Sunday, as CLDR's weekData has it (https://github.com/unicode-org/cldr/blob/main/common/supplemental/supplementalData.xml). */
  firstDayOfWeek: 1 | 7;
}

const noRounding: CashRounding = { step: 1, source: 'The smallest coin is the minor unit: cash is paid to the cent.' };

export const presets: Record<Country, CountryPreset> = {
  DE: {
    country: 'DE',
    currency: 'EUR',
    locale: 'de-DE',
    tax: {
      bySubdivision: false,
      // § 12 (2) Nr. 1 UStG with Anlage 2 Nr. 49: newspapers 7 %, digital editions since 2019 too (§ 12 (2) Nr. 14).
      newspaper: 700,
      tip: 0,
      standard: 1900,
      digital: 700,
      source: 'https://www.gesetze-im-internet.de/ustg_1980/__12.html',
    },
    receipt: {
      law: 'Kleinbetragsrechnung, § 33 UStDV (up to 250 €), and § 6 KassenSichV with the TSE block',
      shows: ['seller name and address', 'date', 'quantity and description', 'gross amount', 'VAT rate'],
      source: 'https://www.gesetze-im-internet.de/ustdv_1980/__33.html',
    },
    cashRounding: noRounding,
    denominations: {
      // Euro coins (1 cent … 2 euro) and notes (5 … 500 euro; the 500 is no longer issued but stays legal tender).
      values: [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
      source: 'https://www.ecb.europa.eu/euro/coins/html/index.en.html',
    },
    fiscal: {
      law: 'DE',
      note: 'KassenSichV: every cash movement signed by a TSE (§ 146a AO).',
      source: 'https://www.gesetze-im-internet.de/kassensichv/',
    },
    timeZone: 'Europe/Berlin',
    firstDayOfWeek: 1,
  },
  AT: {
    country: 'AT',
    currency: 'EUR',
    locale: 'de-AT',
    tax: {
      bySubdivision: false,
      // § 10 (2) Z 1 lit. a UStG 1994 with Anlage 1 Z 33: newspapers and (since 2020) e-papers 10 %.
      newspaper: 1000,
      tip: 0,
      standard: 2000,
      digital: 1000,
      source:
        'https://www.bmf.gv.at/themen/steuern/selbststaendige-unternehmer/umsatzsteuer/umsatzsteuer-steuersaetze.html',
    },
    receipt: {
      law: 'Kleinbetragsrechnung, § 11 (6) UStG 1994 (up to 400 €), and the Belegerteilungspflicht § 132a BAO with the RKSV code',
      shows: ['seller name and address', 'date', 'quantity and description', 'gross amount', 'VAT rate'],
      source:
        'https://www.bmf.gv.at/themen/steuern/selbststaendige-unternehmer/umsatzsteuer/umsatzsteuer-rechnung.html',
    },
    cashRounding: noRounding,
    denominations: {
      values: [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
      source: 'https://www.ecb.europa.eu/euro/coins/html/index.en.html',
    },
    fiscal: {
      law: 'AT',
      note: 'RKSV: every receipt signed and chained (Registrierkassensicherheitsverordnung).',
      source: 'https://www.bmf.gv.at/themen/steuern/selbststaendige-unternehmer/registrierkassen.html',
    },
    timeZone: 'Europe/Vienna',
    firstDayOfWeek: 1,
  },
  CH: {
    country: 'CH',
    currency: 'CHF',
    locale: 'de-CH',
    tax: {
      bySubdivision: false,
      // Art. 25 (2) lit. a Ziff. 9 MWSTG: newspapers and their electronic editions at the reduced rate,
      // 2.6 % since 1 January 2024; the normal rate 8.1 %.
      newspaper: 260,
      tip: 0,
      standard: 810,
      digital: 260,
      source: 'https://www.estv.admin.ch/estv/de/home/mehrwertsteuer/mwst-steuersaetze.html',
    },
    receipt: {
      law: 'Art. 26 MWSTG: for a receipt up to CHF 400 the buyer need not be named',
      shows: ['seller name, address and UID/MWST number', 'date', 'description', 'amount', 'VAT rate'],
      source: 'https://www.fedlex.admin.ch/eli/cc/2009/615/de#art_26',
    },
    cashRounding: {
      // The smallest coin is 5 centimes: cash totals are rounded to 0.05; a card pays the exact amount.
      step: 5,
      source: 'https://www.snb.ch/en/the-snb/mandates-goals/cash/coins',
    },
    denominations: {
      // Coins 5, 10, 20, 50 centimes, 1, 2, 5 francs; notes 10, 20, 50, 100, 200, 1000 francs.
      values: [100000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5],
      source: 'https://www.snb.ch/en/the-snb/mandates-goals/cash/banknotes',
    },
    fiscal: {
      law: null,
      note: 'Switzerland has no law that signs a till: signing is off, and no till can take another country’s.',
      source: 'https://www.estv.admin.ch/estv/de/home/mehrwertsteuer.html',
    },
    timeZone: 'Europe/Zurich',
    firstDayOfWeek: 1,
  },
  GB: {
    country: 'GB',
    currency: 'GBP',
    locale: 'en-GB',
    tax: {
      bySubdivision: false,
      // VAT Notice 701/10: newspapers are zero-rated, and since 1 May 2020 their digital editions too.
      newspaper: 0,
      tip: 0,
      standard: 2000,
      digital: 0,
      source: 'https://www.gov.uk/guidance/zero-rating-books-and-printed-matter-vat-notice-70110',
    },
    receipt: {
      law: 'Simplified VAT invoice (up to £250), VAT Notice 700/21',
      shows: [
        'seller name and address',
        'VAT registration number',
        'time of supply',
        'description',
        'total including VAT',
        'VAT rate',
      ],
      source: 'https://www.gov.uk/guidance/record-keeping-for-vat-notice-70021',
    },
    cashRounding: noRounding,
    denominations: {
      // Coins 1p … £2, notes £5, £10, £20, £50.
      values: [5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1],
      source: 'https://www.bankofengland.co.uk/banknotes',
    },
    fiscal: {
      law: null,
      note: 'The United Kingdom has no law that signs a till: signing is off.',
      source: 'https://www.gov.uk/guidance/record-keeping-for-vat-notice-70021',
    },
    timeZone: 'Europe/London',
    firstDayOfWeek: 1,
  },
  US: {
    country: 'US',
    currency: 'USD',
    locale: 'en-US',
    tax: {
      // Sales tax is a state's (and a county's or city's) matter, and many states exempt newspapers:
      // the preset books none until the paper sets its rate in the settings.
      bySubdivision: true,
      newspaper: 0,
      tip: 0,
      standard: 0,
      digital: 0,
      source: 'https://www.streamlinedsalestax.org/',
    },
    receipt: {
      law: 'No federal rule; a state that taxes the sale asks the tax to be shown apart',
      shows: ['seller name', 'date', 'description', 'amount', 'sales tax, where charged'],
      source: 'https://www.streamlinedsalestax.org/',
    },
    cashRounding: noRounding,
    denominations: {
      // Coins 1, 5, 10, 25, 50 cents and $1; notes $1, $2, $5, $10, $20, $50, $100.
      values: [10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1],
      source: 'https://www.usmint.gov/learn/coins-and-medals/circulating-coins',
    },
    fiscal: {
      law: null,
      note: 'The United States have no law that signs a till: signing is off.',
      source: 'https://www.irs.gov/businesses/small-businesses-self-employed/recordkeeping',
    },
    timeZone: 'America/New_York',
    firstDayOfWeek: 7,
  },
  CA: {
    country: 'CA',
    currency: 'CAD',
    locale: 'en-CA',
    tax: {
      // GST (5 %) or HST (13 to 15 %) by province, some with a provincial sales tax beside it and rebates
      // for printed books and newspapers in some: the preset books none until the paper sets its rate.
      bySubdivision: true,
      newspaper: 0,
      tip: 0,
      standard: 0,
      digital: 0,
      source:
        'https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/gst-hst-businesses/charge-collect-which-rate.html',
    },
    receipt: {
      law: 'GST/HST: the registration number on a receipt of $30 or more (Input Tax Credit Information Regulations)',
      shows: ['seller name', 'date', 'total', 'GST/HST registration number from $30', 'tax charged'],
      source:
        'https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/gst-hst-businesses/charge-collect-invoice.html',
    },
    cashRounding: {
      // The penny left circulation in 2013: cash totals are rounded to 0.05, card payments are not.
      step: 5,
      source: 'https://www.canada.ca/en/revenue-agency/programs/about-canada-revenue-agency-cra/phasing-penny.html',
    },
    denominations: {
      // Coins 5, 10, 25 cents, $1, $2; notes $5, $10, $20, $50, $100.
      values: [10000, 5000, 2000, 1000, 500, 200, 100, 25, 10, 5],
      source: 'https://www.bankofcanada.ca/banknotes/',
    },
    fiscal: {
      law: null,
      note: 'Canada has no law that signs a till (Québec’s SRM is for restaurants): signing is off.',
      source: 'https://www.revenuquebec.ca/en/businesses/mandatory-billing/',
    },
    timeZone: 'America/Toronto',
    firstDayOfWeek: 7,
  },
  SE: {
    country: 'SE',
    currency: 'SEK',
    locale: 'sv-SE',
    tax: {
      bySubdivision: false,
      // Mervärdesskattelagen: newspapers and their digital editions 6 %, the general rate 25 %.
      newspaper: 600,
      tip: 0,
      standard: 2500,
      digital: 600,
      source:
        'https://www.skatteverket.se/foretag/moms/saljavarorochtjanster/momssatspavarorochtjanster.4.58d555751259e4d66168000409.html',
    },
    receipt: {
      law: 'Förenklad faktura (mervärdesskattelagen 17 kap.) and the kassaregister law (SKVFS 2014:9)',
      shows: ['seller name and organisation number', 'date', 'description', 'amount', 'VAT amount and rate'],
      source: 'https://www.skatteverket.se/foretag/drivaforetag/kassaregister.4.5c13cb6b1198121ee8580002518.html',
    },
    cashRounding: {
      // The öre coins left circulation in 2010: cash totals are rounded to whole kronor.
      step: 100,
      source: 'https://www.riksbank.se/en-gb/notes-and-coins/',
    },
    denominations: {
      // Coins 1, 2, 5, 10 kronor; notes 20, 50, 100, 200, 500, 1000 kronor.
      values: [100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100],
      source: 'https://www.riksbank.se/en-gb/notes-and-coins/',
    },
    fiscal: {
      // A Swedish kassaregister needs a certified control unit (kontrollenhet), which no provider here
      // connects to: signing is off and says so.
      law: null,
      note: 'Sweden’s kassaregister needs a certified control unit, which this product does not connect to: signing is off.',
      source: 'https://www.skatteverket.se/foretag/drivaforetag/kassaregister.4.5c13cb6b1198121ee8580002518.html',
    },
    timeZone: 'Europe/Stockholm',
    firstDayOfWeek: 1,
  },
  JP: {
    country: 'JP',
    currency: 'JPY',
    locale: 'ja-JP',
    tax: {
      bySubdivision: false,
      // The reduced 8 % rate covers only subscription newspapers published at least twice a week; a
      // copy bought from a vendor on the street is no subscription, so it takes the standard 10 %.
      newspaper: 1000,
      tip: 0,
      standard: 1000,
      digital: 1000,
      source: 'https://www.nta.go.jp/taxes/shiraberu/zeimokubetsu/shohi/keigenzeiritsu/index.htm',
    },
    receipt: {
      law: 'Simplified qualified invoice (適格簡易請求書) under the invoice system',
      shows: [
        'seller name and registration number (T + 13 digits)',
        'date',
        'description',
        'amount per rate',
        'tax or rate',
      ],
      source: 'https://www.nta.go.jp/taxes/shiraberu/zeimokubetsu/shohi/keigenzeiritsu/invoice.htm',
    },
    cashRounding: noRounding,
    denominations: {
      // Coins 1, 5, 10, 50, 100, 500 yen; notes 1000, 2000, 5000, 10000 yen (no minor unit).
      values: [10000, 5000, 2000, 1000, 500, 100, 50, 10, 5, 1],
      source: 'https://www.boj.or.jp/en/note_tfjgs/index.htm',
    },
    fiscal: {
      law: null,
      note: 'Japan has no law that signs a till: signing is off.',
      source: 'https://www.nta.go.jp/taxes/shiraberu/zeimokubetsu/shohi/keigenzeiritsu/invoice.htm',
    },
    timeZone: 'Asia/Tokyo',
    firstDayOfWeek: 7,
  },
};

/** The preset of a country code; an unknown code is the caller's to refuse before. */
export const presetOf = (country: string): CountryPreset =>
  presets[(countries as readonly string[]).includes(country) ? (country as Country) : 'DE'];

export const isCountry = (value: unknown): value is Country =>
  typeof value === 'string' && (countries as readonly string[]).includes(value);

/**
 * A cash amount as the counter asks it: rounded half up to the country's step (13.47 CHF → 13.45,
 * 13.48 → 13.50); a card amount never goes through here.
 */
export function roundCash(amount: number, step: number): number {
  if (step <= 1) return amount;
  const sign = amount < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(amount) + step / 2) / step) * step;
}

/** Every coin and note of every country, largest first: what a count may name at all. */
export const allDenominations: readonly number[] = [
  ...new Set(countries.flatMap((country) => presets[country].denominations.values)),
].sort((a, b) => b - a);
