import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Login attempts counted before the password is checked, as one counter row per account and address
// pair, per address and per account (see api/src/identity/provider/throttle.ts). A counter row is
// claimed by one conditional upsert, so parallel attempts in several processes cannot all pass a
// limit that a read-then-write let through. The old failure log is replaced; its rows are a quarter
// hour's worth and not carried over.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table login_throttle (
      scope text not null check (scope in ('pair', 'address', 'account')),
      -- lower case, as typed: unknown names count too, so probing them is throttled as well
      username text not null default '',
      address text not null default '',
      attempts integer not null check (attempts >= 0),
      window_start timestamptz not null default now(),
      -- per account only: when the next attempt may come once the account's limit is reached
      next_at timestamptz,
      primary key (scope, username, address)
    );
    create index login_throttle_window on login_throttle (window_start);
    drop table login_failures;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
