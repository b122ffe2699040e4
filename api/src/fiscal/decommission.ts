import type { Knex } from 'knex';
import type { FiscalCountry } from '../foundations/config.ts';
import { invalidError } from '../foundations/errors.ts';
import { writeEntry } from '../protocol/record.ts';
import type { Signature } from './port.ts';
import type { TillFiscal } from './settings.ts';

// Taking a till out of signing ends the use of its TSE (Germany) or signature device (Austria). The
// office must report that end to the tax office: in Germany within a month with the notice of
// §146a (4) AO (https://www.gesetze-im-internet.de/ao_1977/__146a.html), in Austria at FinanzOnline.
// So it is never a side effect of a settings change: it needs a reason a person gives, it is kept
// (fiscal_decommissions) with the device's serial, and the protocol has an entry of its own for it.

/** The protocol's action for a till taken out of signing, distinct from a settings change. */
export const decommissionAction = 'fiscal.decommissioned';

export interface Decommission {
  id: number;
  tillId: number;
  country: FiscalCountry;
  /** The TSE's serial (Germany) or the signature device's certificate serial (Austria); null: it never signed. */
  tssSerial: string | null;
  /** The till's client serial (Germany) or Kassen-ID (Austria). */
  clientSerial: string | null;
  reason: string;
  by: string | null;
  /** ISO 8601. */
  at: string;
}

interface Row {
  id: number | string;
  till_id: number;
  country: FiscalCountry;
  tss_serial: string | null;
  client_serial: string | null;
  reason: string;
  actor_name: string | null;
  decommissioned_at: Date | string;
}

const shape = (row: Row): Decommission => ({
  id: Number(row.id),
  tillId: row.till_id,
  country: row.country,
  tssSerial: row.tss_serial,
  clientSerial: row.client_serial,
  reason: row.reason,
  by: row.actor_name,
  at: new Date(row.decommissioned_at).toISOString(),
});

/** Whether a change from `before` to the mode `after` takes a signing till out of signing. */
export const decommissions = (before: TillFiscal, after: TillFiscal['effectiveMode']) =>
  before.effectiveMode !== 'off' && after === 'off';

/** The reason as given, or a refusal naming what is missing. */
export function requireReason(reason: string | null | undefined): string {
  const given = reason?.trim() ?? '';
  if (!given)
    throw invalidError(
      'Taking a till out of signing needs a reason: the end of its TSE’s use must be reported to the tax office.',
      { reason: 'Please give the reason for taking the till out of signing.' },
    );
  return given;
}

/** The device the till signed with last in `country`: its serial and the till's own, from the newest signature. */
async function lastDevice(db: Knex, tillId: number, country: FiscalCountry) {
  const row = await db('fiscal_transactions')
    .where({ till_id: tillId, country, state: 'signed' })
    .orderBy('id', 'desc')
    .first<{ signature: Signature | string | null } | undefined>('signature');
  const sig = typeof row?.signature === 'string' ? (JSON.parse(row.signature) as Signature) : (row?.signature ?? null);
  if (!sig) return { tssSerial: null, clientSerial: null };
  return sig.country === 'DE'
    ? { tssSerial: sig.tssSerial, clientSerial: sig.clientSerial }
    : { tssSerial: sig.certificateSerial, clientSerial: sig.cashRegisterId };
}

/**
 * Records that `before`'s signing ends now, for `reason`, by `actor`: its row and its own protocol
 * entry, in the caller's transaction (the route's, with the settings change it belongs to).
 */
export async function recordDecommission(
  db: Knex,
  before: TillFiscal,
  reason: string,
  actor: { sub: string | null; name: string | null },
): Promise<Decommission> {
  const device = await lastDevice(db, before.tillId, before.effectiveCountry);
  const [row] = await db('fiscal_decommissions')
    .insert({
      till_id: before.tillId,
      country: before.effectiveCountry,
      tss_serial: device.tssSerial,
      client_serial: device.clientSerial,
      reason,
      actor_name: actor.name,
    })
    .returning<Row[]>('*');
  const decommission = shape(row!);
  await writeEntry(db, {
    action: decommissionAction,
    actorSub: actor.sub,
    actorName: actor.name,
    recordType: 'till_fiscal',
    recordId: before.tillId,
    details: {
      reason,
      mode: before.effectiveMode,
      country: decommission.country,
      tssSerial: decommission.tssSerial,
      clientSerial: decommission.clientSerial,
      signingSince: before.signingSince,
      at: decommission.at,
    },
  });
  return decommission;
}

/** Every time a till was taken out of signing, oldest first; of one till, or of all. */
export async function decommissionsOf(db: Knex, tillId?: number): Promise<Decommission[]> {
  const query = db('fiscal_decommissions').orderBy(['decommissioned_at', 'id']);
  if (tillId !== undefined) void query.where({ till_id: tillId });
  return (await query.select<Row[]>('*')).map(shape);
}
