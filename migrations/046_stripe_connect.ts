import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Stripe Connect, direct charges (https://docs.stripe.com/connect/direct-charges): a paper whose
// settings name its connected Standard account is the merchant of record; every Stripe call of the
// paper goes to that account (the Stripe-Account header), and only events of that account are booked.
// The local sandbox keeps each object with the account it belongs to (null: the platform's own), so
// one account's objects are invisible from another, as on Stripe.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings add column stripe_account text check (stripe_account ~ '^acct_[A-Za-z0-9]{1,64}$');
    alter table stripe_sandbox_objects add column account text;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
