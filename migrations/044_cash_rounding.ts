import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Cash rounding at the counter (api/src/country/presets.ts): where the smallest coin is above the
// minor unit (CHF and CAD 0.05, SEK one krona), the cash a vendor pays for copies is rounded, and the
// difference is a booking of its own, `cash_rounding`, between the newspaper and the vendor, so the
// vendor's credit moves as if the exact amount had been paid and the bookkeeper sees the difference
// on its own account. The database refuses a rounding without its visit, above half the largest
// step (one krona: 50 öre), or a visit whose parts do not add up to its copies.
//
// The kind check is replaced, not added to: every kind a ledger row may have once this migration ran.
const ledgerRowKinds = [
  'sale',
  'tip',
  'licence',
  'fee',
  'fee_cover',
  'payout',
  'payout_reversal',
  'refund',
  'refund_failed',
  'dispute',
  'dispute_fee',
  'dispute_fee_returned',
  'dispute_won',
  'dispute_vendor',
  'counter_sale',
  'counter_cash',
  'stripe_payout',
  'stripe_payout_failed',
  'cash_rounding',
] as const;

const withoutOrder = [
  'payout',
  'payout_reversal',
  'counter_sale',
  'counter_cash',
  'stripe_payout',
  'stripe_payout_failed',
  'cash_rounding',
];

const list = (kinds: readonly string[]) => kinds.map((kind) => `'${kind}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table ledger_rows drop constraint ledger_rows_kind_check;
    alter table ledger_rows add constraint ledger_rows_kind_check check (kind in (${list(ledgerRowKinds)}));
    alter table ledger_rows drop constraint ledger_rows_order_kinds;
    alter table ledger_rows add constraint ledger_rows_order_kinds check ((kind in (${list(withoutOrder)})) = (order_id is null));
    alter table ledger_rows drop constraint ledger_rows_counter_visit_kinds;
    alter table ledger_rows add constraint ledger_rows_counter_visit_kinds
      check ((kind in ('counter_sale', 'counter_cash', 'cash_rounding')) = (counter_visit_id is not null));
    alter table ledger_rows add constraint ledger_rows_cash_rounding
      check (kind <> 'cash_rounding' or (amount between 1 and 50 and authorised_by is not null));
    create unique index ledger_rows_cash_rounding_once on ledger_rows (counter_visit_id) where kind = 'cash_rounding';
    alter table counter_visits add column cash_rounding bigint not null default 0 check (cash_rounding between -50 and 50);
    alter table counter_visits drop constraint counter_visits_split;
    alter table counter_visits add constraint counter_visits_split
      check (from_credit + cash_paid + cash_rounding = copies_amount);
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
