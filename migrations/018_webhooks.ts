import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Outbound webhooks: endpoints staff configure, the events the books emit and one
// delivery per event and endpoint. Events and deliveries are written in the transaction that books
// what they report (an outbox), so an event exists exactly when its cause does and survives any
// restart; the sender only ever reads the database.
//
// Each endpoint's secret signs its deliveries, so it is stored as it is (a hash could not sign); it
// is shown to staff once, when made or rotated, and never listed or logged.
//
// The event types as they were when this migration was written (api/src/events/types.ts): a later
// type widens the checks in a migration of its own.
const eventTypes = [
  'order.paid',
  'order.refunded',
  'payout.created',
  'payout.reversed',
  'counter.sale',
  'counter.day_closed',
] as const;
const types = eventTypes.map((type) => `'${type}'`).join(', ');

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    create table webhook_endpoints (
      id serial primary key,
      url text not null check (length(url) between 1 and 2000),
      description text not null default '' check (length(description) <= 500),
      event_types text[] not null check (event_types <@ array[${types}]::text[]),
      active boolean not null default true,
      secret text not null check (length(secret) >= 32),
      -- when the secret was made or last rotated: what staff see (and the protocol records) of it
      secret_set_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table webhook_events (
      id uuid primary key,
      type text not null check (type in (${types})),
      data jsonb not null check (jsonb_typeof(data) = 'object'),
      created_at timestamptz not null default now()
    );
    create index webhook_events_created on webhook_events (created_at);

    -- One delivery per event and endpoint: the unique key is what makes "once per endpoint" hold.
    create table webhook_deliveries (
      id bigserial primary key,
      event_id uuid not null references webhook_events(id),
      endpoint_id integer not null references webhook_endpoints(id),
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz not null default now(),
      last_attempt_at timestamptz,
      last_status integer,
      last_error text check (length(last_error) <= 1000),
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      constraint webhook_deliveries_once unique (event_id, endpoint_id)
    );
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
    create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id);
    `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    drop table webhook_deliveries;
    drop table webhook_events;
    drop table webhook_endpoints;
    `,
  );
}
