import { strToU8, zipSync } from 'fflate';
import type { Knex } from 'knex';
import { vendorAccountId } from '../ledger/accounts.ts';
import { kindNames, type KindLanguage, type LedgerKind } from '../ledger/kinds.ts';
import { accountRows, accountRowToApi, vendorAccountSummary, type AccountRow } from '../ledger/queries.ts';
import { payoutVoucherSql, reversalVoucherSql } from '../ledger/vouchers.ts';
import { commentToApi, vendorComments, type CommentRow } from '../vendors/comments/queries.ts';
import { locationToApi, vendorLocations, type LocationRow } from '../vendors/locations/queries.ts';
import { allVendors, vendorToApi, type VendorRow } from '../vendors/queries.ts';
import { toIso } from '../foundations/dates.ts';
import { vendorLanguage } from '../vendors/language.ts';
import { type CsvColumn, type CsvReader, csvHeader, csvLine } from '../foundations/csv.ts';
import { formatAmount, type Currency } from '../money/currency.ts';
import { installationCurrency } from '../settings/currency.ts';

// A vendor's copy of everything stored about them (GDPR Art. 15): one ZIP of JSON (complete, for a
// program) and CSV (for a spreadsheet), with a README in the vendor's language saying what each is.

type Db = Knex | Knex.Transaction;

/** The files of an export, in the order the README lists them. */
export const exportFiles = [
  'README.txt',
  'profile.json',
  'locations.json',
  'comments.json',
  'login.json',
  'ledger.json',
  'ledger.csv',
  'payouts.csv',
  'counter-visits.csv',
] as const;

type ExportFile = (typeof exportFiles)[number];

const readme: Record<
  KindLanguage,
  { title: string; intro: (currency: Currency) => string; files: Record<ExportFile, string> }
> = {
  de: {
    title: 'Datenauskunft nach Art. 15 DSGVO',
    intro: (currency) =>
      'Diese Datei enthält alle Daten, die die Straßenzeitung über Sie als Verkäuferin oder Verkäufer gespeichert hat. ' +
      `Alle Beträge sind in ${currency}: in den JSON-Dateien in der kleinsten Einheit der Währung (150 steht für ` +
      `${formatAmount(150, currency, 'de')}), in den CSV-Dateien als Dezimalzahl. Buchungen müssen wir 10 Jahre ` +
      'aufbewahren (§ 147 AO, § 257 HGB); alle anderen Daten löschen wir, wenn Sie es wünschen und Ihr Guthaben 0 ist.',
    files: {
      'README.txt': 'Diese Beschreibung.',
      'profile.json': 'Ihre Stammdaten: Name, Lizenznummer, Kontaktdaten, Adresse, Sprache, Daten der Registrierung.',
      'locations.json': 'Ihre Verkaufsorte mit Adresse, Koordinaten und Verkaufszeiten.',
      'comments.json': 'Notizen des Büros zu Ihnen.',
      'login.json':
        'Ihr Login: Benutzername, E-Mail-Adresse, Gruppen, Anzahl offener Sitzungen und Zähler fehlgeschlagener Anmeldungen.',
      'ledger.json': 'Alle Buchungen Ihres Guthabenkontos (Verkäufe, Trinkgeld, Gebühren, Auszahlungen, Thekenkäufe).',
      'ledger.csv': 'Dieselben Buchungen als Tabelle.',
      'payouts.csv': 'Ihre Auszahlungen mit Belegnummer.',
      'counter-visits.csv': 'Ihre Einkäufe an der Theke.',
    },
  },
  en: {
    title: 'Copy of your data (Art. 15 GDPR)',
    intro: (currency) =>
      'This file holds all data the street newspaper has stored about you as a vendor. ' +
      `All amounts are in ${currency}: in the JSON files in the currency's smallest unit (150 stands for ` +
      `${formatAmount(150, currency, 'en')}), in the CSV files as decimal numbers. Bookings must be kept for ` +
      '10 years (§ 147 AO, § 257 HGB); all other data is erased when you ask for it and your credit is 0.',
    files: {
      'README.txt': 'This description.',
      'profile.json': 'Your record: name, licence ID, contact data, address, language, dates of registration.',
      'locations.json': 'Your selling locations with address, coordinates and working times.',
      'comments.json': "The office's notes about you.",
      'login.json': 'Your login: user name, e-mail address, groups, number of open sessions and failed-login counters.',
      'ledger.json': 'Every booking of your credit account (sales, tips, fees, payouts, counter purchases).',
      'ledger.csv': 'The same bookings as a table.',
      'payouts.csv': 'Your payouts with their receipt number.',
      'counter-visits.csv': 'Your purchases at the counter.',
    },
  },
};

/** The export speaks the vendor's language (their record's choice, German by default). */
export const exportLanguage = (language: string): KindLanguage => vendorLanguage(language);

interface ExportedVendor extends VendorRow {
  deleted_at: Date | null;
  anonymised_at: Date | null;
}

interface LedgerLine {
  id: number;
  createdAt: string;
  kind: string;
  kindName: string;
  itemName: string | null;
  quantity: number | null;
  /** Signed from the vendor's side: + received, − sent. */
  amount: number;
  payoutId: number | null;
}

interface PayoutLine {
  voucher: string;
  reversal_voucher: string | null;
  amount: number;
  created_at: Date;
  authorised_by: string;
  reversed_at: Date | null;
  reversal_reason: string | null;
}

interface VisitLine {
  id: string;
  created_at: Date;
  copies_amount: number;
  from_credit: number;
  cash_paid: number;
  payout_id: number | null;
}

const headers = (language: KindLanguage, de: string, en: string) => (language === 'de' ? de : en);

function ledgerColumns(l: KindLanguage, currency: Currency): CsvColumn<LedgerLine>[] {
  return [
    { header: headers(l, 'Buchung', 'Booking'), value: (r) => r.id },
    { header: headers(l, 'Zeit', 'Time'), value: (r) => r.createdAt, format: 'date' },
    { header: headers(l, 'Art', 'Kind'), value: (r) => r.kindName },
    { header: headers(l, 'Artikel', 'Item'), value: (r) => r.itemName },
    { header: headers(l, 'Menge', 'Quantity'), value: (r) => r.quantity },
    { header: headers(l, `Betrag (${currency})`, `Amount (${currency})`), value: (r) => r.amount, format: 'cents' },
    { header: headers(l, 'Auszahlung', 'Payout'), value: (r) => r.payoutId },
  ];
}

function payoutColumns(l: KindLanguage, currency: Currency): CsvColumn<PayoutLine>[] {
  return [
    { header: headers(l, 'Belegnummer', 'Voucher number'), value: (p) => p.voucher },
    { header: headers(l, 'Zeit', 'Time'), value: (p) => p.created_at, format: 'date' },
    { header: headers(l, `Betrag (${currency})`, `Amount (${currency})`), value: (p) => p.amount, format: 'cents' },
    { header: headers(l, 'Ausgezahlt von', 'Paid out by'), value: (p) => p.authorised_by },
    { header: headers(l, 'Storniert', 'Reversed'), value: (p) => p.reversed_at, format: 'date' },
    { header: headers(l, 'Grund der Stornierung', 'Reason of the reversal'), value: (p) => p.reversal_reason },
    { header: headers(l, 'Stornobeleg', 'Reversal voucher'), value: (p) => p.reversal_voucher },
  ];
}

function visitColumns(l: KindLanguage, currency: Currency): CsvColumn<VisitLine>[] {
  return [
    { header: headers(l, 'Besuch', 'Visit'), value: (v) => v.id },
    { header: headers(l, 'Zeit', 'Time'), value: (v) => v.created_at, format: 'date' },
    {
      header: headers(l, `Exemplare (${currency})`, `Copies (${currency})`),
      value: (v) => v.copies_amount,
      format: 'cents',
    },
    {
      header: headers(l, `Vom Guthaben (${currency})`, `From credit (${currency})`),
      value: (v) => v.from_credit,
      format: 'cents',
    },
    { header: headers(l, `Bar (${currency})`, `In cash (${currency})`), value: (v) => v.cash_paid, format: 'cents' },
    { header: headers(l, 'Auszahlung', 'Payout'), value: (v) => v.payout_id },
  ];
}

const csv = <Row>(columns: CsvColumn<Row>[], rows: Row[], reader: CsvReader) =>
  csvHeader(columns as CsvColumn<unknown>[]) + rows.map((row) => csvLine(columns, row, reader)).join('');

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

export interface VendorExport {
  zip: Uint8Array;
  /** "datenauskunft-W-17-2026-11-23.zip" */
  filename: string;
}

/** The export of one vendor, deleted or anonymised ones included (what is left of them is stored too). */
export async function exportVendor(db: Db, vendorId: number, timeZone: string): Promise<VendorExport | undefined> {
  const vendor = await allVendors(db)
    .select('deleted_at', 'anonymised_at')
    .where({ id: vendorId })
    .first<ExportedVendor | undefined>();
  if (!vendor) return undefined;
  const language = exportLanguage(vendor.language);
  const account = await db('accounts')
    .where({ vendor_id: vendorId })
    .first<
      | { id: number; username: string; email: string | null; groups: string[]; disabled: boolean; created_at: Date }
      | undefined
    >('id', 'username', 'email', 'groups', 'disabled', 'created_at');
  const sessions: { model: string; count: number }[] = account
    ? await db('oidc_state')
        .where({ account_id: String(account.id) })
        .groupBy('model')
        .select('model', db.raw('count(*)::integer as count'))
    : [];
  const names = [vendor.license_id, account?.username].filter((n): n is string => !!n).map((n) => n.toLowerCase());
  const throttle = names.length
    ? await db('login_throttle')
        .whereIn('username', names)
        .select('scope', 'username', 'address', 'attempts', 'window_start', 'next_at')
    : [];
  const accountId = await vendorAccountId(db, vendorId);
  const rows =
    accountId === undefined
      ? []
      : ((await accountRows(db, accountId).orderBy('r.created_at').orderBy('r.id')) as AccountRow[]);
  const ledger: LedgerLine[] = rows.map((row) => {
    const api = accountRowToApi(row);
    return {
      id: api.id,
      createdAt: api.createdAt,
      kind: api.kind,
      kindName: kindNames[language][api.kind as LedgerKind] ?? api.kind,
      itemName: api.itemName,
      quantity: api.quantity,
      amount: api.sign * Number(api.amount),
      payoutId: row.payout_id,
    };
  });
  const payouts: PayoutLine[] = await db('payouts as p')
    .where({ vendor_id: vendorId })
    .orderBy('created_at')
    .select(
      db.raw(`${payoutVoucherSql('p')} as voucher`),
      db.raw(`${reversalVoucherSql('p')} as reversal_voucher`),
      'amount',
      'created_at',
      'authorised_by',
      'reversed_at',
      'reversal_reason',
    );
  const visits: VisitLine[] = await db('counter_visits')
    .where({ vendor_id: vendorId })
    .orderBy('created_at')
    .select('id', 'created_at', 'copies_amount', 'from_credit', 'cash_paid', 'payout_id');
  const { credit } = await vendorAccountSummary(db, vendorId);

  const currency = await installationCurrency(db);
  const reader: CsvReader = { timeZone, language, currency };
  const words = readme[language];
  const readmeText = [
    words.title,
    '',
    words.intro(currency),
    '',
    ...exportFiles.map((file) => `${file}: ${words.files[file]}`),
    '',
  ].join('\r\n');
  const files: Record<ExportFile, Uint8Array> = {
    'README.txt': strToU8(readmeText),
    'profile.json': json({
      ...vendorToApi(vendor),
      deletedAt: toIso(vendor.deleted_at),
      anonymisedAt: toIso(vendor.anonymised_at),
      credit,
    }),
    'locations.json': json(((await vendorLocations(db, vendorId).orderBy('id')) as LocationRow[]).map(locationToApi)),
    'comments.json': json(((await vendorComments(db, vendorId).orderBy('id')) as CommentRow[]).map(commentToApi)),
    'login.json': json({
      account: account && {
        subject: String(account.id),
        username: account.username,
        email: account.email,
        groups: account.groups,
        disabled: account.disabled,
        createdAt: toIso(account.created_at),
      },
      openSessionsAndTokens: sessions,
      loginThrottle: throttle,
    }),
    'ledger.json': json({ credit, rows: ledger }),
    'ledger.csv': strToU8(csv(ledgerColumns(language, currency), ledger, reader)),
    'payouts.csv': strToU8(csv(payoutColumns(language, currency), payouts, reader)),
    'counter-visits.csv': strToU8(csv(visitColumns(language, currency), visits, reader)),
  };
  const day = new Date().toISOString().slice(0, 10);
  const who = vendor.license_id ?? `geloescht-${vendorId}`;
  return { zip: zipSync(files), filename: `datenauskunft-${who}-${day}.zip`.replace(/[^A-Za-z0-9._-]/g, '_') };
}
