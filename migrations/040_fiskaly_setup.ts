import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// fiskaly SIGN DE as fiskaly runs it (api/src/fiscal/de/fiskaly.ts):
// - fiscal_tss: the TSSs this installation set up, per signing account (`endpoint`), with the state
//   its set-up reached, so a set-up cut off at any step resumes there; the admin PUK and PIN are kept
//   encrypted (AES-256-GCM) with a key that is not in the database (FISCAL_SECRET_KEY, de/secrets.ts).
//   A TSS whose PUK was lost before it was stored is ABANDONED (it never signed) and a new one replaces it.
// - fiscal_clients: one client per till at each TSS, registered with the till's serial number (the
//   Kassen-Seriennummer of its receipts and of the DSFinV-K), and deregistered as a step of its own.
// - The simulator keeps a client's state, and faults it is told to answer with (fiscal_sandbox_faults).
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table fiscal_tss (
      id uuid primary key,
      endpoint text not null check (length(endpoint) between 1 and 500),
      state text not null check (state in ('NEW', 'CREATED', 'UNINITIALIZED', 'INITIALIZED', 'DISABLED', 'ABANDONED')),
      admin_puk text check (length(admin_puk) <= 500),
      admin_pin text check (length(admin_pin) <= 500),
      note text not null default '' check (length(note) <= 2000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index fiscal_tss_endpoint on fiscal_tss (endpoint, created_at);

    create table fiscal_clients (
      tss_id uuid not null references fiscal_tss(id),
      id uuid not null,
      till_id integer not null references tills(id),
      serial_number text not null check (length(serial_number) between 1 and 100),
      state text not null default 'REGISTERED' check (state in ('REGISTERED', 'DEREGISTERED')),
      created_at timestamptz not null default now(),
      deregistered_at timestamptz,
      primary key (tss_id, id)
    );
    create unique index fiscal_clients_till on fiscal_clients (tss_id, till_id) where state = 'REGISTERED';

    alter table fiscal_sandbox_clients add column state text not null default 'REGISTERED';

    create table fiscal_sandbox_faults (
      id serial primary key,
      method text not null,
      path text not null,
      kind text not null check (kind in ('status', 'slow', 'timeout')),
      status integer,
      delay_ms integer not null default 0,
      remaining integer not null check (remaining >= 0)
    );
    `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
