import type { Knex } from 'knex';
import { countries } from '../api/src/country/presets.ts';
import { runSql } from './sql.ts';

// The newspaper's country (api/src/country/presets.ts): its tax rates, receipts, cash rounding, coins
// and notes, and whether its tills can sign. A new installation takes COUNTRY at its first start;
// an installation from before this column is German.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `alter table settings add column country text not null default 'DE'
       check (country in (${countries.map((country) => `'${country}'`).join(', ')}));`,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
