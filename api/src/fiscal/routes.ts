import { z } from 'zod';
import { conflictError } from '../errors.ts';
import { notFound } from '../http/errors.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { idParam, parse } from '../http/validate.ts';
import { fiscalCountries, fiscalModes } from '../config.ts';
import { tr } from '../language/messages.ts';
import { periodDay } from '../period.ts';
import packageJson from '../../../package.json' with { type: 'json' };
import { rksvRegistration } from './at/chain.ts';
import { dep7Export } from './at/dep.ts';
import { dsfinvkExport } from './dsfinvk.ts';
import { allTillsFiscal, setTillFiscal, tillFiscal, usesSimulator } from './settings.ts';
import { enqueueTill, signPending, unsignedTransactions } from './transactions.ts';

// The fiscal module for staff: each till's mode and country, the transactions not signed (a TSE that
// could not be reached), and signing them now instead of at the next periodic run.

export const fiscalInput = z.object({
  mode: z.enum(fiscalModes, { error: 'Please choose one of: {values}.' }).nullable(),
  country: z.enum(fiscalCountries, { error: 'Please choose one of: {values}.' }).nullable(),
});

const exportPeriod = z
  .object({
    from: periodDay,
    to: periodDay,
  })
  .refine((p) => p.from <= p.to, { message: 'The period ends before it starts.', path: ['to'] });

const dep7Period = z
  .object({
    from: periodDay,
    to: periodDay,
    till: z.coerce
      .number({ error: 'Please choose a till.' })
      .int('Please choose a till.')
      .positive('Please choose a till.')
      .optional(),
  })
  .refine((p) => p.from <= p.to, { message: 'The period ends before it starts.', path: ['to'] });

const tillParam = (ctx: AppContext) => idParam(ctx.params.id, 'till');

async function requireTill(ctx: AppContext): Promise<number> {
  const id = tillParam(ctx);
  if (!(await ctx.db('tills').where({ id }).first('id')))
    throw notFound(tr('There is no till with the id {id}.', { id }));
  return id;
}

// Besides the settings, what the notice to the tax office (§146a (4) AO, ELSTER) asks of each till:
// its TSE's and its own serial number, taken from its newest German signature (the TSE answers them
// with every transaction), and the installation's name, address and software.
const overview = async (ctx: AppContext) => {
  const newest = ctx
    .db('fiscal_transactions')
    .where({ state: 'signed', country: 'DE' })
    .groupBy('till_id')
    .max({ id: 'id' });
  const signed = await ctx
    .db('fiscal_transactions')
    .whereIn('id', newest)
    .select<{ till_id: number; signature: unknown; signed_at: Date | string }[]>('till_id', 'signature', 'signed_at');
  const serials = new Map(
    signed.map((row) => {
      const sig = (typeof row.signature === 'string' ? JSON.parse(row.signature) : row.signature) as {
        tssSerial?: string;
        clientSerial?: string;
      };
      return [
        row.till_id,
        {
          tssSerial: sig.tssSerial ?? null,
          clientSerial: sig.clientSerial ?? null,
          lastSignedAt: new Date(row.signed_at).toISOString(),
        },
      ];
    }),
  );
  const settings = await ctx
    .db('settings')
    .first<{ newspaper_name: string; newspaper_address: string } | undefined>('newspaper_name', 'newspaper_address');
  const names = await ctx.db('tills').select<{ id: number; name: string }[]>('id', 'name');
  return {
    mode: ctx.config.fiscal.mode,
    country: ctx.config.fiscal.country,
    simulator: usesSimulator(ctx.config),
    tills: (await allTillsFiscal(ctx.db, ctx.config)).map((till) => ({
      ...till,
      name: names.find((t) => t.id === till.tillId)?.name ?? '',
      tssSerial: serials.get(till.tillId)?.tssSerial ?? null,
      clientSerial: serials.get(till.tillId)?.clientSerial ?? null,
      lastSignedAt: serials.get(till.tillId)?.lastSignedAt ?? null,
    })),
    installation: {
      name: settings?.newspaper_name ?? '',
      address: settings?.newspaper_address ?? '',
      software: { name: packageJson.name, version: packageJson.version },
    },
    unsigned: await unsignedTransactions(ctx.db, 20),
  };
};

export const fiscalRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/fiscal',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = await overview(ctx);
    },
  },
  {
    method: 'GET',
    path: '/api/fiscal/failures',
    access: 'backoffice',
    handler: async (ctx) => {
      ctx.body = { transactions: await unsignedTransactions(ctx.db) };
    },
  },
  {
    method: 'POST',
    path: '/api/fiscal/retry',
    access: 'backoffice',
    handler: async (ctx) => {
      await signPending(ctx.db, ctx.config);
      ctx.body = { transactions: await unsignedTransactions(ctx.db) };
    },
  },
  {
    // The DSFinV-K of the daily closes of the local days from … to (both included), as a ZIP.
    method: 'GET',
    path: '/api/tills/dsfinvk',
    access: 'backoffice',
    handler: async (ctx) => {
      const period = parse(exportPeriod, ctx.query);
      const exported = await dsfinvkExport(ctx.db, ctx.config, period.from, period.to);
      ctx.set('Content-Type', 'application/zip');
      ctx.set('Content-Disposition', `attachment; filename="${exported.filename}"`);
      ctx.body = Buffer.from(exported.zip);
    },
  },
  {
    // Austria's DEP (RKSV §7) of the receipts of the local days from … to, of one till or all, as JSON.
    method: 'GET',
    path: '/api/tills/dep7',
    access: 'backoffice',
    handler: async (ctx) => {
      const period = parse(dep7Period, ctx.query);
      if (period.till !== undefined && !(await ctx.db('tills').where({ id: period.till }).first('id')))
        throw notFound(tr('There is no till with the id {id}.', { id: period.till }));
      const exported = await dep7Export(ctx.db, period.from, period.to, period.till);
      ctx.set('Content-Disposition', `attachment; filename="dep7-${period.from}-${period.to}.json"`);
      ctx.body = exported;
    },
  },
  {
    // What the office registers at FinanzOnline for an Austrian till; its AES key the first time only.
    method: 'GET',
    path: '/api/tills/:id/rksv',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = await requireTill(ctx);
      if ((await tillFiscal(ctx.db, ctx.config, id)).effectiveCountry !== 'AT')
        throw conflictError('This till does not sign in Austria (RKSV).');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await rksvRegistration(ctx.db, id);
    },
  },
  {
    method: 'PUT',
    path: '/api/tills/:id/fiscal',
    access: 'backoffice',
    body: 'json',
    protocol: {
      recordType: 'till_fiscal',
      id: tillParam,
      load: (ctx, id) => tillFiscal(ctx.db, ctx.config, Number(id)),
    },
    handler: async (ctx) => {
      const id = await requireTill(ctx);
      const settings = await setTillFiscal(ctx.db, ctx.config, id, parse(fiscalInput, ctx.request.body));
      // Signing begins now, with the cash the till holds (its Anfangsbestand), not at the next booking.
      await enqueueTill(ctx.db, ctx.config, id);
      ctx.body = settings;
    },
  },
];
