import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The office's totals over every vendor (the start screen "Heute", the vendor list sorted by credit)
// read each vendor's open rows. The open-row indexes carry the amount, so those sums come from the
// indexes alone instead of a heap page per row (bench/books.ts: 40 ms → 13 ms for the open credit
// of 1,000 vendors); they replace 004's open-row indexes, which serve nothing these do not.
// Orders to check (flagged, or pending past their checkout) are a handful among hundreds of
// thousands: a partial index finds them without reading the table.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create index ledger_rows_received_open_amount on ledger_rows (receiver_id) include (amount) where payout_id is null;
    create index ledger_rows_sent_open_amount on ledger_rows (sender_id) include (amount) where payout_id is null;
    drop index ledger_rows_received_open;
    drop index ledger_rows_sent_open;
    create index orders_to_check on orders (status, expires_at) where status in ('flagged', 'pending');
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
