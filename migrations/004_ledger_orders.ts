import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Money: accounts and ledger rows (double entry, integer cents), orders with their entries, the
// Stripe events already seen, and the per-address order rate limit. The constraints are the last
// line of defence: no code path can book an order entry twice, a fee twice, or an amount <= 0.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table ledger_accounts (
      id serial primary key,
      kind text not null check (kind in ('vendor', 'customers', 'orga', 'cash', 'provider')),
      vendor_id integer references vendors(id),
      created_at timestamptz not null default now(),
      constraint ledger_accounts_vendor_kind check ((kind = 'vendor') = (vendor_id is not null))
    );
    create unique index ledger_accounts_one_per_vendor on ledger_accounts (vendor_id) where vendor_id is not null;
    create unique index ledger_accounts_one_per_system_kind on ledger_accounts (kind) where vendor_id is null;

    create table orders (
      id serial primary key,
      -- the receipt's address: random, unguessable, the only way the public reaches an order
      token text not null unique check (token ~ '^[A-Za-z0-9_-]{43}$'),
      vendor_id integer not null references vendors(id),
      status text not null default 'pending' check (status in ('pending', 'paid', 'failed', 'expired', 'flagged')),
      amount_total integer not null check (amount_total > 0),
      tip integer not null default 0 check (tip >= 0),
      currency text not null default 'eur' check (currency = 'eur'),
      email text check (email ~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'),
      locale text not null default 'de' check (locale in ('de', 'en')),
      stripe_session_id text unique,
      stripe_payment_intent_id text unique,
      flag_reason text,
      -- the card fee Stripe charged; null until its balance transaction is known
      fee integer check (fee >= 0),
      expires_at timestamptz not null,
      paid_at timestamptz,
      -- when the reconciliation job last asked Stripe about this order
      checked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint orders_paid_has_time check (status <> 'paid' or paid_at is not null),
      constraint orders_flag_has_reason check (status <> 'flagged' or flag_reason is not null)
    );
    create index orders_pending on orders (created_at) where status = 'pending';
    create index orders_vendor on orders (vendor_id, created_at);
    create index orders_created on orders (created_at);

    -- What an order books once paid: one sale per item, the tip, and the licence share of a
    -- digital edition (vendor -> orga). Prices are copied here when the order is placed.
    create table order_entries (
      id serial primary key,
      order_id integer not null references orders(id),
      kind text not null check (kind in ('sale', 'tip', 'licence')),
      item_id integer references items(id),
      quantity integer check (quantity >= 1),
      unit_price integer check (unit_price >= 0),
      amount integer not null check (amount >= 0),
      constraint order_entries_tip_has_no_item check ((kind = 'tip') = (item_id is null)),
      constraint order_entries_item_amount check (kind = 'tip' or (quantity is not null and unit_price is not null and amount = quantity * unit_price)),
      constraint order_entries_tip_amount check (kind <> 'tip' or (quantity is null and unit_price is null and amount > 0))
    );
    create index order_entries_order on order_entries (order_id);
    create unique index order_entries_item_once on order_entries (order_id, kind, item_id) where item_id is not null;
    create unique index order_entries_one_tip on order_entries (order_id) where kind = 'tip';

    create table ledger_rows (
      id bigserial primary key,
      sender_id integer not null references ledger_accounts(id),
      receiver_id integer not null references ledger_accounts(id),
      amount bigint not null check (amount > 0),
      kind text not null check (kind in ('sale', 'tip', 'licence', 'fee', 'fee_cover', 'payout')),
      order_id integer references orders(id),
      order_entry_id integer references order_entries(id),
      item_id integer references items(id),
      quantity integer check (quantity >= 1),
      unit_price integer check (unit_price >= 0),
      -- set when the row is paid out; the payouts table adds its foreign key
      payout_id integer,
      authorised_by text,
      created_at timestamptz not null default now(),
      constraint ledger_rows_two_accounts check (sender_id <> receiver_id),
      constraint ledger_rows_entry_kinds check ((kind in ('sale', 'tip', 'licence')) = (order_entry_id is not null)),
      constraint ledger_rows_order_kinds check ((kind = 'payout') = (order_id is null)),
      constraint ledger_rows_payout_authorised check (kind <> 'payout' or authorised_by is not null),
      constraint ledger_rows_unit_amount check (quantity is null or unit_price is null or amount = quantity * unit_price),
      constraint ledger_rows_entry_once unique (order_entry_id, kind)
    );
    create unique index ledger_rows_fee_once on ledger_rows (order_id, kind) where kind in ('fee', 'fee_cover');
    create index ledger_rows_order on ledger_rows (order_id);
    create index ledger_rows_received_open on ledger_rows (receiver_id) where payout_id is null;
    create index ledger_rows_sent_open on ledger_rows (sender_id) where payout_id is null;
    create index ledger_rows_created on ledger_rows (created_at);

    -- Stripe's webhook events by id: a redelivery of a processed event is a no-op.
    create table stripe_events (
      id text primary key,
      type text not null,
      payload jsonb not null,
      received_at timestamptz not null default now(),
      processed_at timestamptz,
      attempts integer not null default 0,
      last_error text
    );

    -- New orders per client address and minute, shared by every API process.
    create table order_rate_limits (
      address text not null,
      window_start timestamptz not null,
      requests integer not null check (requests > 0),
      primary key (address, window_start)
    );
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
