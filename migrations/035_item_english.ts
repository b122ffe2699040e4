import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// An item's name and description in English, beside the German ones in name and description. Empty
// means "as in German": German is the fallback wherever the English text is read.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table items add column name_en text not null default '' check (length(name_en) <= 200);
    alter table items add column description_en text not null default '' check (length(description_en) <= 5000);
    `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
