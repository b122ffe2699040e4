import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Signed cash movements (api/src/fiscal): in Germany every cash transaction of an electronic
// recording system is signed by a TSE (§146a AO, KassenSichV), in Austria by a signature device
// (RKSV). The booking stays the truth; signing comes after it has committed, so a signing device
// that cannot be reached never loses a booking.
//
// - fiscal_tills: a till's own fiscal mode (off, test, live) and country (DE, AT); null takes the
//   installation's FISCAL_MODE and FISCAL_COUNTRY. `signs_after_movement_id` is where signing began:
//   the movements after it are signed (0 when the till had none yet); null while it signs nothing.
// - fiscal_transactions: one per signed thing: a cash movement, a counter visit's sale (which holds
//   the visit's cash movement, so that movement is not signed twice) or the till's opening balance
//   when signing began. `source` names it once; `tx_id` is the id the signing service is asked with,
//   made from the source, so a retry asks for the same transaction and never signs twice. A signed
//   transaction is final.
// - fiscal_sandbox_*: the local TSE simulator's own state (api/src/fiscal/sandbox), like the Stripe
//   sandbox's tables: its credentials, its TSSs with their key and counters, clients, transactions.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table fiscal_tills (
      till_id integer primary key references tills(id),
      mode text check (mode in ('off', 'test', 'live')),
      country text check (country in ('DE', 'AT')),
      signs_after_movement_id bigint,
      signing_since timestamptz,
      updated_at timestamptz not null default now()
    );

    create table fiscal_transactions (
      id bigserial primary key,
      till_id integer not null references tills(id),
      source text not null unique check (length(source) between 1 and 100),
      business_case text not null check (length(business_case) between 1 and 30),
      cash_movement_id bigint unique references cash_movements(id),
      counter_visit_id uuid unique references counter_visits(id),
      country text not null check (country in ('DE', 'AT')),
      mode text not null check (mode in ('test', 'live')),
      tx_id uuid not null unique,
      request jsonb not null check (jsonb_typeof(request) = 'object'),
      state text not null default 'pending' check (state in ('pending', 'signed', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      last_error text check (length(last_error) <= 2000),
      signature jsonb check (signature is null or jsonb_typeof(signature) = 'object'),
      lease_until timestamptz,
      created_at timestamptz not null default now(),
      signed_at timestamptz,
      updated_at timestamptz not null default now(),
      constraint fiscal_transactions_signed check ((state = 'signed') = (signature is not null and signed_at is not null))
    );
    create index fiscal_transactions_unsigned on fiscal_transactions (id) where state <> 'signed';
    create index fiscal_transactions_till on fiscal_transactions (till_id, id);

    create table fiscal_sandbox_credentials (
      id boolean primary key default true check (id),
      api_key text not null,
      api_secret text not null
    );

    create table fiscal_sandbox_state (
      id boolean primary key default true check (id),
      offline boolean not null default false
    );

    create table fiscal_sandbox_tss (
      id uuid primary key,
      state text not null check (state in ('CREATED', 'UNINITIALIZED', 'INITIALIZED', 'DISABLED')),
      serial_number text not null,
      private_key text not null,
      public_key text not null,
      admin_puk text not null,
      admin_pin text,
      admin_authenticated boolean not null default false,
      signature_counter bigint not null default 0,
      transaction_counter bigint not null default 0,
      created_at timestamptz not null default now()
    );

    create table fiscal_sandbox_clients (
      tss_id uuid not null references fiscal_sandbox_tss(id),
      id uuid not null,
      serial_number text not null,
      primary key (tss_id, id)
    );

    create table fiscal_sandbox_transactions (
      tss_id uuid not null references fiscal_sandbox_tss(id),
      id uuid not null,
      revision integer not null,
      state text not null,
      body jsonb not null,
      primary key (tss_id, id)
    );
  `,
  );
  for (const statement of guards) await knex.raw(statement);
}

// A signed transaction is final: its signature is what the tax office checks against the TSE's log.
const guards = [
  `create function fiscal_transactions_guard() returns trigger language plpgsql as $$
   begin
     if tg_op = 'DELETE' or old.state = 'signed' then
       raise exception 'Fiscal transaction % is signed and cannot be changed.', old.id using errcode = 'FT001';
     end if;
     return new;
   end
   $$`,
  `create trigger fiscal_transactions_guard before update or delete on fiscal_transactions
     for each row execute function fiscal_transactions_guard()`,
];

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
