import { localDateTime, localDay, type Period } from './period.ts';
import { Message, translate, type Language, type Text } from '../language/messages.ts';
import { minorUnitExponent } from '../money/currency.ts';

// CSV as German spreadsheet programs open it without an import dialog: UTF-8 with a byte order
// mark, `;` between fields, a decimal comma, every field quoted, local date and time. A text
// starting with = + - @ or a control character would run as a formula; it gets a leading
// apostrophe. Amounts and dates are written by us and never need that. Headers, yes/no and our
// own labels (a Message) are in the caller's language; the number format stays the spreadsheet's.
// Amounts are in the installation's currency, with its digits: "12,50" francs, "500" yen.

export type CsvValue = string | number | boolean | Date | Message | null | undefined;

/** Whom a CSV is written for: the newspaper's time zone, the reader's language, the books' currency. */
export interface CsvReader {
  timeZone: string;
  language: Language;
  /** ISO 4217, as the settings hold it. */
  currency: string;
}

export interface CsvColumn<Row> {
  header: Text;
  value: (row: Row, language: Language, currency: string) => CsvValue;
  /**
   * `cents` writes an integer in the currency's minor unit as a decimal number of its unit ("12,50"
   * for 1250 cents, "500" for 500 yen); `date` as local "21.11.2026 14:05:00".
   */
  format?: 'cents' | 'date' | 'day';
}

/**
 * "1234,56" for 123456 cents, "-0,50" for -50, "500" for 500 yen: an amount in the currency's minor
 * unit as a decimal number; exact for any safe integer, no float rounding. A German spreadsheet reads
 * the decimal comma; an importer of the international journal reads a point (`decimalMark`).
 */
export function minorToDecimal(minor: number, currency: string, decimalMark: ',' | '.' = ','): string {
  if (minorUnitExponent(currency) === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}${decimalMark}${String(abs % 100).padStart(2, '0')}`;
}

/** A text a spreadsheet would run as a formula (= + - @ or a control character first) as plain text. */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** "27.11.2026", or with `withTime` "27.11.2026 14:03:00", in the newspaper's zone. */
function localDate(value: Date | string, timeZone: string, withTime: boolean): string {
  const [year, month, day, time] = localDateTime(value, timeZone).split(/[-T]/);
  return withTime ? `${day}.${month}.${year} ${time}` : `${day}.${month}.${year}`;
}

function cell<Row>(column: CsvColumn<Row>, row: Row, reader: CsvReader): string {
  const value = column.value(row, reader.language, reader.currency);
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Message) text = translate(value, reader.language, reader.currency);
  else if (column.format === 'cents') text = minorToDecimal(Number(value), reader.currency);
  else if (column.format === 'date' || column.format === 'day')
    text = localDate(value as Date | string, reader.timeZone, column.format === 'date');
  else if (typeof value === 'number') text = String(value).replace('.', ',');
  else if (typeof value === 'boolean') text = translate(value ? 'yes' : 'no', reader.language);
  else {
    text = neutraliseFormula(value instanceof Date ? value.toISOString() : value);
  }
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine<Row>(columns: CsvColumn<Row>[], row: Row, reader: CsvReader): string {
  return columns.map((column) => cell(column, row, reader)).join(';') + '\r\n';
}

export function csvHeader(columns: CsvColumn<unknown>[], language: Language = 'de'): string {
  const header = (c: CsvColumn<unknown>) => translate(c.header, language).replace(/"/g, '""');
  return '\uFEFF' + columns.map((c) => `"${header(c)}"`).join(';') + '\r\n';
}

/** "buchungen_2026-05-01_2026-05-31.csv": a download named after its period's local days, the last one included. */
export function periodFilename(name: string, period: Period, timeZone: string): string {
  const days = [
    period.from && localDay(period.from, timeZone),
    period.to && localDay(new Date(period.to.getTime() - 1), timeZone),
  ];
  return [name, ...days.filter(Boolean)].join('_') + '.csv';
}
