import { badRequest } from '../http/errors.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { idParam, readInput } from '../http/validate.ts';
import {
  benefitGauge,
  benefitStatements,
  monthsBetween,
  type BenefitScheme,
  type BenefitStatement,
} from '../ledger/benefit.ts';
import { checkPeriodYear, localMidnight } from '../foundations/period.ts';
import {
  benefitSchemeForm,
  benefitSchemeToApi,
  readBenefitScheme,
  saveBenefitScheme,
} from '../settings/benefit-scheme.ts';
import { findVendor, vendorNotFound } from '../vendors/queries.ts';
import { vendorLanguage } from '../vendors/language.ts';
import { letterhead, sendPrintable } from '../web/printable.ts';
import { benefitPageHtml } from './benefit-page.ts';
import type { StatementLanguage } from './rows.ts';

// Statements of earnings for vendors on benefits: per vendor (or every vendor whose account moved)
// and any run of whole local months, `from=2026-01&to=2026-06` (a month, an EKS half-year, a year).
// JSON carries each month's gauge under the installation's benefit scheme; `format=html` is the
// page for the job centre, which shows no gauge: the office reads that, the job centre the figures.

/** A benefit statement covers at most two years of months. */
const maxMonths = 24;

interface BenefitVendor {
  id: number;
  license_id: string;
  first_name: string;
  last_name: string;
  language: string;
}

const monthPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;

function monthParam(ctx: AppContext, name: 'from' | 'to'): string {
  const value = ctx.query[name];
  if (typeof value !== 'string' || !monthPattern.test(value))
    throw badRequest('Please give the months of the statement as "from" and "to", like 2026-01.', {
      [name]: 'Please give a month like 2026-01.',
    });
  checkPeriodYear(name, value);
  return value;
}

function benefitPeriod(ctx: AppContext) {
  const from = monthParam(ctx, 'from');
  const to = monthParam(ctx, 'to');
  const months = monthsBetween(from, to);
  if (months.length === 0)
    throw badRequest('The period ends before it starts.', { to: 'Please choose an end after the start.' });
  if (months.length > maxMonths)
    throw badRequest('A statement of earnings covers at most 24 months.', { to: 'Please choose a shorter period.' });
  const [year, month] = to.split('-').map(Number) as [number, number];
  const after = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
  const zone = ctx.config.timeZone;
  const period = { from: localMidnight(`${from}-01`, zone), to: localMidnight(`${after}-01`, zone) };
  const lastDay = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return { months, period, firstDay: `${from}-01`, lastDay };
}

function requestedFormat(ctx: AppContext): 'json' | 'html' {
  const format = ctx.query.format ?? 'json';
  if (format !== 'json' && format !== 'html') throw badRequest('The format must be json or html.');
  return format;
}

function requestedLanguage(ctx: AppContext): StatementLanguage | undefined {
  const lang = ctx.query.lang;
  if (lang === undefined || lang === '') return undefined;
  if (lang !== 'de' && lang !== 'en') throw badRequest('The language must be de or en.');
  return lang;
}

const vendorName = (v: BenefitVendor) => `${v.first_name} ${v.last_name}`.trim() || v.license_id;

function statementToApi(statement: BenefitStatement, vendor: BenefitVendor, scheme: BenefitScheme, lang: string) {
  return {
    vendor: { id: vendor.id, licenseId: vendor.license_id, name: vendorName(vendor) },
    language: lang,
    ...statement,
    months: statement.months.map((month) => ({ ...month, gauge: benefitGauge(month.net, month.tips, scheme) })),
    averageGauge: benefitGauge(
      statement.averageNet,
      statement.months.length ? Math.floor(statement.totals.tips / statement.months.length) : 0,
      scheme,
    ),
  };
}

async function respond(ctx: AppContext, vendors: BenefitVendor[], ids: number[] | 'all', single: boolean) {
  const { months, period, firstDay, lastDay } = benefitPeriod(ctx);
  const format = requestedFormat(ctx);
  const lang = requestedLanguage(ctx);
  const found = await benefitStatements(ctx.db, ids, months, period, ctx.config.timeZone);
  if (ids === 'all') {
    vendors = await ctx
      .db('vendors')
      .whereIn(
        'id',
        found.map((s) => s.vendorId),
      )
      .select<BenefitVendor[]>('id', 'license_id', 'first_name', 'last_name', 'language');
  }
  const sheets = found
    .flatMap((statement) => {
      const vendor = vendors.find((v) => v.id === statement.vendorId);
      return vendor ? [{ vendor, statement, lang: lang ?? vendorLanguage(vendor.language) }] : [];
    })
    .sort((a, b) => a.vendor.license_id.localeCompare(b.vendor.license_id, 'de', { numeric: true }));
  if (format === 'json') {
    const scheme = await readBenefitScheme(ctx.db);
    const answers = sheets.map((s) => statementToApi(s.statement, s.vendor, scheme, s.lang));
    const periodOut = { from: months[0], to: months.at(-1), months };
    ctx.body = single
      ? { period: periodOut, scheme, ...answers[0] }
      : { period: periodOut, scheme, statements: answers };
    return;
  }
  const head = await letterhead(ctx);
  sendPrintable(
    ctx,
    benefitPageHtml({
      ...head,
      issuedAt: new Date(),
      timeZone: ctx.config.timeZone,
      sheets: sheets.map((s) => ({
        lang: s.lang,
        vendorName: vendorName(s.vendor),
        licenseId: s.vendor.license_id,
        firstDay,
        lastDay,
        statement: s.statement,
      })),
    }),
  );
}

const schemeProtocol: ProtocolSpec = {
  recordType: 'benefit_scheme',
  id: () => 1,
  load: (ctx) => readBenefitScheme(ctx.db),
};

export const benefitRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/vendors/:id/benefit-statement',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = idParam(ctx.params.id, 'vendor');
      const vendor = await findVendor(ctx.db, id);
      if (!vendor) throw vendorNotFound(id);
      await respond(ctx, [vendor], [vendor.id], true);
    },
  },
  {
    // Every vendor whose account moved in the months: one page each.
    method: 'GET',
    path: '/api/benefit-statements',
    access: 'backoffice',
    handler: async (ctx) => respond(ctx, [], 'all', false),
  },
  {
    method: 'GET',
    path: '/api/settings/benefit-scheme',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = benefitSchemeToApi(await readBenefitScheme(ctx.db));
    },
  },
  {
    method: 'PUT',
    path: '/api/settings/benefit-scheme',
    access: 'backoffice',
    body: 'json',
    input: benefitSchemeForm,
    protocol: schemeProtocol,
    handler: async (ctx) => {
      ctx.body = benefitSchemeToApi(await saveBenefitScheme(ctx.db, readInput(ctx, benefitSchemeForm)));
    },
  },
];
