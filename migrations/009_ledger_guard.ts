import type { Knex } from 'knex';

// The books are append-only in the database itself, not only by habit of the code: a booked ledger
// row or payout can be neither deleted nor edited, whatever client, script or bug tries. The only
// changes that remain are the ones the counter makes (api/src/ledger/payout.ts): a payout stamps its
// id on the open rows it settled, and a reversal fills in the payout's reversal fields once.
//
// Refusals raise SQLSTATE LG001 ("ledger guard") so the API can map them to a 409 with the message.
//
// Backdating: the demo history and the tests book sales "in the past" through the real booking
// functions, which stamp now(). They may move created_at (and a payout's receipt number, which
// carries the year) of rows booked by the same transaction, after declaring it with
// `set local app.ledger_backdating = 'on'`. A row that was committed earlier keeps its time: its
// created_at is an earlier transaction's now(), so the setting cannot rewrite history.
//
// TRUNCATE fires no row trigger: emptying a whole test database stays possible.

// Whole functions are one statement each; runSql would split them at their inner semicolons.
const statements = [
  `create function ledger_backdating(old_created_at timestamptz) returns boolean language sql stable as $$
     select coalesce(current_setting('app.ledger_backdating', true), '') = 'on' and old_created_at = now()
   $$`,

  `create function ledger_rows_guard() returns trigger language plpgsql as $$
   begin
     if tg_op = 'DELETE' then
       raise exception 'Ledger row % is booked and cannot be deleted; book a correction instead.', old.id
         using errcode = 'LG001';
     end if;
     -- a payout settling an open row
     if old.payout_id is null and new.payout_id is not null
        and to_jsonb(new) - 'payout_id' = to_jsonb(old) - 'payout_id' then
       return new;
     end if;
     if ledger_backdating(old.created_at) and to_jsonb(new) - 'created_at' = to_jsonb(old) - 'created_at' then
       return new;
     end if;
     raise exception 'Ledger row % is booked and cannot be changed; book a correction instead.', old.id
       using errcode = 'LG001';
   end
   $$`,

  `create trigger ledger_rows_guard before update or delete on ledger_rows
     for each row execute function ledger_rows_guard()`,

  `create function payouts_guard() returns trigger language plpgsql as $$
   begin
     if tg_op = 'DELETE' then
       raise exception 'Payout % is booked and cannot be deleted; reverse it instead.', old.id
         using errcode = 'LG001';
     end if;
     -- the reversal, once (the table's check makes its three fields come together)
     if old.reversed_at is null
        and to_jsonb(new) - array['reversed_at', 'reversed_by', 'reversal_reason'] = to_jsonb(old) - array['reversed_at', 'reversed_by', 'reversal_reason'] then
       return new;
     end if;
     if ledger_backdating(old.created_at)
        and to_jsonb(new) - array['created_at', 'receipt_number'] = to_jsonb(old) - array['created_at', 'receipt_number'] then
       return new;
     end if;
     raise exception 'Payout % is booked and cannot be changed; reverse it instead.', old.id
       using errcode = 'LG001';
   end
   $$`,

  `create trigger payouts_guard before update or delete on payouts
     for each row execute function payouts_guard()`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of statements) await knex.raw(statement);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
