import type { Knex } from 'knex';
import { invalidError } from '../foundations/errors.ts';
import { itemName } from '../language/item-names.ts';
import { day, tr, type Language } from '../language/messages.ts';
import { documentKindNames, type LedgerKind } from '../ledger/kinds.ts';
import { type CashOnlyKind, cashOnlyKinds, type DatevRole, movementContra, postingRole } from '../ledger/postings.ts';
import { voucherLabel } from '../ledger/till.ts';
import type { DatevSettings } from './datev-settings.ts';
import { accountName } from './names.ts';
import { minorToDecimal } from '../foundations/csv.ts';
import { localDay, type Period, zoneOffset } from '../foundations/period.ts';
import { slicesOf } from '../foundations/event-loop.ts';

// The bookkeeper's DATEV file: an EXTF "Buchungsstapel" (format category 21, version 13, header
// version 700) as DATEV's import reads it. It reads the ledger and the cash book and moves no money.
//
// Every money movement is in it once: each ledger row as one line "amount, S, Konto = the sender's
// account, Gegenkonto = the receiver's" (ledger/postings.ts says which account of the chart each side
// stands for), and each cash movement that has no ledger row (a bank deposit or withdrawal, another
// expense or income, a count's difference) as one line between Kasse and its counter-account. The
// cash movements of payouts and cash paid at the counter are booked by their ledger rows.

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
  let plain = '';
  for (let i = 0; i < value.length && i < max; i++) {
    const code = value.charCodeAt(i);
    plain += code < 0x20 || code === 0x7f ? ' ' : value[i];
  }
  return `"${plain.replace(/"/g, '""')}"`;
};

/** One booking line: what we fill, the other columns empty. */
export interface Booking {
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
    amount: minorToDecimal(Math.abs(booking.amount), 'EUR'),
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

/**
 * The DATEV account of a role; a vendor's side is the vendor's personal account when the settings ask
 * for personal accounts.
 */
function datevAccount(settings: DatevSettings, role: DatevRole, vendorId: number | null): string {
  if (role !== 'vendors' || settings.vendorAccounts === 'collective') return settings.accounts[role];
  const account = String(Number(settings.vendorBase) + (vendorId ?? 0));
  if (account.length !== settings.accountLength + 1)
    throw invalidError(
      tr(
        'The personal account of vendor number {id} would be {account}, longer than {n} digits; please choose a lower first personal account in the DATEV settings.',
        { id: String(vendorId), account, n: settings.accountLength + 1 },
      ),
    );
  return account;
}

/** A ledger row as the file needs it: its amount and accounts, its local day and its voucher. */
interface DatevRow {
  id: number;
  cursor_at: string;
  kind: LedgerKind;
  amount: number;
  sender_id: number;
  receiver_id: number;
  item_id: number | null;
  order_id: number | null;
  day: string;
  stripe_ref: string | null;
  payout_receipt: string | null;
  till_id: number | null;
  year: number | null;
  voucher_number: number | null;
  visit_id: string | null;
}

/** A ledger account with its vendor's name, and the name the booking text gives it. */
interface Party {
  kind: string;
  vendor_id: number | null;
  /** "Jürgen Öztürk (DEMO-1)" for a vendor's account, else undefined. */
  vendor?: string;
}

/** An item as a booking text names it, in both languages. */
interface ItemNames {
  name: string;
  name_en: string;
}

// A batch's rows arrive and are parsed in one turn of the event loop; these rows are narrow (the
// names come from the caches below), so two thousand take a few milliseconds.
const rowBatchSize = 2000;

/**
 * A period's ledger rows with their day and voucher, in batches, oldest first (keyset by
 * created_at and id, so a year costs the same per batch as a day). The voucher is
 * the paper the row was booked from: the cash book's voucher of the row's own cash movement (a
 * payout, its reversal, cash paid for copies) or of its counter visit (the copies bought), else the
 * visit, the order, or Stripe's payout. A payout from before payouts went through a till has no
 * cash movement: its receipt number is its voucher. Only the kinds that can have a cash movement
 * look for one; a sale online never does. The cursor time travels as text: a JavaScript Date would
 * drop PostgreSQL's microseconds and return the last row again.
 */
async function* datevRowBatches(db: Db, period: DatevPeriod, timeZone: string): AsyncGenerator<DatevRow[]> {
  let after: { at: string; id: number } | undefined;
  for (;;) {
    // The keys first, as an index range that stops after a batch (a subquery with its limit, so the
    // planner never sorts the rest of the month); the row comparison alone is the range's start,
    // since a second condition on created_at makes the planner expect far fewer rows than there are.
    // Each lookup is a subquery with `limit 1` that only the kinds it concerns run: kept apart, so
    // the planner does not hash the whole cash book for a batch.
    const { rows } = await db.raw<{ rows: DatevRow[] }>(
      `select r.id, r.created_at::text as cursor_at, r.kind, r.amount, r.sender_id, r.receiver_id, r.item_id, r.order_id,
         to_char(r.created_at at time zone ?, 'YYYY-MM-DD') as day, r.stripe_ref, p.receipt_number as payout_receipt,
         coalesce(own.till_id, visit.till_id) as till_id, coalesce(own.year, visit.year) as year,
         coalesce(own.voucher_number, visit.voucher_number) as voucher_number, r.counter_visit_id::text as visit_id
       from (
         select * from ledger_rows r
         where r.created_at >= ? and r.created_at < ? ${after ? 'and (r.created_at, r.id) > (?::timestamptz, ?)' : ''}
         order by r.created_at asc nulls first, r.id asc
         limit ?
       ) r
       left join lateral (
         select receipt_number from payouts where r.kind in ('payout', 'payout_reversal') and id = r.payout_id limit 1
       ) p on true
       left join lateral (
         select till_id, year, voucher_number from cash_movements
         where r.kind in ('payout', 'payout_reversal', 'counter_cash') and ledger_row_id = r.id limit 1
       ) own on true
       left join lateral (
         select c.till_id, c.year, c.voucher_number from cash_movements c
         where r.kind = 'counter_sale' and c.counter_visit_id = r.counter_visit_id order by c.id limit 1
       ) visit on true
       order by r.created_at asc nulls first, r.id asc`,
      [timeZone, period.from, period.to, ...(after ? [after.at, after.id] : []), rowBatchSize],
    );
    if (!rows.length) return;
    yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < rowBatchSize) return;
    after = { at: last.cursor_at, id: last.id };
  }
}

/**
 * The accounts and item names a batch names, read once per export: a month names a few thousand
 * accounts thousands of times each, and one join per row would cost more than the rows themselves.
 * Names are in `language`, the reader's (the DATEV file's: German).
 */
function namesOf(db: Db, language: Language) {
  const parties = new Map<number, Party>();
  const items = new Map<number, string>();
  return async (batch: DatevRow[]) => {
    const missingParties = [...new Set(batch.flatMap((row) => [row.sender_id, row.receiver_id]))].filter(
      (id) => !parties.has(id),
    );
    if (missingParties.length) {
      const { rows } = await db.raw<{
        rows: (Party & {
          id: number;
          license_id: string | null;
          first_name: string | null;
          last_name: string | null;
        })[];
      }>(
        `select a.id, a.kind, a.vendor_id, v.license_id, v.first_name, v.last_name
         from ledger_accounts a left join vendors v on v.id = a.vendor_id where a.id = any(?::bigint[])`,
        [missingParties],
      );
      for (const row of rows)
        parties.set(Number(row.id), {
          kind: row.kind,
          vendor_id: row.vendor_id,
          vendor: row.kind === 'vendor' ? accountName({ ...row, kind: 'vendor' }, language) : undefined,
        });
    }
    const missingItems = [...new Set(batch.map((row) => row.item_id))].filter(
      (id): id is number => id !== null && !items.has(id),
    );
    if (missingItems.length) {
      const rows = await db('items')
        .whereIn('id', missingItems)
        .select<(ItemNames & { id: number })[]>('id', 'name', 'name_en');
      for (const row of rows) items.set(Number(row.id), itemName(row, language));
    }
    return {
      party: (id: number) => {
        const party = parties.get(Number(id));
        if (!party) throw new Error(`Ledger account ${id} vanished during the export.`);
        return party;
      },
      item: (id: number | null) => (id === null ? undefined : items.get(Number(id))),
    };
  };
}

function voucherOf(row: DatevRow): string {
  if (row.till_id !== null && row.year !== null && row.voucher_number !== null)
    return voucherLabel(row.till_id, row.year, row.voucher_number);
  if (row.payout_receipt) return row.payout_receipt;
  if (row.visit_id) return row.visit_id;
  if (row.order_id !== null) return String(row.order_id);
  return row.stripe_ref ?? '';
}

/** "Verkauf Zeitung, Jürgen Öztürk (DEMO-1)" ("Sale Newspaper, …" in English): the kind, the item, the vendor. */
function bookingText(
  kind: LedgerKind,
  item: string | undefined,
  sender: Party,
  receiver: Party,
  language: Language,
): string {
  const vendor = sender.kind === 'vendor' ? sender.vendor : receiver.kind === 'vendor' ? receiver.vendor : undefined;
  const what = [documentKindNames[language][kind], item].filter(Boolean).join(' ');
  return [what, vendor].filter(Boolean).join(', ');
}

/** The two accounts of a ledger row: Konto (its sender's) and Gegenkonto (its receiver's). */
function rowAccounts(
  settings: DatevSettings,
  row: {
    kind: LedgerKind;
    sender_kind: string;
    sender_vendor_id: number | null;
    receiver_kind: string;
    receiver_vendor_id: number | null;
  },
): { account: string; contra: string } {
  return {
    account: datevAccount(settings, postingRole(row.kind, row.sender_kind), row.sender_vendor_id),
    contra: datevAccount(settings, postingRole(row.kind, row.receiver_kind), row.receiver_vendor_id),
  };
}

/** One line per ledger row, oldest first, read in batches and handed on a slice at a time; texts in `language`. */
export async function* rowBookings(
  db: Db,
  settings: DatevSettings,
  period: DatevPeriod,
  timeZone: string,
  language: Language,
): AsyncGenerator<Booking[]> {
  const names = namesOf(db, language);
  for await (const batch of datevRowBatches(db, period, timeZone)) {
    const { party, item } = await names(batch);
    for await (const slice of slicesOf(batch))
      yield slice.map((row) => {
        const sender = party(row.sender_id);
        const receiver = party(row.receiver_id);
        return {
          amount: Number(row.amount),
          ...rowAccounts(settings, {
            kind: row.kind,
            sender_kind: sender.kind,
            sender_vendor_id: sender.vendor_id,
            receiver_kind: receiver.kind,
            receiver_vendor_id: receiver.vendor_id,
          }),
          day: row.day,
          voucher: voucherOf(row),
          text: bookingText(row.kind, item(row.item_id), sender, receiver, language),
        };
      });
  }
}

/** What a cash movement without a ledger row is called in a booking text; a difference by its sign. */
const movementTexts: Record<Language, Record<Exclude<CashOnlyKind, 'difference'> | 'surplus' | 'shortfall', string>> = {
  de: {
    bank_deposit: 'Einzahlung auf die Bank',
    bank_withdrawal: 'Abhebung von der Bank',
    expense: 'Ausgabe',
    income: 'Einnahme',
    surplus: 'Kassenüberschuss',
    shortfall: 'Kassenfehlbetrag',
  },
  en: {
    bank_deposit: 'Bank deposit',
    bank_withdrawal: 'Bank withdrawal',
    expense: 'Expense',
    income: 'Income',
    surplus: 'Till surplus',
    shortfall: 'Till shortfall',
  },
};

interface CashOnlyMovement {
  kind: CashOnlyKind;
  amount: number;
  day: string;
  till_id: number;
  till_name: string;
  year: number;
  voucher_number: number;
  reason: string;
}

/**
 * A cash movement without a ledger row as a booking: Kasse against its counter-account, the till
 * debited when cash comes in (a positive amount), credited when it goes out; its text in `language`.
 */
export function movementBooking(settings: DatevSettings, movement: CashOnlyMovement, language: Language): Booking {
  const cash = settings.accounts.cash;
  const contra = settings.accounts[movementContra(movement.kind, movement.amount)];
  const incoming = movement.amount > 0;
  const kind =
    movementTexts[language][movement.kind === 'difference' ? (incoming ? 'surplus' : 'shortfall') : movement.kind];
  return {
    amount: Math.abs(movement.amount),
    account: incoming ? cash : contra,
    contra: incoming ? contra : cash,
    day: movement.day,
    voucher: voucherLabel(movement.till_id, movement.year, movement.voucher_number),
    text: [kind, movement.till_name, movement.reason].filter(Boolean).join(', '),
  };
}

/** The period's cash movements that have no ledger row, oldest first. */
export async function cashOnlyMovements(db: Db, period: DatevPeriod): Promise<CashOnlyMovement[]> {
  return db('cash_movements as c')
    .join('tills as t', 't.id', 'c.till_id')
    .whereNull('c.ledger_row_id')
    .whereIn('c.kind', cashOnlyKinds)
    .where('c.created_at', '>=', period.from)
    .where('c.created_at', '<', period.to)
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }])
    .select(
      'c.kind',
      'c.amount',
      db.raw(`to_char(c.day, 'YYYY-MM-DD') as day`),
      'c.till_id',
      't.name as till_name',
      'c.year',
      'c.voucher_number',
      'c.reason',
    );
}

interface DailyGroup {
  day: string;
  kind: LedgerKind;
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
       sa.kind as sender_kind, sa.vendor_id as sender_vendor_id, ra.kind as receiver_kind, ra.vendor_id as receiver_vendor_id,
       count(*)::bigint as count, sum(r.amount)::bigint as amount
     from ledger_rows r
     join ledger_accounts sa on sa.id = r.sender_id
     join ledger_accounts ra on ra.id = r.receiver_id
     where r.created_at >= ? and r.created_at < ?
     group by 1, 2, 3, 4, 5, 6
     order by 1, 2`,
    [timeZone, period.from, period.to],
  );
  const lines = new Map<string, Booking & { count: number; name: string }>();
  const add = (booking: Booking, name: string, count: number) => {
    const key = [booking.day, name, booking.account, booking.contra].join(' ');
    const line = lines.get(key) ?? { ...booking, amount: 0, voucher: '', count: 0, name };
    line.amount += booking.amount;
    line.count += count;
    lines.set(key, line);
  };
  for (const group of rows)
    add(
      { amount: group.amount, ...rowAccounts(settings, group), day: group.day, voucher: '', text: '' },
      documentKindNames.de[group.kind],
      group.count,
    );
  // A day's cash movements of one kind go in one direction (a difference's sign decides its account).
  for (const movement of await cashOnlyMovements(db, period)) {
    const booking = movementBooking(settings, movement, 'de');
    add(booking, booking.text.split(',')[0]!, 1);
  }
  return [...lines.values()]
    .sort((a, b) => a.day.localeCompare(b.day))
    .map((line) => ({
      ...line,
      text: `${line.name}, ${line.count} ${line.count === 1 ? 'Buchung' : 'Buchungen'}`,
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
    for await (const slice of slicesOf(await dailyBookings(db, settings, period, timeZone)))
      yield slice.map(bookingLine).join('');
    return;
  }
  for await (const bookings of rowBookings(db, settings, period, timeZone, 'de'))
    yield bookings.map(bookingLine).join('');
  yield (await cashOnlyMovements(db, period))
    .map((movement) => bookingLine(movementBooking(settings, movement, 'de')))
    .join('');
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
  if (last?.id) datevAccount(settings, 'vendors', last.id);
}
