import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Stripe pays its balance out to the newspaper's bank account: a movement of its own, from the card
// money in transit at Stripe (the `customers` account, DATEV's Geldtransit) to a new system account
// `bank`. A payout is booked once when Stripe reports it paid (`stripe_payout`, named by the payout
// `po_…`), and given back once when Stripe reports it failed or cancelled after that
// (`stripe_payout_failed`). Neither belongs to an order.
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
] as const;

const withoutOrder = [
  'payout',
  'payout_reversal',
  'counter_sale',
  'counter_cash',
  'stripe_payout',
  'stripe_payout_failed',
];

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table ledger_accounts drop constraint ledger_accounts_kind_check;
    alter table ledger_accounts add constraint ledger_accounts_kind_check
      check (kind in ('vendor', 'customers', 'orga', 'cash', 'provider', 'bank'));

    alter table ledger_rows drop constraint ledger_rows_kind_check;
    alter table ledger_rows add constraint ledger_rows_kind_check
      check (kind in (${ledgerRowKinds.map((kind) => `'${kind}'`).join(', ')}));
    alter table ledger_rows drop constraint ledger_rows_order_kinds;
    alter table ledger_rows add constraint ledger_rows_order_kinds
      check ((kind in (${withoutOrder.map((kind) => `'${kind}'`).join(', ')})) = (order_id is null));
    -- A payout names the Stripe payout it books, and is booked (and given back) once.
    alter table ledger_rows add constraint ledger_rows_stripe_payout_named
      check (kind not in ('stripe_payout', 'stripe_payout_failed') or (stripe_ref is not null and authorised_by is not null));
    create unique index ledger_rows_stripe_payout_once on ledger_rows (stripe_ref, kind)
      where kind in ('stripe_payout', 'stripe_payout_failed');
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
