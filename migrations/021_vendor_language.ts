import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The vendor's language becomes a choice of the interface languages: it decides the
// language of /me, so it must be one /me speaks. The free text written so far ("Deutsch",
// "Englisch", "Rumänisch", …) maps to English where it names English and to German otherwise,
// German being the default and fallback everywhere.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table vendors drop constraint if exists vendors_language_check;
    update vendors set language = case
      when lower(trim(language)) in ('en', 'eng', 'english', 'englisch', 'anglais', 'inglés', 'ingles') then 'en'
      else 'de' end;
    alter table vendors alter column language set default 'de';
    alter table vendors add constraint vendors_language_check check (language in ('de', 'en'));
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
