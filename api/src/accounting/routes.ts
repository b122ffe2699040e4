import { respondCsv, respondDownload, wantsCsv } from '../http/csv-response.ts';
import { badRequest } from '../http/errors.ts';
import { applyFilters, readListFilter, respondList } from '../http/list-query.ts';
import { requestPeriod } from '../http/period-query.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { readInput } from '../http/validate.ts';
import { accountStatements, statementCsvColumns } from './accounts.ts';
import { assertDatevReady, datevFile, datevModes, datevPeriod, type DatevMode } from './datev.ts';
import { encodeWindows1252 } from './windows1252.ts';
import { journalFile } from './journal.ts';
import { installationCurrency } from '../settings/currency.ts';
import { invalidError } from '../foundations/errors.ts';
import { localDay } from '../foundations/period.ts';
import { datevSettingsForm, readDatevSettings, saveDatevSettings } from './datev-settings.ts';
import { chartDefaults } from '../ledger/postings.ts';
import { paymentBatches, paymentCsvColumns, paymentList, payments, paymentTotals } from './queries.ts';
import { languageOf } from '../language/messages.ts';
import { trialBalance, trialBalanceCsvColumns } from './trial-balance.ts';
import { periodFilename } from '../foundations/csv.ts';
import { assertEuroBooks } from '../settings/currency.ts';
import type { ListSpec } from '../foundations/lists.ts';
import { readPeriod } from '../foundations/period.ts';

const spec = paymentList as ListSpec<never, unknown>;

/**
 * The ledger rows (`ledger_rows as r`) the request's filters select, as a fresh query per call,
 * and the period they name. A filter that cannot be read is a 400 here, before any answer starts.
 */
function filtered(ctx: AppContext) {
  const filter = readListFilter(ctx, paymentList);
  const query = () => {
    const rows = ctx.db('ledger_rows as r');
    applyFilters(ctx, rows, filter, spec);
    return rows;
  };
  query();
  return { query, period: readPeriod(filter, ctx.config.timeZone) };
}

const datevProtocol: ProtocolSpec = {
  recordType: 'datev_settings',
  id: () => 1,
  load: (ctx) => readDatevSettings(ctx.db),
};

function datevMode(value: unknown): DatevMode {
  const mode = value ?? 'rows';
  if (!datevModes.includes(mode as DatevMode))
    throw badRequest(
      'The mode of a DATEV export is "rows" (one line per booking) or "daily" (one line per day and kind).',
      {
        mode: 'Please choose one line per booking or one per day and kind.',
      },
    );
  return mode as DatevMode;
}

export const accountingRoutes: RouteDef[] = [
  {
    // Every ledger row; `?format=csv` streams all rows of the filtered period, oldest first.
    method: 'GET',
    path: '/api/payments',
    access: 'backoffice',
    handler: async (ctx) => {
      if (!wantsCsv(ctx)) return respondList(ctx, payments(ctx.db), paymentList);
      const { query, period } = filtered(ctx);
      respondCsv(
        ctx,
        periodFilename('buchungen', period, ctx.config.timeZone),
        paymentCsvColumns,
        paymentBatches(ctx.db, query),
      );
    },
  },
  {
    method: 'GET',
    path: '/api/payments/totals',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await paymentTotals(ctx.db, filtered(ctx).query());
    },
  },
  {
    // The bookkeeper's view: each account's opening balance, movements and closing balance.
    method: 'GET',
    path: '/api/payments/accounts',
    access: 'backoffice',
    handler: async (ctx) => {
      const period = requestPeriod(ctx);
      const accounts = await accountStatements(ctx.db, period, languageOf(ctx.get('Accept-Language')));
      ctx.vary('Accept-Language');
      if (wantsCsv(ctx))
        return respondCsv(ctx, periodFilename('konten', period, ctx.config.timeZone), statementCsvColumns, [accounts]);
      const sum = (field: 'opening' | 'received' | 'sent' | 'closing') =>
        accounts.reduce((total, a) => total + a[field], 0);
      ctx.body = {
        from: period.from?.toISOString() ?? null,
        to: period.to?.toISOString() ?? null,
        accounts,
        totals: { opening: sum('opening'), received: sum('received'), sent: sum('sent'), closing: sum('closing') },
      };
    },
  },
  {
    // The bookkeeper's DATEV file of a period (one fiscal year at most), in Windows-1252.
    method: 'GET',
    path: '/api/accounting/datev',
    access: 'backoffice',
    handler: async (ctx) => {
      const mode = datevMode(ctx.query.mode);
      await assertEuroBooks(ctx.db, 'datev');
      const asked = requestPeriod(ctx);
      const settings = await readDatevSettings(ctx.db);
      await assertDatevReady(ctx.db, settings);
      const timeZone = ctx.config.timeZone;
      const period = datevPeriod(asked, settings, timeZone);
      respondDownload(
        ctx,
        'text/csv; charset=windows-1252',
        periodFilename('EXTF_Buchungsstapel', period, timeZone),
        async function* () {
          for await (const chunk of datevFile(ctx.db, settings, period, mode, timeZone)) yield encodeWindows1252(chunk);
        },
      );
    },
  },
  {
    // The bookkeeper's double-entry journal of a period as CSV, for every installation and currency.
    method: 'GET',
    path: '/api/accounting/journal',
    access: 'backoffice',
    handler: async (ctx) => {
      const asked = requestPeriod(ctx);
      if (!asked.from || !asked.to)
        throw invalidError('Please choose the first and the last day of the journal.', {
          [asked.from ? 'to' : 'from']: 'Please choose a day.',
        });
      const settings = await readDatevSettings(ctx.db);
      const currency = await installationCurrency(ctx.db);
      const timeZone = ctx.config.timeZone;
      const firstDay = localDay(asked.from, timeZone);
      const period = {
        from: asked.from,
        to: asked.to,
        firstDay,
        lastDay: localDay(new Date(asked.to.getTime() - 1), timeZone),
        fiscalYearStart: firstDay,
      };
      const language = languageOf(ctx.get('Accept-Language'));
      ctx.vary('Accept-Language');
      respondDownload(ctx, 'text/csv; charset=utf-8', periodFilename('journal', period, timeZone), () =>
        journalFile(ctx.db, settings, period, currency, timeZone, language),
      );
    },
  },
  {
    // The DATEV file's accounts over a period beside the product's own figures; `?format=csv` too.
    method: 'GET',
    path: '/api/accounting/trial-balance',
    access: 'backoffice',
    handler: async (ctx) => {
      const period = requestPeriod(ctx);
      const settings = await readDatevSettings(ctx.db);
      const balance = await trialBalance(ctx.db, settings, period);
      if (wantsCsv(ctx))
        return respondCsv(ctx, periodFilename('summen-salden', period, ctx.config.timeZone), trialBalanceCsvColumns, [
          balance.lines,
        ]);
      ctx.body = { from: period.from?.toISOString() ?? null, to: period.to?.toISOString() ?? null, ...balance };
    },
  },
  {
    method: 'GET',
    path: '/api/accounting/datev/settings',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = { ...(await readDatevSettings(ctx.db)), chartDefaults };
    },
  },
  {
    method: 'PUT',
    path: '/api/accounting/datev/settings',
    access: 'backoffice',
    body: 'json',
    input: datevSettingsForm,
    protocol: datevProtocol,
    handler: async (ctx) => {
      const settings = readInput(ctx, datevSettingsForm);
      ctx.body = { ...(await saveDatevSettings(ctx.db, settings)), chartDefaults };
    },
  },
];
