import type { Knex } from 'knex';
import { z } from 'zod';
import { presetOf, type Country } from '../country/presets.ts';
import {
  benefitSchemeKeys,
  benefitSchemePresets,
  type BenefitScheme,
  type BenefitSchemeKey,
} from '../ledger/benefit.ts';

type Db = Knex | Knex.Transaction;

// The installation's benefit scheme (settings.benefit_scheme): which scheme the vendors' benefit
// statements are gauged against, with its bands as the office keeps them up to date. Null in the
// database is the default scheme of the installation's country as the code publishes it: Bürgergeld
// in Germany, the Grundversorgung's allowance in Austria; elsewhere none, whose law the office
// enters itself (a German scheme in euros gauges nothing of a paper in Switzerland).

const band = z.strictObject({
  upTo: z.number().int().min(1).max(100_000_000),
  percent: z.number().int().min(0).max(100),
});

export const benefitSchemeForm = z
  .strictObject({
    scheme: z.enum(benefitSchemeKeys),
    bands: z.array(band).max(10),
    warnPercent: z.number().int().min(0).max(50),
    tipsFreeUpTo: z.number().int().min(0).max(100_000_000).nullable(),
  })
  .superRefine((scheme, ctx) => {
    scheme.bands.forEach((entry, index) => {
      if (index > 0 && entry.upTo <= scheme.bands[index - 1]!.upTo)
        ctx.addIssue({
          code: 'custom',
          path: ['bands', index, 'upTo'],
          message: 'Each band must end above the one before it.',
        });
    });
  });

const countryDefaults: Partial<Record<Country, BenefitSchemeKey>> = { DE: 'de-buergergeld', AT: 'at-grundversorgung' };

export async function readBenefitScheme(db: Db): Promise<BenefitScheme> {
  const row = await db('settings')
    .where({ id: 1 })
    .first<{ benefit_scheme: BenefitScheme | string | null; country: string }>('benefit_scheme', 'country');
  const stored = row?.benefit_scheme;
  if (!stored) return benefitSchemePresets[countryDefaults[presetOf(row?.country ?? 'DE').country] ?? 'none'];
  return typeof stored === 'string' ? (JSON.parse(stored) as BenefitScheme) : stored;
}

export async function saveBenefitScheme(db: Db, scheme: BenefitScheme): Promise<BenefitScheme> {
  // jsonb takes the text form: pg would send a JS array inside as a PostgreSQL array.
  await db('settings')
    .where({ id: 1 })
    .update({ benefit_scheme: JSON.stringify(scheme), updated_at: db.fn.now() });
  return readBenefitScheme(db);
}

/** The scheme and the presets a form offers to start from. */
export const benefitSchemeToApi = (scheme: BenefitScheme) => ({ ...scheme, presets: benefitSchemePresets });
