import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The shop's public reads (settings, items, the vendor check, the shop page) come from a copy in each
// API process. Every statement that changes the settings or the items sets a new revision in its own
// transaction, whoever runs it (a route, an import, a restore, psql); the hot routes read the revision
// in the one query they make anyway and drop their copy when it moved, so no process ever answers
// from a copy older than the last committed change.
//
// The value comes from a sequence, so it only grows, also across an emptied table (the tests' reset,
// a restore); it is set under the row's lock, so of two changes the one committed later has the
// higher revision. A missing row reads as revision 0.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create sequence shop_revision_values;
    create table shop_revision (
      id integer primary key check (id = 1),
      revision bigint not null
    );
    insert into shop_revision (id, revision) values (1, nextval('shop_revision_values'));
  `,
  );
  // One statement of its own: runSql would split the function's body at its semicolon.
  await knex.raw(`create function raise_shop_revision() returns trigger language plpgsql as $$
    begin
      insert into shop_revision (id, revision) values (1, nextval('shop_revision_values'))
        on conflict (id) do update set revision = nextval('shop_revision_values');
      return null;
    end $$`);
  await runSql(
    knex,
    `
    create trigger settings_raise_shop_revision after insert or update or delete or truncate on settings
      for each statement execute function raise_shop_revision();
    create trigger items_raise_shop_revision after insert or update or delete or truncate on items
      for each statement execute function raise_shop_revision();
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
