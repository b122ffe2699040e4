import type { Knex } from 'knex';
import { runSql } from './sql.ts';

// The counter: vendors buy copies at the counter price, paid from their credit or in
// cash, and every cash movement goes through a till's cash book, which is closed day by day.
//
// The cash book is append-only like the ledger (migration 009), and a closed day is final: the
// database refuses any movement dated on or before a till's last closed day (SQLSTATE CB001), so a
// correction is a new movement on an open day. Voucher numbers come from a counter row per till and
// year that is raised in the booking's own transaction: a booking that fails leaves no gap.
//
// The kind check is replaced, not added to: ledgerRowKinds is every kind a ledger row may have once
// this migration ran. A migration before this one that widens the check (013_stripe_lifecycle's
// dispute kinds) must have its kinds in this list too, or this one narrows the check again.
const ledgerRowKinds = [
  'sale',
  'tip',
  'licence',
  'fee',
  'fee_cover',
  'payout',
  'payout_reversal',
  'refund',
  'dispute',
  'dispute_fee',
  'dispute_won',
  'dispute_vendor',
  'counter_sale',
  'counter_cash',
] as const;

export async function up(knex: Knex): Promise<void> {
  await runSql(
    knex,
    `
    -- What a vendor pays the office per copy; null: not sold at the counter.
    alter table items add column counter_price integer check (counter_price >= 0);

    create table tills (
      id serial primary key,
      name text not null check (length(btrim(name)) between 1 and 100),
      opening_balance bigint not null default 0 check (opening_balance >= 0),
      created_at timestamptz not null default now()
    );
    create unique index tills_name_once on tills (lower(name));

    create table till_voucher_counters (
      till_id integer not null references tills(id),
      year integer not null check (year between 2000 and 9999),
      next integer not null check (next >= 1),
      primary key (till_id, year)
    );

    -- One counter visit: the copies a vendor took, how they paid, and the payout of the rest. The
    -- id comes from the screen, so a visit sent twice (two clicks, two staff, a retry) books once.
    create table counter_visits (
      id uuid primary key,
      vendor_id integer not null references vendors(id),
      till_id integer not null references tills(id),
      copies_amount bigint not null check (copies_amount >= 0),
      from_credit bigint not null check (from_credit >= 0),
      cash_paid bigint not null check (cash_paid >= 0),
      credit_before bigint not null,
      payout_id integer unique references payouts(id),
      staff text not null check (length(staff) between 1 and 200),
      created_at timestamptz not null default now(),
      constraint counter_visits_split check (from_credit + cash_paid = copies_amount)
    );
    create index counter_visits_created on counter_visits (created_at);
    create index counter_visits_vendor on counter_visits (vendor_id, created_at);

    alter table ledger_rows add column counter_visit_id uuid references counter_visits(id);
    create index ledger_rows_counter_visit on ledger_rows (counter_visit_id) where counter_visit_id is not null;
    create unique index ledger_rows_counter_item_once on ledger_rows (counter_visit_id, item_id) where kind = 'counter_sale';
    create unique index ledger_rows_counter_cash_once on ledger_rows (counter_visit_id) where kind = 'counter_cash';
    alter table ledger_rows drop constraint ledger_rows_kind_check;
    alter table ledger_rows add constraint ledger_rows_kind_check
      check (kind in (${ledgerRowKinds.map((kind) => `'${kind}'`).join(', ')}));
    alter table ledger_rows drop constraint ledger_rows_order_kinds;
    alter table ledger_rows add constraint ledger_rows_order_kinds
      check ((kind in ('payout', 'payout_reversal', 'counter_sale', 'counter_cash')) = (order_id is null));
    alter table ledger_rows drop constraint ledger_rows_payout_authorised;
    alter table ledger_rows add constraint ledger_rows_payout_authorised
      check (kind not in ('payout', 'payout_reversal', 'refund', 'counter_sale', 'counter_cash') or authorised_by is not null);
    alter table ledger_rows add constraint ledger_rows_counter_visit_kinds
      check ((kind in ('counter_sale', 'counter_cash')) = (counter_visit_id is not null));
    alter table ledger_rows add constraint ledger_rows_counter_sale_item
      check (kind <> 'counter_sale' or (item_id is not null and quantity is not null and unit_price is not null));

    -- The cash book: every cash movement of a till in order, amount signed (+ in, − out), the
    -- balance after it, a voucher number per till and year, the newspaper's local date.
    create table cash_movements (
      id bigserial primary key,
      till_id integer not null references tills(id),
      year integer not null,
      voucher_number integer not null check (voucher_number >= 1),
      day date not null,
      kind text not null check (kind in ('payout', 'payout_reversal', 'counter_cash', 'bank_deposit', 'bank_withdrawal',
                                         'expense', 'income', 'difference')),
      counterpart text not null check (counterpart in ('vendor', 'bank', 'other')),
      vendor_id integer references vendors(id),
      amount bigint not null check (amount <> 0),
      balance bigint not null check (balance >= 0),
      reason text not null default '' check (length(reason) <= 1000),
      staff text not null check (length(staff) between 1 and 200),
      ledger_row_id bigint unique references ledger_rows(id),
      counter_visit_id uuid references counter_visits(id),
      created_at timestamptz not null default now(),
      constraint cash_movements_voucher_once unique (till_id, year, voucher_number),
      constraint cash_movements_vendor_kinds
        check ((kind in ('payout', 'payout_reversal', 'counter_cash')) = (vendor_id is not null and ledger_row_id is not null)),
      constraint cash_movements_counterpart check (
        case kind when 'bank_deposit' then counterpart = 'bank' and amount < 0
                  when 'bank_withdrawal' then counterpart = 'bank' and amount > 0
                  when 'payout' then counterpart = 'vendor' and amount < 0
                  when 'payout_reversal' then counterpart = 'vendor' and amount > 0
                  when 'counter_cash' then counterpart = 'vendor' and amount > 0
                  when 'expense' then counterpart = 'other' and amount < 0
                  when 'income' then counterpart = 'other' and amount > 0
                  else counterpart = 'other' end),
      constraint cash_movements_reason check (kind not in ('expense', 'income', 'difference') or length(btrim(reason)) >= 1)
    );
    create index cash_movements_till on cash_movements (till_id, id);
    create index cash_movements_till_day on cash_movements (till_id, day);

    -- The daily close of a till: the count against the expected balance. One per till and day.
    create table till_closes (
      id serial primary key,
      till_id integer not null references tills(id),
      day date not null,
      opening_balance bigint not null,
      expected bigint not null,
      counted bigint not null check (counted >= 0),
      -- a plain column, not a generated one, so a backup restores it like any other
      difference bigint not null,
      denominations jsonb check (denominations is null or jsonb_typeof(denominations) = 'object'),
      reason text check (length(reason) <= 1000),
      staff text not null check (length(staff) between 1 and 200),
      -- the difference, booked once as its own movement just before the close
      difference_movement_id bigint unique references cash_movements(id),
      created_at timestamptz not null default now(),
      constraint till_closes_once unique (till_id, day),
      constraint till_closes_difference check (difference = counted - expected),
      constraint till_closes_difference_booked check ((counted = expected) = (difference_movement_id is null)),
      constraint till_closes_difference_has_reason check (counted = expected or length(btrim(reason)) >= 1)
    );
  `,
  );

  // Payouts go through a till. Existing payouts get a default till (created only when there are
  // any: a new database gets its till from the demo seed or the office). The column is added with a
  // default, which fills existing rows without an UPDATE the payouts guard would refuse.
  await knex.raw(`
    do $$
    declare default_till integer;
    begin
      if exists (select 1 from payouts) then
        insert into tills (name) values ('Kasse') returning id into default_till;
        execute format('alter table payouts add column till_id integer not null default %s references tills(id)', default_till);
        alter table payouts alter column till_id drop default;
      else
        alter table payouts add column till_id integer not null references tills(id);
      end if;
    end
    $$`);

  for (const statement of guards) await knex.raw(statement);
}

// Whole functions are one statement each; runSql would split them at their inner semicolons.
const guards = [
  `create function cash_movements_guard() returns trigger language plpgsql as $$
   begin
     if tg_op = 'INSERT' then
       if exists (select 1 from till_closes c where c.till_id = new.till_id and c.day >= new.day) then
         raise exception 'The cash book of till % is closed for % and every day before; book the movement on an open day.',
           new.till_id, new.day using errcode = 'CB001';
       end if;
       return new;
     end if;
     if tg_op = 'DELETE' then
       raise exception 'Cash movement % is booked and cannot be deleted; book a correction instead.', old.id
         using errcode = 'CB001';
     end if;
     -- the demo history dates its own new movements into the past, as it does its ledger rows (009)
     if ledger_backdating(old.created_at) and to_jsonb(new) - array['created_at', 'day'] = to_jsonb(old) - array['created_at', 'day'] then
       return new;
     end if;
     raise exception 'Cash movement % is booked and cannot be changed; book a correction instead.', old.id
       using errcode = 'CB001';
   end
   $$`,
  `create trigger cash_movements_guard before insert or update or delete on cash_movements
     for each row execute function cash_movements_guard()`,
  `create function till_closes_guard() returns trigger language plpgsql as $$
   begin
     raise exception 'The close % is final and cannot be changed.', old.id using errcode = 'CB001';
   end
   $$`,
  `create trigger till_closes_guard before update or delete on till_closes
     for each row execute function till_closes_guard()`,
];

export async function down(): Promise<void> {
  throw new Error('migrations are forward only');
}
