import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Indexes for the books over years of history (bench/books.ts measures them on 2,000,000 ledger
// rows): every list, total and statistic of a period reads its period's slice of an index, never
// the whole table, and a list's first page stops after its rows.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    -- The accounting list in its default order (newest first, as the list sorts: nulls last, then
    -- id) and the CSV export in the reverse direction: a page reads 25 index entries, not a month.
    create index ledger_rows_newest_first on ledger_rows (created_at desc nulls last, id desc);
    drop index ledger_rows_created;

    -- One account's rows over time, as receiver and as sender: the list filtered by vendor, vendor
    -- activity in the statistics. (The open-row indexes of 004 serve credits and payouts.)
    create index ledger_rows_receiver_time on ledger_rows (receiver_id, created_at);
    create index ledger_rows_sender_time on ledger_rows (sender_id, created_at);

    -- The list filtered by item.
    create index ledger_rows_item_time on ledger_rows (item_id, created_at) where item_id is not null;

    -- Sales statistics: the sales, tips and refunds of a period with every column they sum, read
    -- from the index alone.
    create index ledger_rows_sales on ledger_rows (created_at) include (kind, receiver_id, item_id, amount, quantity)
      where kind in ('sale', 'tip', 'refund');

    -- Orders per day, week or month in the statistics.
    create index orders_paid on orders (paid_at) where status in ('paid', 'refunded');
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
