import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Refunds and disputes as Stripe has them: an order may be refunded in parts, by several refunds, and a
// refund that succeeded may fail later; a charge may have several disputes, each moving money by
// several balance transactions (the withdrawal, its fee, a countered fee, the reinstatement, a fee
// returned). Each of those rows names the Stripe object it books (`stripe_ref`: the refund `re_…`, the
// balance transaction `txn_…`, the dispute for the vendor's share), and the database allows each
// object once per kind (and per order entry for a refund), so a repeated, late or reordered event
// cannot book twice.
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
] as const;

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table ledger_rows add column stripe_ref text check (stripe_ref ~ '^[a-z]+_[A-Za-z0-9_]+$');
    alter table ledger_rows drop constraint ledger_rows_kind_check;
    alter table ledger_rows add constraint ledger_rows_kind_check
      check (kind in (${ledgerRowKinds.map((kind) => `'${kind}'`).join(', ')}));

    -- An order entry is booked once; it may be refunded by several refunds, each once.
    alter table ledger_rows drop constraint ledger_rows_entry_once;
    create unique index ledger_rows_entry_once on ledger_rows (order_entry_id, kind)
      where kind in ('sale', 'tip', 'licence');
    create unique index ledger_rows_refund_once on ledger_rows (stripe_ref, order_entry_id) where kind = 'refund';
    -- Several refunds may each take a part of one row; any other correction reverses its row once.
    drop index ledger_rows_reversed_once;
    create unique index ledger_rows_reversed_once on ledger_rows (reversal_of)
      where reversal_of is not null and kind <> 'refund';
    alter table ledger_rows drop constraint ledger_rows_entry_kinds;
    alter table ledger_rows add constraint ledger_rows_entry_kinds
      check ((kind in ('sale', 'tip', 'licence', 'refund', 'refund_failed')) = (order_entry_id is not null));
    -- A refund that failed after it succeeded gives back what its rows took: each reversed once
    -- (ledger_rows_reversed_once).
    alter table ledger_rows drop constraint ledger_rows_corrections_name_their_row;
    alter table ledger_rows add constraint ledger_rows_corrections_name_their_row
      check ((kind in ('payout_reversal', 'refund', 'refund_failed')) = (reversal_of is not null));
    alter table ledger_rows drop constraint ledger_rows_payout_authorised;
    alter table ledger_rows add constraint ledger_rows_payout_authorised
      check (kind not in ('payout', 'payout_reversal', 'refund', 'refund_failed', 'counter_sale', 'counter_cash')
             or authorised_by is not null);

    -- Stripe's objects, each booked once per kind; rows booked before they were named stay unnamed.
    drop index ledger_rows_dispute_once;
    create unique index ledger_rows_stripe_once on ledger_rows (stripe_ref, kind)
      where kind in ('dispute', 'dispute_fee', 'dispute_fee_returned', 'dispute_won', 'dispute_vendor');
    -- The one refund that an order booked before: its rows are named by the order's refund. Naming
    -- moves no money, so the guard (migration 009) steps aside for this one statement.
    alter table ledger_rows disable trigger ledger_rows_guard;
    update ledger_rows r set stripe_ref = o.stripe_refund_id
      from orders o where r.order_id = o.id and r.kind = 'refund' and o.stripe_refund_id is not null;
    alter table ledger_rows enable trigger ledger_rows_guard;

    -- What of the order Stripe gave back in all (the sum of its refunds that stand).
    alter table orders add column amount_refunded integer not null default 0 check (amount_refunded >= 0);
    update orders set amount_refunded = amount_total where status = 'refunded';
    alter table orders add constraint orders_refunded_within check (amount_refunded <= amount_total);
    -- Radar's early fraud warning on the payment: shown with a refund action (its fraud type).
    alter table orders add column fraud_warning text;

    -- A refund's amount booked: undone when the refund fails later.
    alter table stripe_refunds add column booked_amount integer not null default 0 check (booked_amount >= 0);
    update stripe_refunds set booked_amount = amount where booked_at is not null;

    -- Several disputes per charge. Disputes whose money was booked before balance transactions named
    -- their rows: their withdrawal (and reinstatement) count as booked.
    alter table stripe_disputes drop constraint stripe_disputes_order_id_key;
    create index stripe_disputes_order on stripe_disputes (order_id);
    alter table stripe_disputes add column booked_unnamed boolean not null default false;
    update stripe_disputes set booked_unnamed = true where withdrawn_at is not null;
    -- The vendor's part of a dispute staff decided against the vendor (at most what the sale still
    -- left with the vendor).
    alter table stripe_disputes add column vendor_amount integer not null default 0 check (vendor_amount >= 0);
    update stripe_disputes set vendor_amount = amount where bearer = 'vendor';
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
