import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The protocol: who changed what and when, plus system events (failed logins, payment flags). It is
// append-only, so no foreign keys: an entry must outlive the record or account it names.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table protocol_entries (
      id bigserial primary key,
      -- the moment of writing, not the transaction's start: changes queued on one record keep their
      -- order; milliseconds, as the API shows them, so a time read from an entry finds it again
      at timestamptz(3) not null default clock_timestamp(),
      actor_sub text,
      actor_name text,
      action text not null check (length(btrim(action)) between 1 and 100),
      record_type text check (length(record_type) <= 100),
      record_id text check (length(record_id) <= 100),
      changes jsonb check (changes is null or jsonb_typeof(changes) = 'object'),
      details jsonb check (details is null or jsonb_typeof(details) = 'object')
    );
    create index protocol_entries_at on protocol_entries (at desc, id desc);
    create index protocol_entries_record on protocol_entries (record_type, record_id);
    create index protocol_entries_actor on protocol_entries (lower(actor_name));
  `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await runSql(knex, 'drop table protocol_entries;');
}
