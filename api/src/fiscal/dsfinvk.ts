import { strToU8, zipSync } from 'fflate';
import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { vatIncluded } from '../ledger/vat.ts';
import { movementRequest, visitRequest, type Built } from './cases.ts';
import type { DeSignature } from './port.ts';

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
  places?: number;
}
interface Table {
  file: string;
  name: string;
  description: string;
  columns: Column[];
  rows: Value[][];
}

const text = (name: string): Column => ({ name, kind: 'text' });
const num = (name: string, places = 0): Column => ({ name, kind: 'number', places });

/** Cents as a decimal with a comma: 1234 → "12,34"; with more places, padded. */
const decimal = (cents: number, places = 2) => {
  const value = (Math.abs(cents) / 100).toFixed(2) + '0'.repeat(Math.max(places - 2, 0));
  return `${cents < 0 ? '-' : ''}${value.replace('.', ',')}`;
};

const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;

function csv(table: Table): string {
  const line = (values: string[]) => `${values.join(';')}\r\n`;
  return (
    line(table.columns.map((c) => c.name)) +
    table.rows
      .map((row) =>
        line(
          row.map((value, n) =>
            table.columns[n]!.kind === 'text'
              ? quote(String(value))
              : typeof value === 'number'
                ? String(value)
                : value,
          ),
        ),
      )
      .join('')
  );
}

const xmlEscape = (value: string) =>
  value.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** GDPdU's description of the files (gdpdu-01-09-2004.dtd), as the DSFinV-K asks. */
function indexXml(tables: Table[], supplier: string): string {
  const column = (c: Column) =>
    c.kind === 'text'
      ? `<VariableColumn><Name>${c.name}</Name><AlphaNumeric/></VariableColumn>`
      : `<VariableColumn><Name>${c.name}</Name><Numeric>${c.places ? `<Accuracy>${c.places}</Accuracy>` : ''}</Numeric></VariableColumn>`;
  const table = (t: Table) => `    <Table>
      <URL>${t.file}</URL>
      <Name>${t.name}</Name>
      <Description>${xmlEscape(t.description)}</Description>
      <Validity><Range><From>2</From></Range></Validity>
      <DecimalSymbol>,</DecimalSymbol>
      <DigitGroupingSymbol>.</DigitGroupingSymbol>
      <VariableLength>
        <ColumnDelimiter>;</ColumnDelimiter>
        <RecordDelimiter>&#13;&#10;</RecordDelimiter>
        <TextEncapsulator>"</TextEncapsulator>
        ${t.columns.map(column).join('\n        ')}
      </VariableLength>
    </Table>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE DataSet SYSTEM "gdpdu-01-09-2004.dtd">
<DataSet>
  <Version>1.0</Version>
  <DataSupplier><Name>${xmlEscape(supplier)}</Name><Location>DEU</Location><Comment>DSFinV-K ${taxonomyVersion}</Comment></DataSupplier>
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

interface Vorgang {
  bonId: string;
  type: 'Beleg' | 'AVTransfer';
  start: Date | string;
  staff: string;
  built: Built;
  vendor: string;
  fiscal?: { state: string; signature: DeSignature | null; lastError: string | null };
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

/** The Vorgänge of one close: its cash movements, and the visits paid from the credit alone in its time. */
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
      fiscal: m.state ? { state: m.state, signature: json(m.signature), lastError: m.last_error } : undefined,
    });
  }
  const visits = await db('counter_visits as cv')
    .join('vendors as v', 'v.id', 'cv.vendor_id')
    .leftJoin('fiscal_transactions as f', (j) => {
      j.on('f.counter_visit_id', 'cv.id').andOnVal('f.country', '=', 'DE');
    })
    .where('cv.till_id', close.till_id)
    .andWhere('cv.cash_paid', 0)
    .andWhere('cv.copies_amount', '>', 0)
    .andWhere('cv.created_at', '<=', close.created_at)
    .modify((q) => {
      if (close.previous_at) void q.andWhere('cv.created_at', '>', close.previous_at);
    })
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
      fiscal: v.state ? { state: v.state, signature: json(v.signature), lastError: v.last_error } : undefined,
    });
  }
  return result.sort((a, b) => new Date(a.start).getTime() - new Date(b.start).getTime());
}

/** The ZIP of the DSFinV-K for the closes of the local days `from` to `to` (both included). */
export async function dsfinvkExport(
  db: Knex,
  config: Config,
  from: string,
  to: string,
): Promise<{ zip: Uint8Array; filename: string }> {
  const settings = await db('settings').first<{ newspaper_name: string } | undefined>('newspaper_name');
  const company = settings?.newspaper_name || 'Straßenzeitung';
  const t = {
    lines: {
      file: 'lines.csv',
      name: 'Bonpos',
      description: 'Positionen der Vorgänge',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('BON_ID'),
        text('POS_ZEILE'),
        text('GUTSCHEIN_NR'),
        text('ARTIKELTEXT'),
        text('POS_TERMINAL_ID'),
        text('GV_TYP'),
        text('GV_NAME'),
        num('INHAUS'),
        num('P_STORNO'),
        num('AGENTUR_ID'),
        text('ART_NR'),
        text('GTIN'),
        text('WARENGR_ID'),
        text('WARENGR'),
        num('MENGE', 3),
        num('FAKTOR', 3),
        text('EINHEIT'),
        num('STK_BR', 5),
      ],
      rows: [] as Value[][],
    },
    linesVat: {
      file: 'lines_vat.csv',
      name: 'Bonpos_USt',
      description: 'USt der Positionen',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('BON_ID'),
        text('POS_ZEILE'),
        num('UST_SCHLUESSEL'),
        num('POS_BRUTTO', 5),
        num('POS_NETTO', 5),
        num('POS_UST', 5),
      ],
      rows: [] as Value[][],
    },
    transactions: {
      file: 'transactions.csv',
      name: 'Bonkopf',
      description: 'Vorgänge (Bonköpfe)',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('BON_ID'),
        num('BON_NR'),
        text('BON_TYP'),
        text('BON_NAME'),
        text('TERMINAL_ID'),
        num('BON_STORNO'),
        text('BON_START'),
        text('BON_ENDE'),
        text('BEDIENER_ID'),
        text('BEDIENER_NAME'),
        num('UMS_BRUTTO', 2),
        text('KUNDE_NAME'),
        text('KUNDE_ID'),
        text('KUNDE_TYP'),
        text('KUNDE_STRASSE'),
        text('KUNDE_PLZ'),
        text('KUNDE_ORT'),
        text('KUNDE_LAND'),
        text('KUNDE_USTID'),
        text('BON_NOTIZ'),
      ],
      rows: [] as Value[][],
    },
    transactionsVat: {
      file: 'transactions_vat.csv',
      name: 'Bonkopf_USt',
      description: 'USt der Vorgänge',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('BON_ID'),
        num('UST_SCHLUESSEL'),
        num('BON_BRUTTO', 2),
        num('BON_NETTO', 2),
        num('BON_UST', 2),
      ],
      rows: [] as Value[][],
    },
    payments: {
      file: 'datapayment.csv',
      name: 'Bonkopf_Zahlarten',
      description: 'Zahlarten der Vorgänge',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('BON_ID'),
        text('ZAHLART_TYP'),
        text('ZAHLART_NAME'),
        text('ZAHLWAEH_CODE'),
        num('ZAHLWAEH_BETRAG', 2),
        num('BASISWAEH_BETRAG', 2),
      ],
      rows: [] as Value[][],
    },
    tseTransactions: {
      file: 'transactions_tse.csv',
      name: 'TSE_Transaktionen',
      description: 'TSE-Transaktionen der Vorgänge',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('BON_ID'),
        num('TSE_ID'),
        num('TSE_TANR'),
        text('TSE_TA_START'),
        text('TSE_TA_ENDE'),
        text('TSE_TA_VORGANGSART'),
        num('TSE_TA_SIGZ'),
        text('TSE_TA_SIG'),
        text('TSE_TA_FEHLER'),
        text('TSE_TA_VORGANGSDATEN'),
      ],
      rows: [] as Value[][],
    },
    closing: {
      file: 'cashpointclosing.csv',
      name: 'Stamm_Abschluss',
      description: 'Kassenabschlüsse',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('Z_BUCHUNGSTAG'),
        text('TAXONOMIE_VERSION'),
        text('Z_START_ID'),
        text('Z_ENDE_ID'),
        text('NAME'),
        text('STRASSE'),
        text('PLZ'),
        text('ORT'),
        text('LAND'),
        text('STNR'),
        text('USTID'),
        num('Z_SE_ZAHLUNGEN', 2),
        num('Z_SE_BARZAHLUNGEN', 2),
      ],
      rows: [] as Value[][],
    },
    location: {
      file: 'location.csv',
      name: 'Stamm_Orte',
      description: 'Betriebsstätte',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('LOC_NAME'),
        text('LOC_STRASSE'),
        text('LOC_PLZ'),
        text('LOC_ORT'),
        text('LOC_LAND'),
        text('LOC_USTID'),
      ],
      rows: [] as Value[][],
    },
    register: {
      file: 'cashregister.csv',
      name: 'Stamm_Kassen',
      description: 'Kassen',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('KASSE_BRAND'),
        text('KASSE_MODELL'),
        text('KASSE_SERIENNR'),
        text('KASSE_SW_BRAND'),
        text('KASSE_SW_VERSION'),
        text('KASSE_BASISWAEH_CODE'),
        num('KEINE_UST_ZUORDNUNG'),
      ],
      rows: [] as Value[][],
    },
    vat: {
      file: 'vat.csv',
      name: 'Stamm_USt',
      description: 'Umsatzsteuersätze',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        num('UST_SCHLUESSEL'),
        num('UST_SATZ', 2),
        text('UST_BESCHR'),
      ],
      rows: [] as Value[][],
    },
    tse: {
      file: 'tse.csv',
      name: 'Stamm_TSE',
      description: 'Technische Sicherheitseinrichtungen',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        num('TSE_ID'),
        text('TSE_SERIAL'),
        text('TSE_SIG_ALGO'),
        text('TSE_ZEITFORMAT'),
        text('TSE_PD_ENCODING'),
        text('TSE_PUBLIC_KEY'),
        text('TSE_ZERTIFIKAT_I'),
      ],
      rows: [] as Value[][],
    },
    businessCases: {
      file: 'businesscases.csv',
      name: 'Z_GV_Typ',
      description: 'Summen je Geschäftsvorfall-Art',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('GV_TYP'),
        text('GV_NAME'),
        num('AGENTUR_ID'),
        num('UST_SCHLUESSEL'),
        num('Z_UMS_BRUTTO', 2),
        num('Z_UMS_NETTO', 2),
        num('Z_UST', 2),
      ],
      rows: [] as Value[][],
    },
    paymentTotals: {
      file: 'payment.csv',
      name: 'Z_Zahlart',
      description: 'Summen je Zahlart',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('ZAHLART_TYP'),
        text('ZAHLART_NAME'),
        num('Z_ZAHLART_BETRAG', 2),
      ],
      rows: [] as Value[][],
    },
    currencies: {
      file: 'cash_per_currency.csv',
      name: 'Z_Waehrungen',
      description: 'Summen je Währung',
      columns: [
        text('Z_KASSE_ID'),
        text('Z_ERSTELLUNG'),
        num('Z_NR'),
        text('ZAHLART_WAEH'),
        num('ZAHLART_BETRAG_WAEH', 2),
      ],
      rows: [] as Value[][],
    },
  } satisfies Record<string, Table>;

  for (const close of await closesOf(db, from, to)) {
    const z = [String(close.till_id), localTime(close.created_at, config.timeZone), Number(close.number)] as const;
    const items = await vorgaenge(db, close);
    const cases = new Map<string, { type: string; key: number; gross: number; vat: number }>();
    const paid = new Map<string, number>();
    const tses = new Map<string, { id: number; sig: DeSignature }>();
    let serial = `till-${close.till_id}`;
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
          0,
          0,
          0,
          '',
          '',
          '',
          '',
          decimal(quantity * 100, 3),
          decimal(100, 3),
          'Stück',
          decimal(Math.round(line.gross / quantity), 5),
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
          decimal(sum.gross),
          decimal(sum.gross - sum.vat),
          decimal(sum.vat),
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
      const sig = item.fiscal?.signature ?? null;
      const start = localTime(item.start, config.timeZone);
      t.transactions.rows.push([
        ...z,
        item.bonId,
        n + 1,
        item.type,
        item.built.businessCase,
        '',
        0,
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
      if (item.fiscal) {
        if (sig) {
          serial = sig.clientSerial;
          if (!tses.has(sig.tssSerial)) tses.set(sig.tssSerial, { id: tses.size + 1, sig });
          t.tseTransactions.rows.push([
            ...z,
            item.bonId,
            tses.get(sig.tssSerial)!.id,
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
          t.tseTransactions.rows.push([
            ...z,
            item.bonId,
            0,
            0,
            '',
            '',
            '',
            0,
            '',
            `TSE ausgefallen: ${item.fiscal.lastError ?? item.fiscal.state}`.slice(0, 200),
            '',
          ]);
        }
      }
    });
    const total = [...paid.values()].reduce((a, b) => a + b, 0);
    t.closing.rows.push([
      ...z,
      close.day,
      taxonomyVersion,
      items[0]?.bonId ?? '',
      items.at(-1)?.bonId ?? '',
      company,
      '',
      '',
      '',
      'DEU',
      '',
      '',
      decimal(total),
      decimal(paid.get('Bar') ?? 0),
    ]);
    t.location.rows.push([...z, company, '', '', '', 'DEU', '']);
    t.register.rows.push([...z, 'Straßenzeitung', 'street-paper-shop', serial, 'street-paper-shop', '0.1.0', 'EUR', 0]);
    const keys = new Set([...cases.values()].map((c) => c.key));
    for (const key of [...keys].sort()) {
      const known = [...Object.values(vatKeys), notTaxable].find((k) => k.key === key);
      t.vat.rows.push([...z, key, decimal((known?.rate ?? 0) * 100), known?.name ?? '']);
    }
    for (const { id, sig } of tses.values())
      t.tse.rows.push([...z, id, sig.tssSerial, sig.algorithm, sig.timeFormat, 'UTF-8', sig.publicKey, '']);
    for (const sum of cases.values())
      t.businessCases.rows.push([
        ...z,
        sum.type,
        '',
        0,
        sum.key,
        decimal(sum.gross),
        decimal(sum.gross - sum.vat),
        decimal(sum.vat),
      ]);
    for (const [type, amount] of paid)
      t.paymentTotals.rows.push([...z, type, type === 'Bar' ? 'Bargeld' : 'Guthaben', decimal(amount)]);
    t.currencies.rows.push([...z, 'EUR', decimal(paid.get('Bar') ?? 0)]);
  }

  const tables: Table[] = Object.values(t);
  const files: Record<string, Uint8Array> = { 'index.xml': strToU8(indexXml(tables, company)) };
  for (const table of tables) files[table.file] = strToU8(csv(table));
  return { zip: zipSync(files), filename: `dsfinvk_${from}_${to}.zip` };
}
