import { PassThrough } from 'node:stream';
import { localDay, zoneOffset, type Period } from './period.ts';
import type { AppContext } from './routes.ts';

// CSV as German spreadsheet programs open it without an import dialog: UTF-8 with a byte order
// mark, `;` between fields, a decimal comma, every field quoted, local date and time. A text
// starting with = + - @ or a control character would run as a formula; it gets a leading
// apostrophe. Amounts and dates are written by us and never need that.

export type CsvValue = string | number | boolean | Date | null | undefined;

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CsvValue;
  /** `cents` writes an integer of cents as euros ("12,50"); `date` as local "21.11.2026 14:05:00". */
  format?: 'cents' | 'date' | 'day';
}

/** "1234,56" for 123456 cents, "-0,50" for -50; exact for any safe integer, no float rounding. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

function localDate(value: Date | string, timeZone: string, withTime: boolean): string {
  const at = new Date(value).getTime();
  const local = new Date(at + zoneOffset(at, timeZone));
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${two(local.getUTCDate())}.${two(local.getUTCMonth() + 1)}.${local.getUTCFullYear()}`;
  return withTime
    ? `${day} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`
    : day;
}

function cell<Row>(column: CsvColumn<Row>, row: Row, timeZone: string): string {
  const value = column.value(row);
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (column.format === 'cents') text = centsToDecimal(Number(value));
  else if (column.format === 'date' || column.format === 'day')
    text = localDate(value as Date | string, timeZone, column.format === 'date');
  else if (typeof value === 'number') text = String(value).replace('.', ',');
  else if (typeof value === 'boolean') text = value ? 'ja' : 'nein';
  else {
    text = value instanceof Date ? value.toISOString() : value;
    if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  }
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine<Row>(columns: CsvColumn<Row>[], row: Row, timeZone: string): string {
  return columns.map((column) => cell(column, row, timeZone)).join(';') + '\r\n';
}

export function csvHeader(columns: CsvColumn<unknown>[]): string {
  return '\uFEFF' + columns.map((c) => `"${c.header.replace(/"/g, '""')}"`).join(';') + '\r\n';
}

/**
 * Answers a CSV download. `batches` yields the rows a page at a time, so a year of ledger rows is
 * streamed instead of held in memory; a short table is passed as `[rows]`.
 */
export function respondCsv<Row>(
  ctx: AppContext,
  filename: string,
  columns: CsvColumn<Row>[],
  batches: AsyncIterable<Row[]> | Iterable<Row[]>,
): void {
  const timeZone = ctx.config.timeZone;
  const out = new PassThrough();
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = out;
  void (async () => {
    try {
      out.write(csvHeader(columns as CsvColumn<unknown>[]));
      for await (const rows of batches) {
        const chunk = rows.map((row) => csvLine(columns, row, timeZone)).join('');
        if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
      }
      out.end();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
}

/** Whether the caller asked for the CSV form of a list (`?format=csv`). */
export const wantsCsv = (ctx: AppContext): boolean => ctx.query.format === 'csv';

/** "buchungen_2026-05-01_2026-05-31.csv": a download named after its period's local days, the last one included. */
export function periodFilename(name: string, period: Period, timeZone: string): string {
  const days = [
    period.from && localDay(period.from, timeZone),
    period.to && localDay(new Date(period.to.getTime() - 1), timeZone),
  ];
  return [name, ...days.filter(Boolean)].join('_') + '.csv';
}
