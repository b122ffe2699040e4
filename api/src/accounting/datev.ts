import type { Knex } from 'knex';
import { invalidError } from '../errors.ts';
import { day, tr } from '../language/messages.ts';
import { documentKindNames, type LedgerKind } from '../ledger/kinds.ts';
import { voucherLabel } from '../ledger/till.ts';
import type { DatevRole, DatevSettings } from './datev-settings.ts';
import { accountName } from './names.ts';
import { paymentBatches, type PaymentRow } from './queries.ts';
import { centsToDecimal } from '../csv.ts';
import { localDay, type Period, zoneOffset } from '../period.ts';

// The bookkeeper's DATEV file: an EXTF "Buchungsstapel" (format category 21, version 13, header
// version 700) as DATEV's import reads it. It reads the ledger and moves no money.
//
// Every ledger row moves an amount from its sender to its receiver. In the newspaper's books that is
// a debit (Soll) of the sender's account and a credit (Haben) of the receiver's: the card money
// arriving from customers, the cash desk paying cash out, a vendor's credit growing, the newspaper's
// revenue growing. So each row becomes one line "amount, S, Konto = sender, Gegenkonto = receiver",
// and an account's S minus H in the file is what it sent minus what it received in the ledger.

type Db = Knex | Knex.Transaction;

export const datevModes = ['rows', 'daily'] as const;
export type DatevMode = (typeof datevModes)[number];

/** The columns of a booking line, in DATEV's order (format version 13: 125 columns). */
const datevColumns = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
  'Postensperre',
  'Diverse Adressnummer',
  'Geschäftspartnerbank',
  'Sachverhalt',
  'Zinssperre',
  'Beleglink',
  ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => [`Beleginfo - Art ${n}`, `Beleginfo - Inhalt ${n}`]),
  'KOST1 - Kostenstelle',
  'KOST2 - Kostenstelle',
  'Kost-Menge',
  'EU-Land u. UStID (Bestimmung)',
  'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart',
  'Sachverhalt L+L',
  'Funktionsergänzung L+L',
  'BU 49 Hauptfunktionstyp',
  'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...Array.from({ length: 20 }, (_, i) => [
    `Zusatzinformation - Art ${i + 1}`,
    `Zusatzinformation - Inhalt ${i + 1}`,
  ]).flat(),
  'Stück',
  'Gewicht',
  'Zahlweise',
  'Forderungsart',
  'Veranlagungsjahr',
  'Zugeordnete Fälligkeit',
  'Skontotyp',
  'Auftragsnummer',
  'Buchungstyp',
  'USt-Schlüssel (Anzahlungen)',
  'EU-Land (Anzahlungen)',
  'Sachverhalt L+L (Anzahlungen)',
  'EU-Steuersatz (Anzahlungen)',
  'Erlöskonto (Anzahlungen)',
  'Herkunft-Kz',
  'Buchungs GUID',
  'KOST-Datum',
  'SEPA-Mandatsreferenz',
  'Skontosperre',
  'Gesellschaftername',
  'Beteiligtennummer',
  'Identifikationsnummer',
  'Zeichnernummer',
  'Postensperre bis',
  'Bezeichnung SoBil-Sachverhalt',
  'Kennzeichen SoBil-Buchung',
  'Festschreibung',
  'Leistungsdatum',
  'Datum Zuord. Steuerperiode',
  'Fälligkeit',
  'Generalumkehr (GU)',
  'Steuersatz',
  'Land',
  'Abrechnungsreferenz',
  'BVV-Position',
  'EU-Land u. UStID (Ursprung)',
  'EU-Steuersatz (Ursprung)',
  'Abw. Skontokonto',
];

/** A text field: quoted, quotes doubled, line breaks and other control characters as spaces. */
const text = (value: string, max: number) => {
  const plain = Array.from(value, (char) => (char < ' ' || char === '\u007f' ? ' ' : char)).join('');
  return `"${plain.slice(0, max).replace(/"/g, '""')}"`;
};

/** One booking line: what we fill, the other columns empty. */
interface Booking {
  amount: number;
  account: string;
  contra: string;
  /** The local day, "2026-05-12". */
  day: string;
  voucher: string;
  text: string;
}

const columnIndex = (name: string) => datevColumns.indexOf(name);
const filled = {
  amount: columnIndex('Umsatz (ohne Soll/Haben-Kz)'),
  side: columnIndex('Soll/Haben-Kennzeichen'),
  currency: columnIndex('WKZ Umsatz'),
  account: columnIndex('Konto'),
  contra: columnIndex('Gegenkonto (ohne BU-Schlüssel)'),
  date: columnIndex('Belegdatum'),
  voucher: columnIndex('Belegfeld 1'),
  text: columnIndex('Buchungstext'),
};

/** The filled columns in their order, each with the separators before it, and those after the last. */
const filledInOrder = (Object.entries(filled) as [keyof typeof filled, number][])
  .sort(([, a], [, b]) => a - b)
  .map(([name, index], i, all) => ({ name, before: ';'.repeat(index - (i ? all[i - 1]![1] : 0)) }));
const emptyTail = ';'.repeat(datevColumns.length - 1 - Math.max(...Object.values(filled)));

function bookingLine(booking: Booking): string {
  const values: Record<keyof typeof filled, string> = {
    // A negative sum (a day whose corrections outweigh its bookings) goes the other way round.
    amount: centsToDecimal(Math.abs(booking.amount)),
    side: text(booking.amount < 0 ? 'H' : 'S', 1),
    currency: text('EUR', 3),
    account: booking.account,
    contra: booking.contra,
    date: `${booking.day.slice(8, 10)}${booking.day.slice(5, 7)}`,
    // DATEV takes letters, digits and $ & % * + - / in a voucher number, 36 at most.
    voucher: text(booking.voucher.replace(/[^A-Za-z0-9$&%*+\-/]/g, ''), 36),
    text: text(booking.text, 60),
  };
  // The 125 columns as one string, the empty ones as their separators: a month's file is tens of
  // thousands of lines.
  let line = '';
  for (const { name, before } of filledInOrder) line += before + values[name];
  return line + emptyTail + '\r\n';
}

/** The local days of a DATEV file: its first and last day, and the start of its fiscal year. */
export interface DatevPeriod {
  from: Date;
  to: Date;
  firstDay: string;
  lastDay: string;
  fiscalYearStart: string;
}

/**
 * The period of an export: both ends given, within one fiscal year (DATEV takes a batch of one
 * fiscal year only, and the voucher date carries no year).
 */
export function datevPeriod(period: Period, settings: DatevSettings, timeZone: string): DatevPeriod {
  if (!period.from || !period.to)
    throw invalidError('Please choose the first and the last day of the DATEV export.', {
      [period.from ? 'to' : 'from']: 'Please choose a day.',
    });
  const firstDay = localDay(period.from, timeZone);
  const lastDay = localDay(new Date(period.to.getTime() - 1), timeZone);
  const start = (year: number) =>
    `${year}-${String(settings.fiscalYearMonth).padStart(2, '0')}-${String(settings.fiscalYearDay).padStart(2, '0')}`;
  const year = Number(firstDay.slice(0, 4));
  const fiscalYearStart = start(year) <= firstDay ? start(year) : start(year - 1);
  const nextStart = start(Number(fiscalYearStart.slice(0, 4)) + 1);
  if (lastDay >= nextStart) {
    const end = day(lastOf(nextStart));
    throw invalidError(
      tr(
        'A DATEV export covers one fiscal year at most; please end it by {day} or export the next fiscal year separately.',
        { day: end },
      ),
      { to: tr('Please choose a day up to {day}.', { day: end }) },
    );
  }
  return { from: period.from, to: period.to, firstDay, lastDay, fiscalYearStart };
}

/** The day before a calendar day. */
const lastOf = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const compact = (day: string) => day.replaceAll('-', '');

/** Line 1: the EXTF header, its 31 fields in DATEV's order. */
function datevHeader(settings: DatevSettings, period: DatevPeriod, created: Date, timeZone: string): string {
  const local = new Date(created.getTime() + zoneOffset(created.getTime(), timeZone)).toISOString();
  const stamp = local.slice(0, 23).replace(/[-T:.]/g, '');
  const fields = [
    text('EXTF', 4),
    '700',
    '21',
    text('Buchungsstapel', 14),
    '13',
    stamp,
    '', // imported (set by DATEV)
    '', // origin
    '', // exported by
    '', // imported by
    settings.adviserNumber,
    settings.clientNumber,
    compact(period.fiscalYearStart),
    String(settings.accountLength),
    compact(period.firstDay),
    compact(period.lastDay),
    text(`Buchungen ${compact(period.firstDay)}-${compact(period.lastDay)}`, 30),
    '', // dictation code
    '1', // booking type: financial accounting
    '0', // accounting purpose: any
    '0', // not fixed: the tax adviser checks the batch and fixes it
    text('EUR', 3),
    '',
    '', // derivative code
    '',
    '',
    text(settings.chart.slice(3), 2),
    '', // industry solution
    '',
    '',
    '', // application information
  ];
  return fields.join(';') + '\r\n';
}

const columnHeading = datevColumns.map((name) => text(name, 100)).join(';') + '\r\n';

/** The side of a ledger row as this mapping needs it. */
interface Side {
  kind: string;
  vendorId: number | null;
}

/**
 * The DATEV account of one side of a row. A tip's card money (and its refund) is booked on the
 * donations account instead of the card clearing account, so the adviser sees it apart from sales.
 */
function datevAccount(settings: DatevSettings, side: Side, tip: boolean): string {
  const role: DatevRole =
    side.kind === 'vendor' ? 'vendors' : side.kind === 'customers' && tip ? 'donations' : (side.kind as DatevRole);
  if (role !== 'vendors' || settings.vendorAccounts === 'collective') return settings.accounts[role];
  const account = String(Number(settings.vendorBase) + (side.vendorId ?? 0));
  if (account.length !== settings.accountLength + 1)
    throw invalidError(
      tr(
        'The personal account of vendor number {id} would be {account}, longer than {n} digits; please choose a lower first personal account in the DATEV settings.',
        { id: String(side.vendorId), account, n: settings.accountLength + 1 },
      ),
    );
  return account;
}

interface RowDetails {
  id: number;
  day: string;
  tip: boolean;
  payout_receipt: string | null;
  till_id: number | null;
  year: number | null;
  voucher_number: number | null;
  visit_payout_receipt: string | null;
  visit_id: string | null;
}

/**
 * The day, voucher and tip flag of a batch of rows. The voucher is the paper the row was booked
 * from: a payout's receipt (its reversal's too), else the cash book's voucher of the row or of its
 * counter visit, else the visit's payout receipt or id, else the order number.
 */
async function rowDetails(db: Db, ids: number[], timeZone: string): Promise<Map<number, RowDetails>> {
  const { rows } = await db.raw<{ rows: RowDetails[] }>(
    `select r.id, to_char(r.created_at at time zone ?, 'YYYY-MM-DD') as day,
       (r.kind = 'tip' or coalesce(o.kind = 'tip', false)) as tip,
       p.receipt_number as payout_receipt, m.till_id, m.year, m.voucher_number,
       vp.receipt_number as visit_payout_receipt, r.counter_visit_id::text as visit_id
     from ledger_rows r
     left join ledger_rows o on o.id = r.reversal_of
     -- a sale settled by a payout carries its id too, but its paper is the order
     left join payouts p on p.id = case r.kind when 'payout' then r.payout_id when 'payout_reversal' then o.payout_id end
     left join counter_visits v on v.id = r.counter_visit_id
     left join payouts vp on vp.id = v.payout_id
     left join lateral (
       select c.till_id, c.year, c.voucher_number from cash_movements c
       where c.ledger_row_id = r.id or (r.counter_visit_id is not null and c.counter_visit_id = r.counter_visit_id)
       order by c.ledger_row_id = r.id desc, c.id limit 1
     ) m on true
     where r.id = any(?::bigint[])`,
    [timeZone, ids],
  );
  return new Map(rows.map((row) => [Number(row.id), row]));
}

function voucherOf(row: PaymentRow, details: RowDetails): string {
  if (details.payout_receipt) return details.payout_receipt;
  if (details.till_id !== null && details.year !== null && details.voucher_number !== null)
    return voucherLabel(details.till_id, details.year, details.voucher_number);
  return details.visit_payout_receipt ?? details.visit_id ?? (row.order_id === null ? '' : String(row.order_id));
}

/** "Verkauf Zeitung, Jürgen Öztürk (DEMO-1)": the kind, the item, the vendor. */
function bookingText(row: PaymentRow): string {
  const side = row.sender_kind === 'vendor' ? 'sender' : row.receiver_kind === 'vendor' ? 'receiver' : undefined;
  const vendor =
    side &&
    accountName(
      {
        kind: 'vendor',
        license_id: row[`${side}_license_id`],
        first_name: row[`${side}_first_name`],
        last_name: row[`${side}_last_name`],
      },
      'de',
    );
  const kind = [documentKindNames.de[row.kind], row.item_name].filter(Boolean).join(' ');
  return [kind, vendor].filter(Boolean).join(', ');
}

/** One line per ledger row, oldest first, read in batches. */
async function* rowBookings(
  db: Db,
  settings: DatevSettings,
  period: DatevPeriod,
  timeZone: string,
): AsyncGenerator<Booking[]> {
  const inPeriod = () =>
    db('ledger_rows as r').where('r.created_at', '>=', period.from).where('r.created_at', '<', period.to);
  for await (const batch of paymentBatches(db, inPeriod)) {
    const details = await rowDetails(
      db,
      batch.map((row) => row.id),
      timeZone,
    );
    yield batch.map((row) => {
      const detail = details.get(Number(row.id));
      if (!detail) throw new Error(`Ledger row ${row.id} vanished during the export.`);
      return {
        amount: row.amount,
        account: datevAccount(settings, { kind: row.sender_kind, vendorId: row.sender_vendor_id }, detail.tip),
        contra: datevAccount(settings, { kind: row.receiver_kind, vendorId: row.receiver_vendor_id }, detail.tip),
        day: detail.day,
        voucher: voucherOf(row, detail),
        text: bookingText(row),
      };
    });
  }
}

interface DailyGroup {
  day: string;
  kind: LedgerKind;
  tip: boolean;
  sender_kind: string;
  sender_vendor_id: number | null;
  receiver_kind: string;
  receiver_vendor_id: number | null;
  count: number;
  amount: number;
}

/** One line per local day, kind of booking and pair of DATEV accounts: the day's sum. */
async function dailyBookings(
  db: Db,
  settings: DatevSettings,
  period: DatevPeriod,
  timeZone: string,
): Promise<Booking[]> {
  const { rows } = await db.raw<{ rows: DailyGroup[] }>(
    `select to_char(r.created_at at time zone ?, 'YYYY-MM-DD') as day, r.kind,
       (r.kind = 'tip' or coalesce(o.kind = 'tip', false)) as tip,
       sa.kind as sender_kind, sa.vendor_id as sender_vendor_id, ra.kind as receiver_kind, ra.vendor_id as receiver_vendor_id,
       count(*)::bigint as count, sum(r.amount)::bigint as amount
     from ledger_rows r
     join ledger_accounts sa on sa.id = r.sender_id
     join ledger_accounts ra on ra.id = r.receiver_id
     left join ledger_rows o on o.id = r.reversal_of
     where r.created_at >= ? and r.created_at < ?
     group by 1, 2, 3, 4, 5, 6, 7
     order by 1, 2`,
    [timeZone, period.from, period.to],
  );
  const lines = new Map<string, Booking & { count: number; kind: LedgerKind }>();
  for (const group of rows) {
    const account = datevAccount(settings, { kind: group.sender_kind, vendorId: group.sender_vendor_id }, group.tip);
    const contra = datevAccount(settings, { kind: group.receiver_kind, vendorId: group.receiver_vendor_id }, group.tip);
    const key = [group.day, group.kind, account, contra].join(' ');
    const line = lines.get(key) ?? {
      amount: 0,
      account,
      contra,
      day: group.day,
      voucher: '',
      text: '',
      count: 0,
      kind: group.kind,
    };
    line.amount += group.amount;
    line.count += group.count;
    lines.set(key, line);
  }
  return [...lines.values()].map((line) => ({
    ...line,
    text: `${documentKindNames.de[line.kind]}, ${line.count} ${line.count === 1 ? 'Buchung' : 'Buchungen'}`,
  }));
}

/** The whole file as text chunks (header, column heading, booking lines); the caller encodes them. */
export async function* datevFile(
  db: Db,
  settings: DatevSettings,
  period: DatevPeriod,
  mode: DatevMode,
  timeZone: string,
  created = new Date(),
): AsyncGenerator<string> {
  yield datevHeader(settings, period, created, timeZone) + columnHeading;
  if (mode === 'daily') {
    yield (await dailyBookings(db, settings, period, timeZone)).map(bookingLine).join('');
    return;
  }
  for await (const bookings of rowBookings(db, settings, period, timeZone)) yield bookings.map(bookingLine).join('');
}

/**
 * Refuses an export the tax adviser could not import: DATEV needs the adviser and client numbers,
 * and every vendor's personal account must have its length (checked before the download starts).
 */
export async function assertDatevReady(db: Db, settings: DatevSettings): Promise<void> {
  if (!settings.adviserNumber || !settings.clientNumber)
    throw invalidError('Please enter the adviser number and the client number in the DATEV settings first.');
  if (settings.vendorAccounts !== 'personal') return;
  const last = await db('ledger_accounts').max<{ id: number | null }>('vendor_id as id').first();
  if (last?.id) datevAccount(settings, { kind: 'vendor', vendorId: last.id }, false);
}
