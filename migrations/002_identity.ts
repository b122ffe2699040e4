import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The embedded OpenID provider: its accounts, its state (sessions, grants, codes, refresh tokens)
// and the failed logins it counts for throttling. All of it lives in the database so that several
// API processes behind one load balancer share it.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table accounts (
      id serial primary key,
      username text not null check (username ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$'),
      email text check (email ~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'),
      -- scrypt$N$r$p$salt$hash; null means no usable password
      password_hash text check (password_hash ~ '^scrypt\\$'),
      groups text[] not null default '{}',
      disabled boolean not null default false,
      -- a vendor's own login; soft-deleted vendors lose it, so the link stays unique
      vendor_id integer unique references vendors(id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index accounts_username on accounts (lower(username));

    -- One row per oidc-provider model instance (Session, Grant, AuthorizationCode, RefreshToken,
    -- Interaction, …), its payload as the provider hands it over.
    create table oidc_state (
      model text not null,
      id text not null,
      payload jsonb not null,
      grant_id text,
      uid text,
      user_code text,
      account_id text,
      expires_at timestamptz,
      primary key (model, id)
    );
    create index oidc_state_grant on oidc_state (grant_id) where grant_id is not null;
    create index oidc_state_uid on oidc_state (uid) where uid is not null;
    create index oidc_state_user_code on oidc_state (user_code) where user_code is not null;
    create index oidc_state_account on oidc_state (account_id) where account_id is not null;
    create index oidc_state_expires on oidc_state (expires_at);

    create table login_failures (
      id bigserial primary key,
      -- lower case, as typed: unknown names count too, so probing them is throttled as well
      username text not null,
      address text not null,
      at timestamptz not null default now()
    );
    create index login_failures_username on login_failures (username, at);
    create index login_failures_address on login_failures (address, at);
    create index login_failures_at on login_failures (at);
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
