import { respondCsv } from '../http/csv-response.ts';
import { badRequest } from '../http/errors.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { letterhead, sendPrintable } from '../web/printable.ts';
import { idParam } from '../http/validate.ts';
import { statementMonths, statements, type Statement, type StatementPeriod } from '../ledger/statement.ts';
import { vendorOfUser } from '../vendors/me.ts';
import { findVendor, vendorNotFound } from '../vendors/queries.ts';
import { statementPageHtml } from './page.ts';
import { statementRows, statementTexts, vendorLanguage, type StatementLanguage, type StatementRow } from './rows.ts';
import { type CsvColumn, periodFilename } from '../foundations/csv.ts';
import { checkPeriodYear, localDay, localMidnight, readPeriod } from '../foundations/period.ts';

// Vendor statements: staff read any vendor's, and every vendor's of a year at once; a vendor reads
// their own. Each answers JSON, `format=csv` or `format=html` (the printable page). The language is
// the vendor's (their record's language field) unless the caller asks for `lang=de|en`.

interface StatementVendor {
  id: number;
  license_id: string;
  first_name: string;
  last_name: string;
  language: string;
}

const formats = ['json', 'csv', 'html'] as const;
type Format = (typeof formats)[number];

function requestedFormat(ctx: AppContext): Format {
  const format = ctx.query.format ?? 'json';
  if (!formats.includes(format as Format)) throw badRequest('The format must be json, csv or html.');
  return format as Format;
}

function requestedLanguage(ctx: AppContext): StatementLanguage | undefined {
  const lang = ctx.query.lang;
  if (lang === undefined || lang === '') return undefined;
  if (lang !== 'de' && lang !== 'en') throw badRequest('The language must be de or en.');
  return lang;
}

/** A statement needs both ends: "from" and "to", by the period rule of the whole API. */
function statementPeriod(ctx: AppContext): StatementPeriod {
  const { from, to } = readPeriod({ from: ctx.query.from, to: ctx.query.to }, ctx.config.timeZone);
  if (!from || !to) {
    throw badRequest('Please give the period of the statement as "from" and "to".', {
      [from ? 'to' : 'from']: 'Please give a date like 2026-05-01.',
    });
  }
  return { from, to };
}

/** A calendar year of the newspaper's time zone, as `year=2026`. */
function yearPeriod(ctx: AppContext): { year: number; period: StatementPeriod } {
  const raw = ctx.query.year;
  if (typeof raw !== 'string' || !/^\d{4}$/.test(raw)) {
    throw badRequest('Please give the year as four digits, like 2026.', { year: 'Please give a year like 2026.' });
  }
  checkPeriodYear('year', raw);
  const year = Number(raw);
  const zone = ctx.config.timeZone;
  return { year, period: { from: localMidnight(`${year}-01-01`, zone), to: localMidnight(`${year + 1}-01-01`, zone) } };
}

const vendorName = (v: StatementVendor) => `${v.first_name} ${v.last_name}`.trim() || v.license_id;

interface Sheet {
  vendor: StatementVendor;
  statement: Statement;
  lang: StatementLanguage;
  rows: StatementRow[];
}

interface CsvRow extends StatementRow {
  sheet: Sheet;
}

function csvColumns(lang: StatementLanguage, period: StatementPeriod, zone: string): CsvColumn<CsvRow>[] {
  const t = statementTexts[lang];
  const lastDay = localDay(new Date(period.to.getTime() - 1), zone);
  return [
    { header: t.licence, value: (r) => r.sheet.vendor.license_id },
    { header: t.vendor, value: (r) => vendorName(r.sheet.vendor) },
    { header: t.from, value: () => localDay(period.from, zone) },
    { header: t.to, value: () => lastDay },
    { header: t.date, value: (r) => r.at, format: 'date' },
    { header: t.line, value: (r) => r.label },
    { header: t.voucher, value: (r) => r.voucher },
    { header: t.count, value: (r) => r.count },
    { header: t.amount, value: (r) => r.amount, format: 'cents' },
  ];
}

function sheetsOf(vendors: StatementVendor[], found: Statement[], lang: StatementLanguage | undefined): Sheet[] {
  const byId = new Map(vendors.map((vendor) => [vendor.id, vendor]));
  return found.flatMap((statement) => {
    const vendor = byId.get(statement.vendorId);
    if (!vendor) return [];
    const sheetLang = lang ?? vendorLanguage(vendor.language);
    return [{ vendor, statement, lang: sheetLang, rows: statementRows(statement, sheetLang) }];
  });
}

const sheetToApi = (sheet: Sheet) => ({
  vendor: {
    id: sheet.vendor.id,
    licenseId: sheet.vendor.license_id,
    name: vendorName(sheet.vendor),
  },
  language: sheet.lang,
  ...sheet.statement,
  rows: sheet.rows,
});

async function respond(
  ctx: AppContext,
  sheets: Sheet[],
  period: StatementPeriod,
  name: string,
  lang: StatementLanguage | undefined,
): Promise<void> {
  const zone = ctx.config.timeZone;
  const format = requestedFormat(ctx);
  const days = { from: localDay(period.from, zone), to: localDay(new Date(period.to.getTime() - 1), zone) };
  if (format === 'csv') {
    const columns = csvColumns(lang ?? sheets[0]?.lang ?? 'de', period, zone);
    const rows = sheets.flatMap((sheet) => sheet.rows.map((row) => ({ ...row, sheet })));
    respondCsv(ctx, periodFilename(name, period, zone), columns, [rows]);
    return;
  }
  if (format === 'json') {
    ctx.body = {
      period: { from: period.from.toISOString(), to: period.to.toISOString() },
      statements: sheets.map(sheetToApi),
    };
    return;
  }
  const page = statementPageHtml({
    ...(await letterhead(ctx)),
    issuedAt: new Date(),
    timeZone: zone,
    sheets: sheets.map((sheet) => ({
      lang: sheet.lang,
      vendorName: vendorName(sheet.vendor),
      licenseId: sheet.vendor.license_id,
      firstDay: days.from,
      lastDay: days.to,
      rows: sheet.rows,
    })),
  });
  sendPrintable(ctx, page);
}

/** One vendor's statement, in every format; `vendor` has been found already. */
async function respondOne(ctx: AppContext, vendor: StatementVendor): Promise<void> {
  const period = statementPeriod(ctx);
  const lang = requestedLanguage(ctx);
  const found = await statements(ctx.db, [vendor.id], period);
  const sheets = sheetsOf([vendor], found, lang);
  if (requestedFormat(ctx) === 'json') {
    // One vendor, one statement: the answer is the statement itself.
    ctx.body = { period: { from: period.from.toISOString(), to: period.to.toISOString() }, ...sheetToApi(sheets[0]!) };
    return;
  }
  await respond(ctx, sheets, period, `abrechnung_${vendor.license_id}`, lang);
}

export const statementRoutes: RouteDef[] = [
  {
    // The months a vendor can open a statement of: those in which their credit moved.
    method: 'GET',
    path: '/api/vendors/me/statements',
    access: 'vendor',
    handler: async (ctx) => {
      const vendor = await vendorOfUser(ctx.db, ctx.state.user!);
      ctx.body = { months: await statementMonths(ctx.db, vendor.id, ctx.config.timeZone) };
    },
  },
  {
    method: 'GET',
    path: '/api/vendors/me/statement',
    access: 'vendor',
    handler: async (ctx) => respondOne(ctx, await vendorOfUser(ctx.db, ctx.state.user!)),
  },
  {
    method: 'GET',
    path: '/api/vendors/:id/statement',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = idParam(ctx.params.id, 'vendor');
      const vendor = await findVendor(ctx.db, id);
      if (!vendor) throw vendorNotFound(id);
      await respondOne(ctx, vendor);
    },
  },
  {
    // Every vendor whose credit moved in the year or was not zero at its start; deleted vendors too,
    // since their year's earnings happened.
    method: 'GET',
    path: '/api/statements',
    access: 'backoffice',
    handler: async (ctx) => {
      const { year, period } = yearPeriod(ctx);
      const lang = requestedLanguage(ctx);
      const found = await statements(ctx.db, 'all', period);
      const vendors = await ctx
        .db('vendors')
        .whereIn(
          'id',
          found.map((s) => s.vendorId),
        )
        .select<StatementVendor[]>('id', 'license_id', 'first_name', 'last_name', 'language');
      // One CSV has one language for its headers and lines: German unless asked otherwise.
      const sheets = sheetsOf(vendors, found, requestedFormat(ctx) === 'csv' ? (lang ?? 'de') : lang);
      sheets.sort((a, b) => a.vendor.license_id.localeCompare(b.vendor.license_id, 'de', { numeric: true }));
      await respond(ctx, sheets, period, `abrechnungen_${year}`, lang);
    },
  },
];
