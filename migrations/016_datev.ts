import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The DATEV export's settings: adviser and client number, fiscal year, chart of accounts,
// account numbers. One JSON object checked by the API (api/src/accounting/datev-settings.ts); a key
// left out takes the chart's default, so an empty object is a valid start.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings add column datev jsonb not null default '{}'::jsonb
      check (jsonb_typeof(datev) = 'object');
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
