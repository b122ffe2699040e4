import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Two texts of the newspaper's own:
// - german_variant: how German mails write a date, the German way ("8. Januar 2027", de-DE) or
//   the Austrian one ("8. Jänner 2027", de-AT).
// - meta_description: what a search engine or a shared link shows under the shop's title; empty
//   means the text the shop writes from the newspaper's and the vendor's name.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table settings add column german_variant text not null default 'de-DE'
      check (german_variant in ('de-DE', 'de-AT'));
    alter table settings add column meta_description text not null default ''
      check (length(meta_description) <= 300);
    `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
