import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// What happens to a payment at Stripe after it was made: refunds (ours and the Dashboard's, with
// their status) and disputes (chargebacks). Stripe's ids are the keys, so a repeated, late or
// reordered event finds its row and books nothing twice; the ledger's unique index is the last line.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table ledger_rows drop constraint ledger_rows_kind_check;
    alter table ledger_rows add constraint ledger_rows_kind_check
      check (kind in ('sale', 'tip', 'licence', 'fee', 'fee_cover', 'payout', 'payout_reversal', 'refund',
                      'dispute', 'dispute_fee', 'dispute_won', 'dispute_vendor'));
    -- Stripe allows one dispute per charge, and we one charge per order.
    create unique index ledger_rows_dispute_once on ledger_rows (order_id, kind)
      where kind in ('dispute', 'dispute_fee', 'dispute_won', 'dispute_vendor');

    create table stripe_refunds (
      id text primary key check (id ~ '^[a-z]+_[A-Za-z0-9_]+$'),
      order_id integer not null references orders(id),
      amount integer not null check (amount > 0),
      status text not null check (status in ('pending', 'requires_action', 'succeeded', 'failed', 'canceled')),
      failure_reason text,
      -- the staff member who asked; null for a refund made in Stripe's Dashboard
      requested_by text,
      booked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index stripe_refunds_order on stripe_refunds (order_id);

    create table stripe_disputes (
      id text primary key check (id ~ '^[a-z]+_[A-Za-z0-9_]+$'),
      order_id integer not null unique references orders(id),
      amount integer not null check (amount > 0),
      reason text,
      status text not null,
      evidence_due_by timestamptz,
      withdrawn_at timestamptz,
      reinstated_at timestamptz,
      -- who bears the lost money: staff decide
      bearer text check (bearer in ('vendor', 'newspaper')),
      decided_by text,
      decided_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint stripe_disputes_decided check ((bearer is null) = (decided_by is null) and (bearer is null) = (decided_at is null))
    );
    create index stripe_disputes_open on stripe_disputes (created_at) where bearer is null;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
