import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// VAT on what the newspaper sells at the counter: a copy's price includes it, and the purchase
// receipt (Kaufbeleg) is the vendor's invoice, which names the rate, the VAT amount and the seller.
// Rates are whole hundredths of a percent (700 = 7 %, 550 = 5,5 %), so they add up without floats.
//
// - settings.vat_rate: the newspaper's rate, the reduced rate for newspapers (7 % in Germany; an
//   Austrian newspaper sets 10 %); settings.newspaper_address: the seller's address on the receipt.
// - items.vat_rate: an item's own rate; null takes the newspaper's.
// - ledger_rows.vat_rate: the rate a counter sale was booked at, so a receipt printed again later
//   shows what was charged even after a rate changed. Rows booked before this migration have none;
//   their receipt takes the item's (or the newspaper's) rate of today. Adding a column without a
//   default writes no row, so the ledger's guard (migration 009) is not asked.
const rate = (column: string) => `${column} between 0 and 10000`;

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings add column vat_rate integer not null default 700 check (${rate('vat_rate')});
    alter table settings add column newspaper_address text not null default '' check (length(newspaper_address) <= 500);
    alter table items add column vat_rate integer check (${rate('vat_rate')});
    alter table ledger_rows add column vat_rate integer check (${rate('vat_rate')});
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
