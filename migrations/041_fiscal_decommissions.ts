import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Taking a till out of signing is recorded on its own, because the office must report the end of its
// TSE's use to the tax office (§146a (4) AO) and the DSFinV-K names it for the Bons after it: when,
// which TSE (its serial, from the till's newest signature; null when it never signed), the country it
// signed in, the reason a person gave and who they were. A till may sign again later and be taken out
// once more, so a till may have several.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table fiscal_decommissions (
      id bigserial primary key,
      till_id integer not null references tills(id),
      country text not null check (country in ('DE', 'AT')),
      tss_serial text,
      client_serial text,
      reason text not null check (length(btrim(reason)) between 1 and 500),
      actor_name text,
      decommissioned_at timestamptz not null default now()
    );
    create index fiscal_decommissions_till on fiscal_decommissions (till_id, decommissioned_at);
    `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
