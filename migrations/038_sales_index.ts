import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The sales statistics read the sales, tips, refunds and failed refunds of a period (ledger/refund.ts,
// salesAndTheirRefundsSql). The index of 007 left failed refunds out, so PostgreSQL read the whole
// table for a year's statistics; this one holds every kind and column the statistics read, from
// the index alone.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create index ledger_rows_sales_and_refunds on ledger_rows (created_at)
      include (kind, sender_id, receiver_id, item_id, amount, quantity)
      where kind in ('sale', 'tip', 'refund', 'refund_failed');
    drop index ledger_rows_sales;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
