import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// One table for every rate limit (orders, vendor checks), by bucket, replacing the orders' own. The
// counts are a minute's worth and worthless after it, so none are carried over.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table rate_limits (
      bucket text not null,
      address text not null,
      window_start timestamptz not null,
      requests integer not null check (requests > 0),
      primary key (bucket, address, window_start)
    );
    drop table order_rate_limits;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
