import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// A payout and a manual till movement carry the id the back office made for the submission (a
// UUID), so a submission sent again (a retry after a lost answer, a second click) books once. The
// id is unique: of two bookings with one id that the till's lock did not already put in a row (they
// name different tills), the database lets one in. Older clients send none.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table payouts add column request_id uuid unique;
    alter table cash_movements add column request_id uuid unique;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
