import type { Knex } from 'knex';
import { z } from 'zod';
import {
  benefitSchemeKeys,
  benefitSchemePresets,
  defaultBenefitScheme,
  type BenefitScheme,
} from '../ledger/benefit.ts';

type Db = Knex | Knex.Transaction;

// The installation's benefit scheme (settings.benefit_scheme): which scheme the vendors' benefit
// statements are gauged against, with its bands as the office keeps them up to date. Null in the
// database is the default scheme as the code publishes it.

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

export async function readBenefitScheme(db: Db): Promise<BenefitScheme> {
  const row = await db('settings')
    .where({ id: 1 })
    .first<{ benefit_scheme: BenefitScheme | string | null }>('benefit_scheme');
  const stored = row?.benefit_scheme;
  if (!stored) return defaultBenefitScheme;
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
