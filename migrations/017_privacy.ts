import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// Privacy: a vendor can be anonymised, and customers' e-mail addresses are erased some time
// after their download links expire.
//
// - An anonymised vendor keeps their row, because the ledger and the payouts must point at someone for
//   ten years (§147 AO); the row keeps only the pseudonym in first_name. The licence id becomes null,
//   so it is free for a new vendor (the live-vendor index ignores nulls anyway), and only an anonymised
//   vendor may lack one.
// - A mail in the outbox may lose its recipient once it is no longer waiting to be sent.
// - Orders still holding an e-mail address are found by the erasure job through a partial index.
export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    alter table vendors add column anonymised_at timestamptz;
    alter table vendors alter column license_id drop not null;
    alter table vendors add constraint vendors_license_id_unless_anonymised
      check ((license_id is null) = (anonymised_at is not null));
    alter table vendors add constraint vendors_anonymised_is_deleted
      check (anonymised_at is null or deleted_at is not null);

    alter table outbox alter column recipient drop not null;
    alter table outbox add constraint outbox_queued_has_recipient check (status <> 'queued' or recipient is not null);

    create index orders_with_email on orders (id) where email is not null;
  `,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
