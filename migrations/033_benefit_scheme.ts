import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The benefit scheme the newspaper's vendors live under, for the gauge of the benefit statements:
// its key, bands, warning distance and tips limit as JSON (api/src/ledger/benefit.ts). Null means
// the default scheme as the code publishes it, so an installation that never chose one follows the
// law's changes with an update.
export async function up(knex: Knex): Promise<void> {
  await runSql(knex, `alter table settings add column benefit_scheme jsonb`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
