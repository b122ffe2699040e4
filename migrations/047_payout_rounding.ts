import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Cash rounding of a payout (ledger/payout.ts): where the smallest coin is above the minor unit, a
// vendor's credit of 13.47 CHF is paid out as 13.45, and the 0.02 are a `cash_rounding` row stamped
// with the payout, like the counter's rounding of a visit (044_cash_rounding.ts). A reversal of the
// payout takes that rounding back with a rounding row that names it (reversal_of, once). So a
// rounding belongs to a counter visit, a payout, or reverses another one, and a payout rounds once.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table ledger_rows drop constraint ledger_rows_counter_visit_kinds;
    alter table ledger_rows add constraint ledger_rows_counter_visit_kinds check (case
      when kind in ('counter_sale', 'counter_cash') then counter_visit_id is not null
      when kind = 'cash_rounding' then num_nonnulls(counter_visit_id, payout_id, reversal_of) > 0
      else counter_visit_id is null end);
    alter table ledger_rows drop constraint ledger_rows_corrections_name_their_row;
    alter table ledger_rows add constraint ledger_rows_corrections_name_their_row check (
      kind = 'cash_rounding' or (kind in ('payout_reversal', 'refund', 'refund_failed')) = (reversal_of is not null));
    create unique index ledger_rows_payout_rounding_once on ledger_rows (payout_id)
      where kind = 'cash_rounding' and counter_visit_id is null and reversal_of is null;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
