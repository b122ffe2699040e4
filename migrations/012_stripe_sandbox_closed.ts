import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The local Stripe sandbox closed to everyone but this installation and its webhook
// deliveries kept across a crash:
// - one random secret key and webhook secret per installation, made on first use, never published;
// - idempotency keys per caller (the hash of the API key used), expiring after 24 hours as Stripe's
//   do. The old table had no caller; its rows are answers to replays at most a day old, so they go;
// - pending webhook deliveries in the database, resumed by whichever process starts next.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table stripe_sandbox_credentials (
      id boolean primary key default true check (id),
      secret_key text not null,
      webhook_secret text not null,
      created_at timestamptz not null default now()
    );

    drop table stripe_sandbox_requests;
    create table stripe_sandbox_requests (
      caller text not null,
      idempotency_key text not null,
      fingerprint text not null,
      response jsonb,
      created_at timestamptz not null default now(),
      primary key (caller, idempotency_key)
    );
    create index stripe_sandbox_requests_age on stripe_sandbox_requests (created_at);

    create table stripe_sandbox_deliveries (
      id bigserial primary key,
      event_id text not null,
      -- null: the server's own endpoint, which needs no registration. No URL: an endpoint's is read
      -- when it is sent, so a delivery can only ever go where an endpoint points now.
      endpoint_id text,
      payload jsonb not null check (jsonb_typeof(payload) = 'object'),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz not null default now(),
      -- while a process sends it; a process that dies leaves it to the next after this time
      leased_until timestamptz,
      created_at timestamptz not null default now()
    );
    create index stripe_sandbox_deliveries_due on stripe_sandbox_deliveries (next_attempt_at);
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
