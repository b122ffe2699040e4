import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// One order per cart however often "Pay" is tapped: the shop sends an id it made for its
// cart, and the database holds at most one order per id, so concurrent requests cannot both insert.
// The checkout address is kept so a repeated request gets the same Stripe page back.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table orders add column cart_id text check (cart_id ~ '^[A-Za-z0-9_-]{16,64}$');
    alter table orders add column checkout_url text;
    create unique index orders_cart_id on orders (cart_id);
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
