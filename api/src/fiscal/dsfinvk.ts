import { strToU8, zipSync } from 'fflate';
import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { conflictError } from '../foundations/errors.ts';
import { tr, type Message } from '../language/messages.ts';
import { vatIncluded } from '../ledger/vat.ts';
import { movementRequest, visitRequest, type Built } from './cases.ts';
import { decommissionsOf, type Decommission } from './decommission.ts';
import { gdpduDtd, gdpduDtdName } from './gdpdu-dtd.ts';
import type { DeSignature, FiscalRequest } from './port.ts';
import { tillSerial } from './ids.ts';

// The DSFinV-K export (Digitale Schnittstelle der Finanzverwaltung für Kassensysteme, version 2.3,
// BMF/BZSt): what the tax office may ask of a German till (§147 (6) AO), per daily close
// (Kassenabschluss), as CSV files described by an index.xml in the GDPdU format. The files and their
// columns follow the specification's chapter 3 (the names as the open-source python-dsfinvk of
// pretix and StuStaPay list them, 3.1.1 to 3.3.3):
// - Einzelaufzeichnungsmodul: lines.csv (Bonpos), lines_vat.csv (Bonpos_USt), transactions.csv
//   (Bonkopf), transactions_vat.csv (Bonkopf_USt), datapayment.csv (Bonkopf_Zahlarten),
//   transactions_tse.csv (TSE_Transaktionen);
// - Stammdatenmodul: cashpointclosing.csv (Stamm_Abschluss), location.csv (Stamm_Orte),
//   cashregister.csv (Stamm_Kassen), vat.csv (Stamm_USt), tse.csv (Stamm_TSE);
// - Kassenabschlussmodul: businesscases.csv (Z_GV_Typ), payment.csv (Z_Zahlart),
//   cash_per_currency.csv (Z_Waehrungen).
// The files this counter has nothing for (allocation_groups, references, itemamounts, subitems,
// slaves, pa) are left out. Every Vorgang (BON_ID) comes from the cash book, not from the signatures:
// the books are the truth, and a movement the TSE could not sign is exported with its error
// (TSE_TA_FEHLER). CSV: `;` between fields, text in double quotes, decimal comma, UTF-8, a header
// line (index.xml's Range starts at line 2).

const taxonomyVersion = '2.3';

/** DSFinV-K Anhang: the VAT keys (UST_SCHLUESSEL) this counter uses. */
const vatKeys: Record<number, { key: number; rate: number; name: string }> = {
  1900: { key: 1, rate: 19, name: 'Regelsteuersatz' },
  700: { key: 2, rate: 7, name: 'Ermäßigter Steuersatz' },
  1070: { key: 3, rate: 10.7, name: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 3 UStG)' },
  550: { key: 4, rate: 5.5, name: 'Durchschnittsatz (§ 24 Abs. 1 Nr. 1 UStG)' },
  0: { key: 6, rate: 0, name: 'Umsatzsteuerfrei' },
};
const notTaxable = { key: 5, rate: 0, name: 'Nicht Steuerbar' };
const keyOf = (rate: number | null) =>
  rate === null ? notTaxable : (vatKeys[rate] ?? { key: 7, rate: rate / 100, name: 'Sonstiger Steuersatz' });

type Value = string | number;
interface Column {
  name: string;
  kind: 'text' | 'number';
  /** Numeric: the decimal places (index.xml's Accuracy), every value is written with exactly these. */
  places?: number;
  /** AlphaNumeric: index.xml's MaxLength. */
  max?: number;
}
interface Table {
  file: string;
  name: string;
  description: string;
  columns: Column[];
  rows: Value[][];
}

const text = (name: string, max: number): Column => ({ name, kind: 'text', max });
const num = (name: string, places = 0): Column => ({ name, kind: 'number', places });

// The columns every file begins with: the close they belong to.
const closeKey = () => [text('Z_KASSE_ID', 50), text('Z_ERSTELLUNG', 30), num('Z_NR')];

/**
 * Hundredths (cents, a rate's hundredths of a percent) as a decimal with a comma and `places` (2 or
 * more) places, rounded there: 1234 → "12,34000"; a unit price of 1000 cents for 3 → "3,33333".
 */
const decimal = (hundredths: number, places = 2) => {
  const scaled = Math.round(Math.abs(hundredths) * 10 ** (places - 2));
  const digits = String(scaled).padStart(places + 1, '0');
  return `${hundredths < 0 && scaled ? '-' : ''}${digits.slice(0, -places)},${digits.slice(-places)}`;
};

/** A whole number with `places` decimal places: 3 → "3,000". */
const whole = (value: number, places: number) => `${value},${'0'.repeat(places)}`;

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

function csv(table: Table): string {
  const line = (values: string[]) => `${values.join(';')}\r\n`;
  return (
    line(table.columns.map((c) => c.name)) +
    table.rows
      .map((row) =>
        line(row.map((value, n) => (table.columns[n]!.kind === 'text' ? quote(String(value)) : String(value)))),
      )
      .join('')
  );
}

const xmlEscape = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * GDPdU's description of the files, as the DSFinV-K's own index.xml writes it: per Table, in the
 * DTD's order, its URL, Name and Description, the encoding (UTF8), the decimal and grouping symbols,
 * the Range of data lines (from line 2: line 1 is the header) and the columns.
 */
function indexXml(tables: Table[], supplier: { name: string; location: string }): string {
  const column = (c: Column) =>
    c.kind === 'text'
      ? `<VariableColumn><Name>${c.name}</Name><AlphaNumeric/>${c.max ? `<MaxLength>${c.max}</MaxLength>` : ''}</VariableColumn>`
      : `<VariableColumn><Name>${c.name}</Name><Numeric>${c.places ? `<Accuracy>${c.places}</Accuracy>` : ''}</Numeric></VariableColumn>`;
  const table = (t: Table) => `    <Table>
      <URL>${t.file}</URL>
      <Name>${t.name}</Name>
      <Description>${xmlEscape(t.description)}</Description>
      <UTF8/>
      <DecimalSymbol>,</DecimalSymbol>
      <DigitGroupingSymbol>.</DigitGroupingSymbol>
      <Range><From>2</From></Range>
      <VariableLength>
        <ColumnDelimiter>;</ColumnDelimiter>
        <RecordDelimiter>&#13;&#10;</RecordDelimiter>
        <TextEncapsulator>"</TextEncapsulator>
        ${t.columns.map(column).join('\n        ')}
      </VariableLength>
    </Table>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE DataSet SYSTEM "${gdpduDtdName}">
<DataSet>
  <Version>1.0</Version>
  <DataSupplier><Name>${xmlEscape(supplier.name)}</Name><Location>${xmlEscape(supplier.location)}</Location><Comment>DSFinV-K ${taxonomyVersion}</Comment></DataSupplier>
  <Media>
    <Name>DSFinV-K</Name>
${tables.map(table).join('\n')}
  </Media>
</DataSet>
`;
}

/** A local time without an offset, as DSFinV-K's date-times are: 2026-11-27T14:03:00. */
function localTime(at: Date | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`;
}

interface CloseRow {
  id: number;
  till_id: number;
  day: string;
  created_at: Date | string;
  last_movement_id: number | string | null;
  number: number | string;
  previous_last: number | string | null;
  previous_at: Date | string | null;
}

interface Fiscal {
  state: string;
  signature: DeSignature | null;
  lastError: string | null;
}

interface Vorgang {
  bonId: string;
  type: 'Beleg' | 'AVTransfer' | 'AVBelegabbruch';
  start: Date | string;
  staff: string;
  built: Built;
  vendor: string;
  /** The cash movement it is (null: a visit paid from the credit alone, or the opening balance). */
  movementId: number | null;
  fiscal?: Fiscal;
}

/** The closes whose day lies in the period, each with its number per till and what it covers. */
async function closesOf(db: Knex, from: string, to: string): Promise<CloseRow[]> {
  const { rows } = await db.raw<{ rows: CloseRow[] }>(
    `select * from (
       select c.id, c.till_id, to_char(c.day, 'YYYY-MM-DD') as day, c.created_at, c.last_movement_id,
              row_number() over (partition by c.till_id order by c.day, c.id) as number,
              lag(c.last_movement_id) over (partition by c.till_id order by c.day, c.id) as previous_last,
              lag(c.created_at) over (partition by c.till_id order by c.day, c.id) as previous_at
         from till_closes c) x
      where x.day >= ? and x.day <= ?
      order by x.till_id, x.number`,
    [from, to],
  );
  return rows;
}

const json = <T>(value: T | string | null): T | null => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** The Vorgänge of one close: its cash movements, the visits paid from the credit alone, the opening balance. */
async function vorgaenge(db: Knex, close: CloseRow): Promise<Vorgang[]> {
  const after = close.previous_last === null ? 0 : Number(close.previous_last);
  const upTo = close.last_movement_id === null ? 0 : Number(close.last_movement_id);
  const movements = await db('cash_movements as m')
    .leftJoin('vendors as v', 'v.id', 'm.vendor_id')
    // Germany's TSE data only: an Austrian till's RKSV receipts are in its DEP (at/dep.ts), not here.
    .leftJoin('fiscal_transactions as f', (j) => {
      j.on('f.cash_movement_id', 'm.id').andOnVal('f.country', '=', 'DE');
    })
    .where('m.till_id', close.till_id)
    .andWhere('m.id', '>', after)
    .andWhere('m.id', '<=', upTo)
    .orderBy('m.id')
    .select<
      {
        id: number | string;
        year: number;
        voucher_number: number;
        kind: string;
        amount: number | string;
        reason: string;
        staff: string;
        created_at: Date | string;
        counter_visit_id: string | null;
        license_id: string | null;
        state: string | null;
        signature: DeSignature | string | null;
        last_error: string | null;
      }[]
    >(
      'm.id',
      'm.year',
      'm.voucher_number',
      'm.kind',
      'm.amount',
      'm.reason',
      'm.staff',
      'm.created_at',
      'm.counter_visit_id',
      'v.license_id',
      'f.state',
      'f.signature',
      'f.last_error',
    );
  const result: Vorgang[] = [];
  for (const m of movements) {
    const built =
      m.kind === 'counter_cash' && m.counter_visit_id
        ? await visitRequest(db, m.counter_visit_id)
        : movementRequest({ kind: m.kind, amount: Number(m.amount), reason: m.reason });
    if (!built) continue;
    result.push({
      bonId: `${close.till_id}-${m.year}-${String(m.voucher_number).padStart(6, '0')}`,
      type: built.request.kind === 'receipt' ? 'Beleg' : 'AVTransfer',
      start: m.created_at,
      staff: m.staff,
      built,
      vendor: m.license_id ?? '',
      movementId: Number(m.id),
      fiscal: m.state ? { state: m.state, signature: json(m.signature), lastError: m.last_error } : undefined,
    });
  }
  // What happened after the previous close of the till and up to this one.
  const inClose = (q: Knex.QueryBuilder, column: string): void => {
    void q.andWhere(column, '<=', close.created_at);
    if (close.previous_at) void q.andWhere(column, '>', close.previous_at);
  };
  const visits = await db('counter_visits as cv')
    .join('vendors as v', 'v.id', 'cv.vendor_id')
    .leftJoin('fiscal_transactions as f', (j) => {
      j.on('f.counter_visit_id', 'cv.id').andOnVal('f.country', '=', 'DE');
    })
    .where('cv.till_id', close.till_id)
    .andWhere('cv.cash_paid', 0)
    .andWhere('cv.copies_amount', '>', 0)
    .modify((q) => inClose(q, 'cv.created_at'))
    .orderBy('cv.created_at')
    .select<
      {
        id: string;
        staff: string;
        created_at: Date | string;
        license_id: string;
        state: string | null;
        signature: DeSignature | string | null;
        last_error: string | null;
      }[]
    >('cv.id', 'cv.staff', 'cv.created_at', 'v.license_id', 'f.state', 'f.signature', 'f.last_error');
  for (const v of visits) {
    const built = await visitRequest(db, v.id);
    if (!built) continue;
    result.push({
      bonId: v.id,
      type: 'Beleg',
      start: v.created_at,
      staff: v.staff,
      built,
      vendor: v.license_id,
      movementId: null,
      fiscal: v.state ? { state: v.state, signature: json(v.signature), lastError: v.last_error } : undefined,
    });
  }
  // The cash the till held when its TSE went into service: signed (as the TSE's first transaction
  // of the till), so it is a Vorgang of its own, though no cash moved.
  const openings = await db('fiscal_transactions')
    .where({ till_id: close.till_id, country: 'DE' })
    .andWhere('source', 'like', 'opening:%')
    .modify((q) => inClose(q, 'created_at'))
    .orderBy('id')
    .select<
      {
        id: number | string;
        request: FiscalRequest | string;
        created_at: Date | string;
        state: string;
        signature: DeSignature | string | null;
        last_error: string | null;
      }[]
    >('id', 'request', 'created_at', 'state', 'signature', 'last_error');
  for (const o of openings)
    result.push({
      bonId: `${close.till_id}-AB-${String(o.id).padStart(6, '0')}`,
      type: 'AVTransfer',
      start: o.created_at,
      staff: 'Kassensystem',
      built: { businessCase: 'Anfangsbestand', request: json(o.request)! },
      vendor: '',
      movementId: null,
      fiscal: { state: o.state, signature: json(o.signature), lastError: o.last_error },
    });
  // A visit whose booking failed after its TSE transaction started: the transaction was CANCELLED
  // and signed as such, so it is an aborted Bon (AVBelegabbruch) without lines or payments.
  const aborted = await db('fiscal_transactions')
    .where({ till_id: close.till_id, country: 'DE' })
    .andWhere('source', 'like', 'abort:%')
    .modify((q) => inClose(q, 'created_at'))
    .orderBy('id')
    .select<
      { id: number | string; created_at: Date | string; state: string; signature: DeSignature | string | null }[]
    >('id', 'created_at', 'state', 'signature');
  for (const a of aborted)
    result.push({
      bonId: `${close.till_id}-BA-${String(a.id).padStart(6, '0')}`,
      type: 'AVBelegabbruch',
      start: a.created_at,
      staff: 'Kassensystem',
      built: { businessCase: 'Umsatz', request: { kind: 'receipt', lines: [], payments: [] } },
      vendor: '',
      movementId: null,
      fiscal: { state: a.state, signature: json(a.signature), lastError: null },
    });
  return result.sort((a, b) => new Date(a.start).getTime() - new Date(b.start).getTime());
}

interface MasterData {
  name: string;
  street: string;
  postcode: string;
  town: string;
  country: string;
  taxNumber: string;
  vatId: string;
}

/** The paper's master data, or a refusal naming what the settings still lack. */
async function masterData(db: Knex): Promise<MasterData> {
  const row = await db('settings').where({ id: 1 }).first<{
    newspaper_name: string;
    company_street: string;
    company_postcode: string;
    company_town: string;
    company_country: string;
    tax_number: string;
    vat_id: string;
  }>('newspaper_name', 'company_street', 'company_postcode', 'company_town', 'company_country', 'tax_number', 'vat_id');
  const missing: Message[] = [];
  if (!row.company_street) missing.push(tr('street'));
  if (!row.company_postcode) missing.push(tr('postcode'));
  if (!row.company_town) missing.push(tr('town'));
  if (!row.tax_number && !row.vat_id) missing.push(tr('tax number or VAT identification number'));
  if (missing.length)
    throw conflictError(
      tr('The DSFinV-K export needs in the settings (Address and tax): {missing}.', {
        missing: missing.reduce((list, next) => tr('{first}, {next}', { first: list, next })),
      }),
    );
  return {
    name: row.newspaper_name || 'Straßenzeitung',
    street: row.company_street,
    postcode: row.company_postcode,
    town: row.company_town,
    country: row.company_country,
    taxNumber: row.tax_number,
    vatId: row.vat_id,
  };
}

interface TillMaster {
  name: string;
  location_name: string;
  location_street: string;
  location_postcode: string;
  location_town: string;
  /** When the till's TSE went into service (null: it never did). */
  signing_since: Date | string | null;
  signs_after_movement_id: number | string | null;
  /** A signature of the till's TSE, for its master data where a close has no signed Vorgang. */
  signature: DeSignature | string | null;
  /** When its German TSE was taken out of service, oldest first (decommission.ts). */
  decommissions: Decommission[];
}

async function tillMaster(db: Knex, tillId: number): Promise<TillMaster> {
  const till = await db('tills as t')
    .leftJoin('fiscal_tills as f', 'f.till_id', 't.id')
    .where('t.id', tillId)
    .first<Omit<TillMaster, 'signature'>>(
      't.name',
      't.location_name',
      't.location_street',
      't.location_postcode',
      't.location_town',
      'f.signing_since',
      'f.signs_after_movement_id',
    );
  const signed = await db('fiscal_transactions')
    .where({ till_id: tillId, country: 'DE', state: 'signed' })
    .orderBy('id', 'desc')
    .first<{ signature: DeSignature | string | null } | undefined>('signature');
  const decommissions = (await decommissionsOf(db, tillId)).filter((d) => d.country === 'DE');
  return { ...till, signature: signed?.signature ?? null, decommissions };
}

/** A PEM certificate as tse.csv holds it: base64 of the DER, its first 1000 characters and the rest. */
function certificateColumns(pem: string | undefined): [string, string] {
  const base64 = (pem ?? '').replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return [base64.slice(0, 1000), base64.slice(1000, 2000)];
}

/**
 * The end of a TSE's service where the DSFinV-K can hold it. DSFinV-K 2.3's Stamm_TSE (tse.csv) has
 * no column for it, and its files and columns are fixed (an auditor's import reads no others), so the
 * Bons the till books after it say it in TSE_TA_FEHLER, the column for why a Bon has no signature:
 * when (local time) and the reason given, with TSE_ID naming the TSE in tse.csv.
 */
function endOfService(item: Vorgang, till: TillMaster, timeZone: string): string | undefined {
  const start = new Date(item.start).getTime();
  const ended = till.decommissions.filter((d) => new Date(d.at).getTime() <= start).at(-1);
  if (!ended) return undefined;
  // Signing that began again after it covers the Bons from then on.
  const since = till.signing_since ? new Date(till.signing_since).getTime() : null;
  if (since !== null && since > new Date(ended.at).getTime() && start >= since) return undefined;
  const [, year, month, day, time] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2})/.exec(localTime(ended.at, timeZone))!;
  return `TSE außer Betrieb genommen am ${day}.${month}.${year} ${time}: ${ended.reason}`.slice(0, 200);
}

/** Why a Vorgang has no TSE signature, in the words of TSE_TA_FEHLER. */
function missingSignature(item: Vorgang, till: TillMaster, timeZone: string): string {
  if (item.fiscal)
    return item.fiscal.state === 'failed'
      ? `TSE ausgefallen: ${item.fiscal.lastError ?? 'keine Antwort'}`.slice(0, 200)
      : `TSE-Transaktion noch nicht signiert${item.fiscal.lastError ? `: ${item.fiscal.lastError}` : ''}`.slice(0, 200);
  const ended = endOfService(item, till, timeZone);
  if (ended) return ended;
  const since = till.signing_since ? new Date(till.signing_since).getTime() : null;
  const before =
    since === null ||
    (item.movementId !== null
      ? till.signs_after_movement_id !== null && item.movementId <= Number(till.signs_after_movement_id)
      : new Date(item.start).getTime() < since);
  if (before) return 'Vor Inbetriebnahme der TSE (die Kasse signierte noch nicht)';
  return 'TSE-Transaktion fehlt (nicht an die TSE übergeben)';
}

/** The ZIP of the DSFinV-K for the closes of the local days `from` to `to` (both included). */
export async function dsfinvkExport(
  db: Knex,
  config: Config,
  from: string,
  to: string,
): Promise<{ zip: Uint8Array; filename: string }> {
  const company = await masterData(db);
  // The files, their names and columns (name, order, type, Accuracy, MaxLength) as DSFinV-K 2.3's
  // index.xml declares them; amounts at the Bon and its positions and per business case to 5 places,
  // payments and totals to 2.
  const t = {
    closing: {
      file: 'cashpointclosing.csv',
      name: 'Stamm_Abschluss',
      description: 'cashpointclosing.csv',
      columns: [
        ...closeKey(),
        text('Z_BUCHUNGSTAG', 25),
        text('TAXONOMIE_VERSION', 10),
        text('Z_START_ID', 40),
        text('Z_ENDE_ID', 40),
        text('NAME', 60),
        text('STRASSE', 60),
        text('PLZ', 10),
        text('ORT', 62),
        text('LAND', 3),
        text('STNR', 20),
        text('USTID', 15),
        num('Z_SE_ZAHLUNGEN', 2),
        num('Z_SE_BARZAHLUNGEN', 2),
      ],
      rows: [] as Value[][],
    },
    location: {
      file: 'location.csv',
      name: 'Stamm_Orte',
      description: 'location.csv',
      columns: [
        ...closeKey(),
        text('LOC_NAME', 60),
        text('LOC_STRASSE', 60),
        text('LOC_PLZ', 10),
        text('LOC_ORT', 62),
        text('LOC_LAND', 3),
        text('LOC_USTID', 15),
      ],
      rows: [] as Value[][],
    },
    register: {
      file: 'cashregister.csv',
      name: 'Stamm_Kassen',
      description: 'cashregister.csv',
      columns: [
        ...closeKey(),
        text('KASSE_BRAND', 50),
        text('KASSE_MODELL', 50),
        text('KASSE_SERIENNR', 70),
        text('KASSE_SW_BRAND', 50),
        text('KASSE_SW_VERSION', 50),
        text('KASSE_BASISWAEH_CODE', 3),
        text('KEINE_UST_ZUORDNUNG', 1),
      ],
      rows: [] as Value[][],
    },
    tse: {
      file: 'tse.csv',
      name: 'Stamm_TSE',
      description: 'tse.csv',
      columns: [
        ...closeKey(),
        num('TSE_ID'),
        text('TSE_SERIAL', 68),
        text('TSE_SIG_ALGO', 21),
        text('TSE_ZEITFORMAT', 31),
        text('TSE_PD_ENCODING', 5),
        text('TSE_PUBLIC_KEY', 512),
        text('TSE_ZERTIFIKAT_I', 1000),
        text('TSE_ZERTIFIKAT_II', 1000),
      ],
      rows: [] as Value[][],
    },
    vat: {
      file: 'vat.csv',
      name: 'Stamm_USt',
      description: 'vat.csv',
      columns: [...closeKey(), num('UST_SCHLUESSEL'), num('UST_SATZ', 2), text('UST_BESCHR', 55)],
      rows: [] as Value[][],
    },
    businessCases: {
      file: 'businesscases.csv',
      name: 'Z_GV_Typ',
      description: 'businesscases.csv',
      columns: [
        ...closeKey(),
        text('GV_TYP', 30),
        text('GV_NAME', 40),
        num('AGENTUR_ID'),
        num('UST_SCHLUESSEL'),
        num('Z_UMS_BRUTTO', 5),
        num('Z_UMS_NETTO', 5),
        num('Z_UST', 5),
      ],
      rows: [] as Value[][],
    },
    paymentTotals: {
      file: 'payment.csv',
      name: 'Z_Zahlart',
      description: 'payment.csv',
      columns: [...closeKey(), text('ZAHLART_TYP', 25), text('ZAHLART_NAME', 60), num('Z_ZAHLART_BETRAG', 2)],
      rows: [] as Value[][],
    },
    currencies: {
      file: 'cash_per_currency.csv',
      name: 'Z_Waehrungen',
      description: 'cash_per_currency.csv',
      columns: [...closeKey(), text('ZAHLART_WAEH', 3), num('ZAHLART_BETRAG_WAEH', 2)],
      rows: [] as Value[][],
    },
    transactions: {
      file: 'transactions.csv',
      name: 'Bonkopf',
      description: 'transactions.csv',
      columns: [
        ...closeKey(),
        text('BON_ID', 40),
        num('BON_NR'),
        text('BON_TYP', 30),
        text('BON_NAME', 60),
        text('TERMINAL_ID', 50),
        text('BON_STORNO', 1),
        text('BON_START', 30),
        text('BON_ENDE', 30),
        text('BEDIENER_ID', 50),
        text('BEDIENER_NAME', 50),
        num('UMS_BRUTTO', 2),
        text('KUNDE_NAME', 50),
        text('KUNDE_ID', 50),
        text('KUNDE_TYP', 50),
        text('KUNDE_STRASSE', 60),
        text('KUNDE_PLZ', 10),
        text('KUNDE_ORT', 62),
        text('KUNDE_LAND', 3),
        text('KUNDE_USTID', 15),
        text('BON_NOTIZ', 255),
      ],
      rows: [] as Value[][],
    },
    payments: {
      file: 'datapayment.csv',
      name: 'Bonkopf_Zahlarten',
      description: 'datapayment.csv',
      columns: [
        ...closeKey(),
        text('BON_ID', 40),
        text('ZAHLART_TYP', 25),
        text('ZAHLART_NAME', 60),
        text('ZAHLWAEH_CODE', 3),
        num('ZAHLWAEH_BETRAG', 2),
        num('BASISWAEH_BETRAG', 2),
      ],
      rows: [] as Value[][],
    },
    lines: {
      file: 'lines.csv',
      name: 'Bonpos',
      description: 'lines.csv',
      columns: [
        ...closeKey(),
        text('BON_ID', 40),
        text('POS_ZEILE', 50),
        text('GUTSCHEIN_NR', 50),
        text('ARTIKELTEXT', 255),
        text('POS_TERMINAL_ID', 50),
        text('GV_TYP', 30),
        text('GV_NAME', 40),
        text('INHAUS', 1),
        text('P_STORNO', 1),
        num('AGENTUR_ID'),
        text('ART_NR', 50),
        text('GTIN', 50),
        text('WARENGR_ID', 40),
        text('WARENGR', 50),
        num('MENGE', 3),
        num('FAKTOR', 3),
        text('EINHEIT', 50),
        num('STK_BR', 5),
      ],
      rows: [] as Value[][],
    },
    tseTransactions: {
      file: 'transactions_tse.csv',
      name: 'TSE_Transaktionen',
      description: 'transactions_tse.csv',
      columns: [
        ...closeKey(),
        text('BON_ID', 40),
        num('TSE_ID'),
        num('TSE_TANR'),
        text('TSE_TA_START', 30),
        text('TSE_TA_ENDE', 30),
        text('TSE_TA_VORGANGSART', 30),
        num('TSE_TA_SIGZ'),
        text('TSE_TA_SIG', 512),
        text('TSE_TA_FEHLER', 200),
        text('TSE_VORGANGSDATEN', 1000),
      ],
      rows: [] as Value[][],
    },
    transactionsVat: {
      file: 'transactions_vat.csv',
      name: 'Bonkopf_USt',
      description: 'transactions_vat.csv',
      columns: [
        ...closeKey(),
        text('BON_ID', 40),
        num('UST_SCHLUESSEL'),
        num('BON_BRUTTO', 5),
        num('BON_NETTO', 5),
        num('BON_UST', 5),
      ],
      rows: [] as Value[][],
    },
    linesVat: {
      file: 'lines_vat.csv',
      name: 'Bonpos_USt',
      description: 'lines_vat.csv',
      columns: [
        ...closeKey(),
        text('BON_ID', 40),
        text('POS_ZEILE', 50),
        num('UST_SCHLUESSEL'),
        num('POS_BRUTTO', 5),
        num('POS_NETTO', 5),
        num('POS_UST', 5),
      ],
      rows: [] as Value[][],
    },
  } satisfies Record<string, Table>;

  const tills = new Map<number, TillMaster>();
  for (const close of await closesOf(db, from, to)) {
    const z = [String(close.till_id), localTime(close.created_at, config.timeZone), Number(close.number)] as const;
    const till = tills.get(close.till_id) ?? (await tillMaster(db, close.till_id));
    tills.set(close.till_id, till);
    const items = await vorgaenge(db, close);
    const cases = new Map<string, { type: string; key: number; gross: number; vat: number }>();
    const paid = new Map<string, number>();
    // The TSEs of the close, numbered from 1 (TSE_ID refers to them within the close): those that
    // signed its Vorgänge, else the till's, so a Vorgang without a signature names the TSE it lacks.
    const tses = new Map<string, { id: number; sig: DeSignature }>();
    const tseOf = (sig: DeSignature) => {
      if (!tses.has(sig.tssSerial)) tses.set(sig.tssSerial, { id: tses.size + 1, sig });
      return tses.get(sig.tssSerial)!.id;
    };
    for (const item of items) if (item.fiscal?.signature) tseOf(item.fiscal.signature);
    const tillTse = json<DeSignature>(till.signature);
    let serial = tillSerial(close.till_id);
    items.forEach((item, n) => {
      const { request } = item.built;
      const gross = request.lines.reduce((sum, line) => sum + line.gross, 0);
      request.lines.forEach((line, pos) => {
        const key = keyOf(line.vatRate);
        const vat = line.vatRate === null ? 0 : vatIncluded(line.gross, line.vatRate);
        const quantity = line.quantity ?? 1;
        t.lines.rows.push([
          ...z,
          item.bonId,
          String(pos + 1),
          '',
          line.label,
          '',
          line.businessCase,
          '',
          '0',
          '0',
          '',
          '',
          '',
          '',
          '',
          whole(quantity, 3),
          whole(1, 3),
          'Stück',
          decimal(line.gross / quantity, 5),
        ]);
        t.linesVat.rows.push([
          ...z,
          item.bonId,
          String(pos + 1),
          key.key,
          decimal(line.gross, 5),
          decimal(line.gross - vat, 5),
          decimal(vat, 5),
        ]);
        const caseKey = `${line.businessCase} ${key.key}`;
        const sum = cases.get(caseKey) ?? { type: line.businessCase, key: key.key, gross: 0, vat: 0 };
        sum.gross += line.gross;
        sum.vat += vat;
        cases.set(caseKey, sum);
      });
      const perKey = new Map<number, { gross: number; vat: number }>();
      for (const line of request.lines) {
        const key = keyOf(line.vatRate).key;
        const sum = perKey.get(key) ?? { gross: 0, vat: 0 };
        sum.gross += line.gross;
        sum.vat += line.vatRate === null ? 0 : vatIncluded(line.gross, line.vatRate);
        perKey.set(key, sum);
      }
      for (const [key, sum] of perKey)
        t.transactionsVat.rows.push([
          ...z,
          item.bonId,
          key,
          decimal(sum.gross, 5),
          decimal(sum.gross - sum.vat, 5),
          decimal(sum.vat, 5),
        ]);
      for (const payment of request.payments) {
        t.payments.rows.push([
          ...z,
          item.bonId,
          payment.type,
          payment.type === 'Bar' ? 'Bargeld' : 'Guthaben',
          'EUR',
          decimal(payment.amount),
          decimal(payment.amount),
        ]);
        paid.set(payment.type, (paid.get(payment.type) ?? 0) + payment.amount);
      }
      const start = localTime(item.start, config.timeZone);
      t.transactions.rows.push([
        ...z,
        item.bonId,
        n + 1,
        item.type,
        item.type === 'AVBelegabbruch' ? 'Belegabbruch' : item.built.businessCase,
        '',
        '0',
        start,
        start,
        item.staff,
        item.staff,
        decimal(gross),
        '',
        item.vendor,
        item.vendor ? 'Verkäufer' : '',
        '',
        '',
        '',
        '',
        '',
        '',
      ]);
      // Every Bon has its TSE row: the signature, or why there is none (TSE_TA_FEHLER).
      const sig = item.fiscal?.signature ?? null;
      if (sig) {
        serial = sig.clientSerial;
        t.tseTransactions.rows.push([
          ...z,
          item.bonId,
          tseOf(sig),
          sig.transactionNumber,
          sig.start,
          sig.end,
          sig.processType,
          sig.signatureCounter,
          sig.signature,
          '',
          sig.processData,
        ]);
      } else {
        const tse = [...tses.values()][0]?.id ?? (tillTse ? tseOf(tillTse) : '');
        t.tseTransactions.rows.push([
          ...z,
          item.bonId,
          tse,
          '',
          '',
          '',
          '',
          '',
          '',
          missingSignature(item, till, config.timeZone),
          '',
        ]);
      }
    });
    const total = [...paid.values()].reduce((a, b) => a + b, 0);
    t.closing.rows.push([
      ...z,
      close.day,
      taxonomyVersion,
      items[0]?.bonId ?? '',
      items.at(-1)?.bonId ?? '',
      company.name,
      company.street,
      company.postcode,
      company.town,
      company.country,
      company.taxNumber,
      company.vatId,
      decimal(total),
      decimal(paid.get('Bar') ?? 0),
    ]);
    t.location.rows.push([
      ...z,
      (till.location_name || `${company.name}, ${till.name}`).slice(0, 60),
      till.location_street || company.street,
      till.location_postcode || company.postcode,
      till.location_town || company.town,
      company.country,
      company.vatId,
    ]);
    t.register.rows.push([
      ...z,
      'Straßenzeitung',
      'street-paper-shop',
      serial,
      'street-paper-shop',
      '0.1.0',
      'EUR',
      '0',
    ]);
    const keys = new Set([...cases.values()].map((c) => c.key));
    for (const key of [...keys].sort()) {
      const known = [...Object.values(vatKeys), notTaxable].find((k) => k.key === key);
      t.vat.rows.push([...z, key, decimal((known?.rate ?? 0) * 100), known?.name ?? '']);
    }
    for (const { id, sig } of tses.values()) {
      const certificate = sig.certificate ?? (tillTse?.tssSerial === sig.tssSerial ? tillTse.certificate : undefined);
      t.tse.rows.push([
        ...z,
        id,
        sig.tssSerial,
        sig.algorithm,
        sig.timeFormat,
        'UTF-8',
        sig.publicKey,
        ...certificateColumns(certificate),
      ]);
    }
    for (const sum of cases.values())
      t.businessCases.rows.push([
        ...z,
        sum.type,
        '',
        '',
        sum.key,
        decimal(sum.gross, 5),
        decimal(sum.gross - sum.vat, 5),
        decimal(sum.vat, 5),
      ]);
    for (const [type, amount] of paid)
      t.paymentTotals.rows.push([...z, type, type === 'Bar' ? 'Bargeld' : 'Guthaben', decimal(amount)]);
    t.currencies.rows.push([...z, 'EUR', decimal(paid.get('Bar') ?? 0)]);
  }

  const tables: Table[] = Object.values(t);
  const files: Record<string, Uint8Array> = {
    'index.xml': strToU8(
      indexXml(tables, {
        name: company.name,
        location: `${company.street}, ${company.postcode} ${company.town}, ${company.country}`,
      }),
    ),
    [gdpduDtdName]: strToU8(gdpduDtd),
  };
  for (const table of tables) files[table.file] = strToU8(csv(table));
  return { zip: zipSync(files), filename: `dsfinvk_${from}_${to}.zip` };
}
