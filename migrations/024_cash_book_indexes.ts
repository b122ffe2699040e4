import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The cash book's movements found by their counter visit: the DATEV export looks up each ledger
// row's voucher by the row or by its visit (an OR the planner can only serve as two index scans),
// and the visit's receipt reads the visit's movements. Without it, each of a month's fifty thousand
// rows read the whole cash book (bench/books.ts: the DATEV month ran into the statement timeout).
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create index cash_movements_counter_visit on cash_movements (counter_visit_id) where counter_visit_id is not null;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
