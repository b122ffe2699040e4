import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Austria on fiskaly SIGN AT (api/src/fiscal/at/fiskaly.ts): the service keeps each till's receipt
// chain (numbers, chain values, the turnover counter and its AES key) and signs with its signature
// creation unit; this installation keeps a copy of every receipt for the receipt, the DEP export and
// the tax office's questions.
//
// - fiscal_rksv_tills: the till's cash register at SIGN AT (`register_id`, a UUID this installation
//   chooses) and the signature creation unit it signs with; `cash_register_id` is the Kassen-ID the
//   service answers (its serial number, in every receipt's code). The AES key lives at the service.
// - fiscal_rksv_receipts: every receipt of the chain as the service answered it, the ones the
//   service makes by itself too (start, month, year, the Sammelbeleg after a failed unit), its id at
//   the service, and whether the unit signed it (false: "Sicherheitseinrichtung ausgefallen",
//   §17 RKSV). Storno and training receipts are kinds of their own.
// - fiscal_sandbox_rksv_*: the local simulator of SIGN AT (api/src/fiscal/sandbox/rksv.ts): its
//   units, cash registers with their chains, and receipts.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table fiscal_rksv_tills alter column aes_key drop not null;
    alter table fiscal_rksv_tills add column register_id uuid unique;
    alter table fiscal_rksv_tills add column scu_id uuid;
    alter table fiscal_rksv_receipts drop constraint fiscal_rksv_receipts_kind_check;
    alter table fiscal_rksv_receipts add constraint fiscal_rksv_receipts_kind_check check (kind in (
      'Startbeleg', 'Barumsatz', 'Nullbeleg', 'Monatsbeleg', 'Jahresbeleg', 'Storno', 'Training', 'Sammelbeleg', 'Schlussbeleg'));
    alter table fiscal_rksv_receipts alter column turnover drop not null;
    alter table fiscal_rksv_receipts add column receipt_id uuid unique;
    alter table fiscal_rksv_receipts add column signed boolean not null default true;

    drop table fiscal_sandbox_scu;

    create table fiscal_sandbox_rksv_scu (
      id uuid primary key,
      state text not null check (state in ('CREATED', 'INITIALIZED', 'DECOMMISSIONED')),
      legal_entity_id jsonb not null,
      legal_entity_name text not null,
      key_id text not null,
      private_key text not null,
      public_key text not null,
      failing boolean not null default false,
      created_at timestamptz not null default now()
    );

    create table fiscal_sandbox_rksv_registers (
      id uuid primary key,
      scu_id uuid not null references fiscal_sandbox_rksv_scu(id),
      state text not null check (state in ('CREATED', 'REGISTERED', 'INITIALIZED', 'DECOMMISSIONED')),
      description text not null default '',
      serial_number text not null unique,
      aes_key text not null,
      receipt_number bigint not null default 0,
      turnover bigint not null default 0,
      last_jws text,
      month text,
      outage boolean not null default false,
      initialization_receipt_id uuid,
      created_at timestamptz not null default now()
    );

    create table fiscal_sandbox_rksv_receipts (
      register_id uuid not null references fiscal_sandbox_rksv_registers(id),
      id uuid not null,
      receipt_number bigint not null,
      receipt_type text not null,
      body jsonb not null,
      primary key (register_id, id),
      unique (register_id, receipt_number)
    );
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
