import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Austria's receipt chain (api/src/fiscal/at, RKSV BGBl. II Nr. 410/2015): every receipt of a
// till is a link of one chain, numbered without gaps, each holding the hash of the one before, the
// till's turnover counter encrypted with the till's AES key.
//
// - fiscal_rksv_tills: a till's Kassen-ID and AES key (both registered at FinanzOnline, §16 RKSV;
//   the key is shown to staff once, when `aes_key_shown_at` is set),
//   where its chain stands (the last receipt's number and JWS, the turnover counter in cents) and
//   the month of its last receipt, which decides when a month receipt is due (§8 RKSV), and the
//   certificate of its signature device with the chain of its issuers (empty for a device without
//   one), which the DEP export names.
// - fiscal_rksv_receipts: every receipt signed, with its kind (Startbeleg, Barumsatz, Nullbeleg,
//   Monatsbeleg, Jahresbeleg), its local date, the counter after it and its JWS compact: what the DEP
//   export (§7 RKSV) answers. A receipt of a fiscal transaction names it; start and month receipts
//   made by the chain itself have none. A signed receipt is final.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table fiscal_rksv_tills (
      till_id integer primary key references tills(id),
      cash_register_id text not null unique check (length(cash_register_id) between 1 and 100),
      aes_key text not null,
      aes_key_shown_at timestamptz,
      receipt_number bigint not null default 0 check (receipt_number >= 0),
      turnover bigint not null default 0,
      last_jws text,
      month text check (month ~ '^[0-9]{4}-[0-9]{2}$'),
      certificate text not null default '',
      certificate_chain jsonb not null default '[]' check (jsonb_typeof(certificate_chain) = 'array'),
      created_at timestamptz not null default now()
    );

    create table fiscal_rksv_receipts (
      till_id integer not null references fiscal_rksv_tills(till_id),
      number bigint not null check (number >= 1),
      kind text not null check (kind in ('Startbeleg', 'Barumsatz', 'Nullbeleg', 'Monatsbeleg', 'Jahresbeleg')),
      fiscal_transaction_id bigint unique references fiscal_transactions(id),
      receipt_date date not null,
      turnover bigint not null,
      jws text not null,
      signed_at timestamptz not null default now(),
      primary key (till_id, number)
    );
    create index fiscal_rksv_receipts_date on fiscal_rksv_receipts (receipt_date, till_id, number);

    create table fiscal_sandbox_scu (
      id uuid primary key,
      serial_number text not null,
      private_key text not null,
      public_key text not null,
      created_at timestamptz not null default now()
    );
  `,
  );
  for (const statement of guards) await knex.raw(statement);
}

// What the DEP holds is what the receipts printed: a signed receipt never changes.
const guards = [
  `create function fiscal_rksv_receipts_guard() returns trigger language plpgsql as $$
   begin
     raise exception 'RKSV receipt %/% is signed and cannot be changed.', old.till_id, old.number using errcode = 'FT002';
   end
   $$`,
  `create trigger fiscal_rksv_receipts_guard before update or delete on fiscal_rksv_receipts
     for each row execute function fiscal_rksv_receipts_guard()`,
];

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
