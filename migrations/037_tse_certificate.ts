import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The local TSE simulator's TSS has an X.509 certificate for its key, as fiskaly's TSS object does
// (`certificate`): the DSFinV-K's tse.csv carries it. Empty for a TSS made before; the simulator
// makes its certificate when it is first asked for it.
export async function up(knex: Knex): Promise<void> {
  await runSql(knex, `alter table fiscal_sandbox_tss add column certificate text not null default '';`);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
