import { kindNames } from '../shared/ledger.ts';
import type { Locale } from '../shared/locale.ts';

// The vendor page's texts. Short words and plain sentences: many vendors read little German.
const de = {
  info: 'Mein Guthaben',
  qrcode: 'QR-Code',
  profile: 'Profil',
  statements: 'Abrechnungen',
  statementMonths: 'Monat wählen',
  noStatements: 'Noch keine Abrechnung: es gibt noch keine Buchungen.',
  statement: 'Abrechnung',
  print: 'Drucken',
  logout: 'Abmelden',
  loading: 'Wird geladen …',
  credit: 'Guthaben',
  lastPayout: 'Letzte Auszahlung',
  voucher: 'Beleg',
  noPayout: 'Noch keine Auszahlung',
  transactions: 'Letzte Buchungen',
  noTransactions: 'Noch keine Buchungen',
  transactionsUnavailable: 'Buchungen können noch nicht angezeigt werden.',
  paidOut: 'ausbezahlt',
  downloadPng: 'Als Bild (PNG) herunterladen',
  downloadSvg: 'Als SVG herunterladen',
  codeFailed: 'Der Code konnte nicht erstellt werden. Bitte versuche es später erneut.',
  qrHint: 'Dein Code für den Ausweis. Kunden scannen ihn und kaufen bei dir.',
  licenseId: 'Ausweisnummer',
  name: 'Name',
  email: 'E-Mail',
  telephone: 'Telefon',
  address: 'Adresse',
  language: 'Sprache',
  vendorSince: 'Verkäuferin oder Verkäufer seit',
  error: 'Es ist ein Fehler aufgetreten. Bitte versuche es später erneut.',
  noAccess: 'Dieser Zugang gehört zu keiner Verkäuferin und keinem Verkäufer. Bitte frag im Büro nach.',
  ...kindNames.de,
  donation: 'Spende',
};

const en: typeof de = {
  info: 'My credit',
  qrcode: 'QR code',
  profile: 'Profile',
  statements: 'Statements',
  statementMonths: 'Choose a month',
  noStatements: 'No statement yet: there are no bookings yet.',
  statement: 'Statement',
  print: 'Print',
  logout: 'Log out',
  loading: 'Loading …',
  credit: 'Credit',
  lastPayout: 'Last payout',
  voucher: 'Voucher',
  noPayout: 'No payout yet',
  transactions: 'Last transactions',
  noTransactions: 'No transactions yet',
  transactionsUnavailable: 'Transactions cannot be shown yet.',
  paidOut: 'paid out',
  downloadPng: 'Download as image (PNG)',
  downloadSvg: 'Download as SVG',
  codeFailed: 'The code could not be made. Please try again later.',
  qrHint: 'Your code for the badge. Customers scan it and buy from you.',
  licenseId: 'Licence ID',
  name: 'Name',
  email: 'E-mail',
  telephone: 'Telephone',
  address: 'Address',
  language: 'Language',
  vendorSince: 'Vendor since',
  error: 'An error occurred. Please try again later.',
  noAccess: 'This login does not belong to a vendor. Please ask at the office.',
  ...kindNames.en,
  donation: 'Donation',
};

export type Texts = typeof de;
export const texts: Record<Locale, Texts> = { de, en };

/** The texts as this newspaper speaks: a tip is a "Spende" unless it chose "Trinkgeld" (use_tip_instead_of_donation). */
export const textsFor = (locale: Locale, useTip: boolean): Texts =>
  useTip ? texts[locale] : Object.assign({}, texts[locale], { kind_tip: texts[locale].donation });
