import type { Knex } from 'knex';

// The cash day as offices run it: a close covers the till's movements since the previous close, not
// a calendar day. Vendors still come after the evening's count, so cash keeps moving after a close and
// belongs to the next one; migration 014 refused every movement dated on or before a closed day, which
// locked the till until midnight.
//
// A close records the last movement it covers (`last_movement_id`, null while the till has none):
// the movements after the previous close's up to its own are what it counted. Closes from before
// this migration covered every movement dated on or before their day; the backfill says so. Closes
// stay final (014's guard), so it is switched off for the backfill alone.
//
// The cash book's guard now refuses a movement inside a closed period: dated on a day before the
// till's last close, or at a time before it, or with an id the close already covers (SQLSTATE CB001,
// as before). A booking stamped with its own transaction's time (now()) is not refused for that
// time alone: it may have waited for the till's lock while the close held it, and its id puts it
// after the close, into the next one. Covered movements stay final (no update, no delete); the
// backdating of 009/014 (the demo history, the tests) may not date a movement into a closed period.
//
// One close per till and day stays (014's `till_closes_once`): the day's close is the evening count,
// and what moves after it is counted in the next day's close.

// Whole statements, one each: the guard's body holds semicolons.
const statements = [
  `alter table till_closes add column last_movement_id bigint references cash_movements(id)`,
  `alter table till_closes disable trigger till_closes_guard`,
  `update till_closes c
     set last_movement_id = (select max(m.id) from cash_movements m where m.till_id = c.till_id and m.day <= c.day)`,
  `alter table till_closes enable trigger till_closes_guard`,
  `create or replace function cash_movements_guard() returns trigger language plpgsql as $$
   declare
     closed record;
   begin
     if tg_op = 'DELETE' then
       raise exception 'Cash movement % is booked and cannot be deleted; book a correction instead.', old.id
         using errcode = 'CB001';
     end if;
     -- the demo history dates its own new movements into the past, as it does its ledger rows (009)
     if tg_op = 'UPDATE' and not (ledger_backdating(old.created_at)
         and to_jsonb(new) - array['created_at', 'day'] = to_jsonb(old) - array['created_at', 'day']) then
       raise exception 'Cash movement % is booked and cannot be changed; book a correction instead.', old.id
         using errcode = 'CB001';
     end if;
     -- closes follow each other in time: the till's last one ends its closed periods
     select c.day, c.created_at, c.last_movement_id into closed
       from till_closes c where c.till_id = new.till_id order by c.day desc, c.id desc limit 1;
     if found and (new.day < closed.day
         or new.id <= closed.last_movement_id
         or (new.created_at < closed.created_at and (tg_op = 'UPDATE' or new.created_at <> now()))) then
       raise exception 'The cash book of till % is closed up to % (%); a movement dated % falls into a closed period. Book it now: it goes into the next close.',
         new.till_id, closed.day, closed.created_at, new.created_at using errcode = 'CB001';
     end if;
     return new;
   end
   $$`,
];

export async function up(knex: Knex): Promise<void> {
  for (const statement of statements) await knex.raw(statement);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
