import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The cash a vendor hands over at the counter, when it is more than the copies cost: the till keeps
// the price (cash_paid) and gives the rest back as change, which the receipt prints. Change is only
// given once the cash pays all the copies; paying part from the credit and taking change back would
// be a payout in disguise. Null for visits where the cash handed over was the cash paid.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table counter_visits add column cash_tendered bigint
      constraint counter_visits_change check (
        cash_tendered is null or cash_tendered = cash_paid or (cash_tendered > cash_paid and cash_paid = copies_amount)
      );
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
