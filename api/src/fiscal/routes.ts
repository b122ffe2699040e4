import { z } from 'zod';
import { conflictError } from '../foundations/errors.ts';
import { notFound } from '../http/errors.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { idParam, parse, readInput } from '../http/validate.ts';
import { fiscalCountries, fiscalModes } from '../foundations/config.ts';
import { tr } from '../language/messages.ts';
import { periodDay } from '../foundations/period.ts';
import { assertEuroBooks } from '../settings/currency.ts';
import packageJson from '../../../package.json' with { type: 'json' };
import { rksvRegistration } from './at/chain.ts';
import { aesKeyCheckValue } from './at/rksv.ts';
import { dep7Export } from './at/dep.ts';
import { simulatedAesKey } from './sandbox/rksv.ts';
import { dsfinvkExport } from './dsfinvk/export.ts';
import { decommissions, decommissionsOf, recordDecommission, requireReason } from './decommission.ts';
import { allTillsFiscal, setTillFiscal, tillFiscal, usesSimulator } from './settings.ts';
import { SigningFailed } from './port.ts';
import { enqueueTill, germanPort, signPending, unsignedTransactions } from './transactions.ts';

// The fiscal module for staff: each till's mode and country, the transactions not signed (a TSE that
// could not be reached), and signing them now instead of at the next periodic run.

export const fiscalInput = z.object({
  mode: z.enum(fiscalModes, { error: 'Please choose one of: {values}.' }).nullable(),
  country: z.enum(fiscalCountries, { error: 'Please choose one of: {values}.' }).nullable(),
  /** Why a signing till is taken out of signing; needed then only (decommission.ts). */
  reason: z.string({ error: 'Please give the reason for taking the till out of signing.' }).max(500).optional(),
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
    // One till: the BMF's check reads one cash register (one Kassen-ID) per DEP.
    till: z.coerce
      .number({ error: 'Please choose a till: a DEP holds the receipts of one cash register.' })
      .int('Please choose a till: a DEP holds the receipts of one cash register.')
      .positive('Please choose a till: a DEP holds the receipts of one cash register.'),
  })
  .refine((p) => p.from <= p.to, { message: 'The period ends before it starts.', path: ['to'] });

const tillParam = (ctx: AppContext) => idParam(ctx.params.id, 'till');

// A register's AES key is known here only from the local simulator; fiskaly SIGN AT keeps it and
// registers the till at FinanzOnline itself.
const aesKeyReader = (ctx: AppContext) =>
  usesSimulator(ctx.config) ? (registerId: string) => simulatedAesKey(ctx.db, registerId) : undefined;

async function requireTill(ctx: AppContext): Promise<number> {
  const id = tillParam(ctx);
  if (!(await ctx.db('tills').where({ id }).first('id')))
    throw notFound(tr('There is no till with the id {id}.', { id }));
  return id;
}

/**
 * A till's Kassen-ID and Prüfwert, without showing (or marking as shown) its AES key, and since when
 * its signature creation unit has failed: the first receipt "Sicherheitseinrichtung ausgefallen"
 * after the last Sammelbeleg (a failure of more than 48 hours is reported, §17 (4) RKSV).
 */
async function rksvRegistrationSummary(ctx: AppContext, tillId: number) {
  const till = await ctx
    .db('fiscal_rksv_tills')
    .where({ till_id: tillId })
    .first<{ cash_register_id: string; register_id: string | null } | undefined>('cash_register_id', 'register_id');
  if (!till) return null;
  const read = aesKeyReader(ctx);
  const key = till.register_id && read ? await read(till.register_id) : null;
  const cleared = await ctx
    .db('fiscal_rksv_receipts')
    .where({ till_id: tillId, kind: 'Sammelbeleg' })
    .max<{ number: number | string | null }>({ number: 'number' })
    .first();
  const failed = await ctx
    .db('fiscal_rksv_receipts')
    .where({ till_id: tillId, signed: false })
    .andWhere('number', '>', Number(cleared?.number ?? 0))
    .orderBy('number')
    .first<{ signed_at: Date | string } | undefined>('signed_at');
  return {
    cashRegisterId: till.cash_register_id,
    aesKeyCheckValue: key ? aesKeyCheckValue(key) : null,
    unitFailedSince: failed ? new Date(failed.signed_at).toISOString() : null,
  };
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
  // Austria: each till's Kassen-ID and the check value of its AES key (Prüfwert), as registered.
  const rksv = new Map<number, NonNullable<Awaited<ReturnType<typeof rksvRegistrationSummary>>>>();
  for (const row of await ctx.db('fiscal_rksv_tills').pluck('till_id')) {
    const registration = await rksvRegistrationSummary(ctx, Number(row));
    if (registration) rksv.set(Number(row), registration);
  }
  const ended = await decommissionsOf(ctx.db);
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
      rksv: rksv.get(till.tillId) ?? null,
      // When and why its signing was ended, newest first: each is to be reported to the tax office.
      decommissions: ended.filter((d) => d.tillId === till.tillId).reverse(),
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
      await assertEuroBooks(ctx.db, 'dsfinvk');
      const exported = await dsfinvkExport(ctx.db, ctx.config, period.from, period.to);
      ctx.set('Content-Type', 'application/zip');
      ctx.set('Content-Disposition', `attachment; filename="${exported.filename}"`);
      ctx.body = Buffer.from(exported.zip);
    },
  },
  {
    // Austria's DEP (RKSV §7) of the receipts of one till's local days from … to, as JSON.
    method: 'GET',
    path: '/api/tills/dep7',
    access: 'backoffice',
    handler: async (ctx) => {
      const period = parse(dep7Period, ctx.query);
      if (!(await ctx.db('tills').where({ id: period.till }).first('id')))
        throw notFound(tr('There is no till with the id {id}.', { id: period.till }));
      const exported = await dep7Export(ctx.db, period.from, period.to, period.till);
      ctx.set('Content-Disposition', `attachment; filename="dep7-${period.till}-${period.from}-${period.to}.json"`);
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
      const registration = await rksvRegistration(ctx.db, id, aesKeyReader(ctx));
      if (!registration)
        throw conflictError(
          'This till has no cash register at the signature service yet: it gets one with its first receipt.',
        );
      ctx.body = registration;
    },
  },
  {
    method: 'PUT',
    path: '/api/tills/:id/fiscal',
    access: 'backoffice',
    body: 'json',
    input: fiscalInput,
    protocol: {
      recordType: 'till_fiscal',
      id: tillParam,
      load: (ctx, id) => tillFiscal(ctx.db, ctx.config, Number(id)),
    },
    handler: async (ctx) => {
      const id = await requireTill(ctx);
      const input = readInput(ctx, fiscalInput);
      const before = await tillFiscal(ctx.db, ctx.config, id);
      // Ending a signing till's signing is a step of its own (decommission.ts): never without a reason.
      const reason = decommissions(before, input.mode ?? ctx.config.fiscal.mode) ? requireReason(input.reason) : null;
      const settings = await setTillFiscal(ctx.db, ctx.config, id, input);
      const user = ctx.state.user;
      const decommission =
        reason === null
          ? null
          : await recordDecommission(ctx.db, before, reason, { sub: user?.sub ?? null, name: user?.username ?? null });
      // Signing begins now, with the cash the till holds (its Anfangsbestand), not at the next booking.
      await enqueueTill(ctx.db, ctx.config, id);
      ctx.body = { ...settings, ...(decommission ? { decommission } : {}) };
    },
  },
  {
    // Germany: the till's TSE client deregistered at the TSS (fiskaly: state DEREGISTERED); a till
    // that signs again gets a new client with the same serial number.
    method: 'POST',
    path: '/api/fiscal/tills/:id/deregister',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = await requireTill(ctx);
      const port = await germanPort(ctx.db, ctx.config, signingMode(ctx));
      const done = await port.deregisterClient(id).catch(signingRefused);
      if (!done) throw conflictError('This till has no TSE client registered.');
      ctx.body = { tillId: id, ...done };
    },
  },
  {
    // Germany: the TSS in use taken out of service (fiskaly: state DISABLED, irreversible); its
    // clients are deregistered with it, and the next signing sets up a new TSS.
    method: 'POST',
    path: '/api/fiscal/tss/disable',
    access: 'backoffice',
    handler: async (ctx) => {
      const port = await germanPort(ctx.db, ctx.config, signingMode(ctx));
      const done = await port.disableTss().catch(signingRefused);
      if (!done) throw conflictError('There is no TSS in service to take out of service.');
      ctx.body = done;
    },
  },
];

/** The account these steps act on: live with the provider's credentials, else test (the simulator without). */
const signingMode = (ctx: AppContext): 'test' | 'live' => (ctx.config.fiscal.mode === 'live' ? 'live' : 'test');

/** The TSE's refusal of a set-up step, as a sentence for the screen. */
function signingRefused(error: unknown): never {
  if (error instanceof SigningFailed)
    throw conflictError(tr('The TSE did not do it: {reason}', { reason: error.message }));
  throw error;
}
