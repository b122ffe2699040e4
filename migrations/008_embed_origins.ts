import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The newspaper's own websites that may embed the shop widget, besides EMBED_ORIGINS: staff can add
// one without a restart. A list of origins (checked by the settings form), empty by default.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings add column embed_origins jsonb not null default '[]'::jsonb
      check (jsonb_typeof(embed_origins) = 'array' and jsonb_array_length(embed_origins) <= 20);
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table settings drop column embed_origins');
}
