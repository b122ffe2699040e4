import type { Knex } from 'knex';
import type { Config, FiscalCountry, FiscalMode } from '../foundations/config.ts';
import { conflictError } from '../foundations/errors.ts';
import { presetOf } from '../country/presets.ts';
import { tr } from '../language/messages.ts';

/** The variables live signing needs, in the order a refusal names them. */
export const fiscalCredentials = [
  ['FISCAL_API_KEY', 'apiKey'],
  ['FISCAL_API_SECRET', 'apiSecret'],
  ['FISCAL_TSS_ID', 'tssId'],
  ['FISCAL_CLIENT_ID', 'clientId'],
] as const;

/** The signing credentials that are not set. */
export const missingFiscalCredentials = (config: Config) =>
  fiscalCredentials.filter(([, key]) => !config.fiscal[key]).map(([name]) => name);

// A till's fiscal mode and country: its own setting, else the installation's FISCAL_MODE and
// FISCAL_COUNTRY. Switching a till off stops its signing; switching it on again begins anew with the
// opening balance of that moment (transactions.ts), so nothing moved while it was off is signed late.

export interface TillFiscal {
  tillId: number;
  /** The till's own setting; null follows the installation. */
  mode: FiscalMode | null;
  country: FiscalCountry | null;
  /** What applies now. */
  effectiveMode: FiscalMode;
  effectiveCountry: FiscalCountry;
  /** Whether test mode signs with the local simulator (no provider credentials configured). */
  simulator: boolean;
  /** When signing began (null while it signs nothing). */
  signingSince: string | null;
}

interface Row {
  till_id: number;
  mode: FiscalMode | null;
  country: FiscalCountry | null;
  signing_since: Date | string | null;
}

export const usesSimulator = (config: Config) => !config.fiscal.apiKey;

function shape(config: Config, tillId: number, row: Row | undefined): TillFiscal {
  const effectiveMode = row?.mode ?? config.fiscal.mode;
  return {
    tillId,
    mode: row?.mode ?? null,
    country: row?.country ?? null,
    effectiveMode,
    effectiveCountry: row?.country ?? config.fiscal.country,
    simulator: effectiveMode === 'test' && usesSimulator(config),
    signingSince: row?.signing_since ? new Date(row.signing_since).toISOString() : null,
  };
}

export async function tillFiscal(db: Knex, config: Config, tillId: number): Promise<TillFiscal> {
  const row = await db('fiscal_tills').where({ till_id: tillId }).first<Row | undefined>();
  return shape(config, tillId, row);
}

/** Every till's setting, in the order of their ids. */
export async function allTillsFiscal(db: Knex, config: Config): Promise<TillFiscal[]> {
  const rows = await db('tills as t')
    .leftJoin('fiscal_tills as f', 'f.till_id', 't.id')
    .orderBy('t.id')
    .select<(Row & { id: number })[]>('t.id', 'f.till_id', 'f.mode', 'f.country', 'f.signing_since');
  return rows.map((row) => shape(config, row.id, row.till_id === null ? undefined : row));
}

/** Sets a till's mode and country (null: the installation's). Live needs the provider's credentials. */
export async function setTillFiscal(
  db: Knex,
  config: Config,
  tillId: number,
  input: { mode: FiscalMode | null; country: FiscalCountry | null },
): Promise<TillFiscal> {
  const mode = input.mode ?? config.fiscal.mode;
  // A till signs only under its own country's law: a Swiss till is never switched to German signing.
  const { country } = await db('settings').where({ id: 1 }).first<{ country: string }>('country');
  const law = presetOf(country).fiscal.law;
  if (mode !== 'off' && law === null)
    throw conflictError(
      tr('A till in {country} cannot sign: no law there asks for it, and another country’s signing does not apply.', {
        country,
      }),
      { mode: 'Signing is off in this country.' },
    );
  const missing = missingFiscalCredentials(config);
  if (mode === 'live' && missing.length)
    throw conflictError('Live signing needs the signing service’s credentials in the configuration (docs/fiscal.md).', {
      mode: 'Live needs the signing service’s credentials.',
    });
  const before = await tillFiscal(db, config, tillId);
  const after = shape(config, tillId, {
    till_id: tillId,
    mode: input.mode,
    country: input.country,
    signing_since: null,
  });
  // A change of what applies begins signing anew; the same again keeps it going.
  const restart = before.effectiveMode !== after.effectiveMode || before.effectiveCountry !== after.effectiveCountry;
  await db('fiscal_tills')
    .insert({ till_id: tillId, mode: input.mode, country: input.country, updated_at: db.fn.now() })
    .onConflict('till_id')
    .merge({
      mode: input.mode,
      country: input.country,
      updated_at: db.fn.now(),
      ...(restart ? { signs_after_movement_id: null, signing_since: null } : {}),
    });
  return tillFiscal(db, config, tillId);
}
