import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The books: payouts at the counter, and corrections. A booked row is never edited or deleted; a
// mistake is undone by a row that reverses it (`reversal_of`, at most one per row), so the history
// an accountant sees always adds up.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    -- One cash payout to a vendor: its ledger row (vendor -> cash) and every open row it settled
    -- carry its id. The receipt number is what the vendor signs and the office files.
    create table payouts (
      id serial primary key,
      receipt_number text not null unique,
      vendor_id integer not null references vendors(id),
      amount bigint not null check (amount > 0),
      authorised_by text not null check (length(authorised_by) between 1 and 200),
      created_at timestamptz not null default now(),
      reversed_at timestamptz,
      reversed_by text,
      reversal_reason text,
      constraint payouts_reversal_complete check (
        (reversed_at is null and reversed_by is null and reversal_reason is null)
        or (reversed_at is not null and length(reversed_by) between 1 and 200 and length(trim(reversal_reason)) between 1 and 1000)
      )
    );
    create index payouts_vendor on payouts (vendor_id, created_at);
    create index payouts_created on payouts (created_at);

    alter table ledger_rows add constraint ledger_rows_payout_fk foreign key (payout_id) references payouts(id);
    create index ledger_rows_payout on ledger_rows (payout_id) where payout_id is not null;
    -- exactly one cash row per payout
    create unique index ledger_rows_one_payout_row on ledger_rows (payout_id) where kind = 'payout';

    -- The row a correction reverses; unique, so nothing can be reversed twice.
    alter table ledger_rows add column reversal_of bigint references ledger_rows(id);
    create unique index ledger_rows_reversed_once on ledger_rows (reversal_of) where reversal_of is not null;

    alter table ledger_rows drop constraint ledger_rows_kind_check;
    alter table ledger_rows add constraint ledger_rows_kind_check
      check (kind in ('sale', 'tip', 'licence', 'fee', 'fee_cover', 'payout', 'payout_reversal', 'refund'));
    -- a refund reverses one order entry's row, so it names the entry too (one refund per entry and kind)
    alter table ledger_rows drop constraint ledger_rows_entry_kinds;
    alter table ledger_rows add constraint ledger_rows_entry_kinds
      check ((kind in ('sale', 'tip', 'licence', 'refund')) = (order_entry_id is not null));
    alter table ledger_rows drop constraint ledger_rows_order_kinds;
    alter table ledger_rows add constraint ledger_rows_order_kinds
      check ((kind in ('payout', 'payout_reversal')) = (order_id is null));
    alter table ledger_rows drop constraint ledger_rows_payout_authorised;
    alter table ledger_rows add constraint ledger_rows_payout_authorised
      check (kind not in ('payout', 'payout_reversal', 'refund') or authorised_by is not null);
    alter table ledger_rows add constraint ledger_rows_corrections_name_their_row
      check ((kind in ('payout_reversal', 'refund')) = (reversal_of is not null));

    -- Refunds go through Stripe first; the order remembers the refund so a retry asks for the same one.
    alter table orders drop constraint orders_status_check;
    alter table orders add constraint orders_status_check
      check (status in ('pending', 'paid', 'failed', 'expired', 'flagged', 'refunded'));
    alter table orders add column stripe_refund_id text unique;
    alter table orders add column refunded_at timestamptz;
    alter table orders add column refunded_by text;
    alter table orders add constraint orders_refunded_complete
      check ((status = 'refunded') = (refunded_at is not null and refunded_by is not null));
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
