import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// What happens after a payment, and the local Stripe sandbox that takes payments without Stripe.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    -- PDF download links of paid digital editions. The id is the customer's secret (24 random bytes,
    -- base64url); the file is the PDF as it was when bought, so a new issue does not replace it.
    create table download_links (
      id text primary key check (id ~ '^[A-Za-z0-9_-]{32}$'),
      order_id integer not null references orders(id),
      item_id integer not null references items(id),
      file_id uuid not null references files(id),
      expires_at timestamptz not null,
      downloads integer not null default 0 check (downloads >= 0),
      last_download_at timestamptz,
      created_at timestamptz not null default now(),
      constraint download_links_once unique (order_id, item_id)
    );

    -- Mails to send after commit. 'queued' waits for SMTP (again at next_attempt_at), 'stored' stays
    -- for staff to read when no SMTP server is configured, 'failed' gave up after many attempts.
    create table outbox (
      id serial primary key,
      kind text not null check (kind ~ '^[a-z][a-z-]{0,49}$'),
      order_id integer references orders(id),
      recipient text not null check (recipient ~ '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$'),
      subject text not null check (length(subject) between 1 and 500),
      text text not null,
      status text not null default 'queued' check (status in ('queued', 'sent', 'stored', 'failed')),
      attempts integer not null default 0 check (attempts >= 0),
      next_attempt_at timestamptz not null default now(),
      last_error text,
      sent_at timestamptz,
      created_at timestamptz not null default now(),
      constraint outbox_sent_has_time check ((status = 'sent') = (sent_at is not null))
    );
    -- one mail of each kind per order, however often the order is settled
    create unique index outbox_once_per_order on outbox (order_id, kind) where order_id is not null;
    create index outbox_due on outbox (next_attempt_at) where status = 'queued';

    -- The local Stripe sandbox: Stripe's objects as JSON by id, and the answers to idempotency keys.
    create table stripe_sandbox_objects (
      id text primary key,
      type text not null,
      data jsonb not null check (jsonb_typeof(data) = 'object'),
      created_at timestamptz not null default now()
    );
    create index stripe_sandbox_objects_type on stripe_sandbox_objects (type, created_at);

    create table stripe_sandbox_requests (
      idempotency_key text primary key,
      fingerprint text not null,
      response jsonb,
      created_at timestamptz not null default now()
    );
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
