import { PassThrough } from 'node:stream';
import { csvHeader, csvLine, type CsvColumn } from '../foundations/csv.ts';
import { languageOf } from '../language/messages.ts';
import { slicesOf } from '../foundations/event-loop.ts';
import type { AppContext } from './routes.ts';

// CSV and other downloads as answers; the lines themselves are written by api/src/foundations/csv.ts.

/**
 * Answers a CSV download. `batches` yields the rows a page at a time, so a year of ledger rows is
 * streamed instead of held in memory; a short table is passed as `[rows]`. The lines are written a
 * slice at a time (api/src/foundations/event-loop.ts), so a long table never holds the event loop.
 */
export function respondCsv<Row>(
  ctx: AppContext,
  filename: string,
  columns: CsvColumn<Row>[],
  batches: AsyncIterable<Row[]> | Iterable<Row[]>,
): void {
  const timeZone = ctx.config.timeZone;
  const language = languageOf(ctx.get('Accept-Language'));
  ctx.vary('Accept-Language');
  respondDownload(ctx, 'text/csv; charset=utf-8', filename, async function* () {
    const reader = { timeZone, language, currency: await ctx.installationCurrency(ctx.db) };
    yield csvHeader(columns as CsvColumn<unknown>[], language);
    for await (const rows of batches)
      for await (const slice of slicesOf(rows)) yield slice.map((row) => csvLine(columns, row, reader)).join('');
  });
}

/**
 * Answers a file download written chunk by chunk, waiting for the client to take each one. The
 * answer has started when the first chunk is asked for: a failure then ends the download broken.
 */
export function respondDownload(
  ctx: AppContext,
  type: string,
  filename: string,
  chunks: () => AsyncIterable<string | Buffer>,
): void {
  const out = new PassThrough();
  ctx.type = type;
  ctx.set('Content-Disposition', `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = out;
  void (async () => {
    try {
      for await (const chunk of chunks()) {
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
