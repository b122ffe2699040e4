import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// A Swiss VAT number is the company's UID with the tax's name, "CHE-123.456.789 MWST" (TVA, IVA):
// twenty characters, where the European VAT identification numbers the column was made for take at
// most fifteen.

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings drop constraint settings_vat_id_check;
    alter table settings add constraint settings_vat_id_check check (length(vat_id) <= 20);
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
