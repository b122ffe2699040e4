import type { Knex } from 'knex';
import { entryDirectionSql, feeCoveredSql } from './book.ts';

// Set-based twins of orderEntryRows, bookOrder, bookFee and payOut (with its cash-book movement), for histories too long to book
// one order at a time (the books bench: two million rows). They apply the same rules (the SQL forms
// of the entry split, the direction of each entry and the fee cover come from book.ts), and a test
// (tests/api/ledger-bulk.test.ts) shows that they book the same rows as the functions for the same
// orders. Table names are trusted identifiers from the caller's code, never input.

/**
 * Stores the entries of orders as orderEntryRows does, for `lines`, a table of (order_id, item_id,
 * quantity): a sale per line at the item's price, the licence share per licence item for all the
 * copies of the order that need it, and the order's tip.
 */
export async function insertOrderEntriesInBulk(trx: Knex.Transaction, lines: string): Promise<void> {
  await trx.raw(`insert into order_entries (order_id, kind, item_id, quantity, unit_price, amount)
    select l.order_id, 'sale', i.id, l.quantity, i.price, l.quantity * i.price
    from ${lines} l join items i on i.id = l.item_id
    union all
    select l.order_id, 'licence', li.id, sum(l.quantity)::integer, li.price, sum(l.quantity)::integer * li.price
    from ${lines} l join items i on i.id = l.item_id join items li on li.id = i.license_item_id
    group by l.order_id, li.id, li.price
    union all
    select o.id, 'tip', null, null, null, o.tip
    from orders o where o.tip > 0 and o.id in (select order_id from ${lines})`);
}

export interface BulkBooking {
  /**
   * A table of paid orders to book, one row each: `order_id`, `payout_id` (the payout that settled
   * it, null while open) and `payout_at`. The rows are dated at the order's `paid_at`.
   */
  plan: string;
  authorisedBy: string;
  /** The newspaper's time zone: a receipt number carries the local year of its payout. */
  timeZone: string;
}

/** Books paid orders, their fees and covers, and the payouts that settled them, set-based. */
export async function bookPaidOrdersInBulk(trx: Knex.Transaction, booking: BulkBooking): Promise<void> {
  const { plan, authorisedBy, timeZone } = booking;
  const run = (sql: string, bindings: Knex.RawBinding[] = []) => trx.raw(sql, bindings);
  await run(`insert into ledger_accounts (kind)
    values ('customers'), ('orga'), ('cash'), ('provider') on conflict do nothing`);
  await run(`insert into ledger_accounts (kind, vendor_id)
    select distinct 'vendor', o.vendor_id from ${plan} p join orders o on o.id = p.order_id
    order by 2 on conflict do nothing`);
  await run(`create temporary table bulk_system on commit drop as select
    (select id from ledger_accounts where kind = 'customers' and vendor_id is null) as customers,
    (select id from ledger_accounts where kind = 'orga' and vendor_id is null) as orga,
    (select id from ledger_accounts where kind = 'provider' and vendor_id is null) as provider,
    (select id from ledger_accounts where kind = 'cash' and vendor_id is null) as cash`);
  const direction = entryDirectionSql('e.kind', { vendor: 'va.id', orga: 's.orga', customers: 's.customers' });
  const from = `from ${plan} p join orders o on o.id = p.order_id
    join ledger_accounts va on va.vendor_id = o.vendor_id cross join bulk_system s`;
  // Staged first: the ledger guard (migration 009) refuses editing a payout once booked, so each
  // payout is inserted with its final amount, computed from the rows it settles, before them.
  await run(`create temporary table bulk_staged on commit drop as
    select ${direction.sender} as sender_id, ${direction.receiver} as receiver_id, e.amount, e.kind,
      e.order_id, e.id as order_entry_id, e.item_id, e.quantity, e.unit_price, p.payout_id,
      o.paid_at as created_at, va.id as vendor_account, o.vendor_id, p.payout_at
    ${from} join order_entries e on e.order_id = o.id
    where e.amount > 0
    union all
    select va.id, s.provider, o.fee, 'fee', o.id, null, null, null, null, p.payout_id,
      o.paid_at, va.id, o.vendor_id, p.payout_at
    ${from} where o.fee > 0
    union all
    select s.orga, va.id, o.fee, 'fee_cover', o.id, null, null, null, null, p.payout_id,
      o.paid_at, va.id, o.vendor_id, p.payout_at
    ${from} where o.fee > 0 and ${feeCoveredSql('o.id')}`);
  await run('analyze bulk_staged');
  await run(
    `insert into payouts (id, receipt_number, vendor_id, amount, authorised_by, created_at, till_id)
    select r.payout_id,
      to_char(min(r.payout_at) at time zone ?, 'YYYY') || '-' || lpad(r.payout_id::text, 6, '0'),
      min(r.vendor_id), sum(case when r.receiver_id = r.vendor_account then r.amount else -r.amount end), ?,
      min(r.payout_at), (select min(id) from tills)
    from bulk_staged r where r.payout_id is not null group by r.payout_id order by r.payout_id`,
    [timeZone, authorisedBy],
  );
  await run(`select setval(pg_get_serial_sequence('payouts', 'id'), greatest((select max(id) from payouts), 1))`);
  const columns =
    'sender_id, receiver_id, amount, kind, order_id, order_entry_id, item_id, quantity, unit_price, ' +
    'payout_id, created_at';
  await run(`insert into ledger_rows (${columns}) select ${columns} from bulk_staged order by created_at`);
  await run('analyze payouts');
  // Each payout's cash row, and what its cash-book movement needs, in one statement: read back
  // from ledger_rows, the new rows would be planned by statistics that do not know them yet (an
  // estimate of one row, then a nested loop over the two million staged rows per payout).
  await run(
    `create temporary table bulk_movements (till_id integer, ledger_row_id bigint, vendor_id integer, amount bigint,
      staff text, created_at timestamptz, year integer, day date) on commit drop`,
  );
  await run(
    `with paid as (
      select p.id, p.till_id, p.vendor_id, p.amount, p.authorised_by, p.created_at, va.id as vendor_account
      from payouts p join ledger_accounts va on va.vendor_id = p.vendor_id
      where p.id in (select distinct payout_id from bulk_staged where payout_id is not null)),
    cash_rows as (
      insert into ledger_rows (sender_id, receiver_id, amount, kind, payout_id, authorised_by, created_at)
      select paid.vendor_account, s.cash, paid.amount, 'payout', paid.id, paid.authorised_by, paid.created_at
      from paid cross join bulk_system s order by paid.created_at
      returning id, payout_id)
    insert into bulk_movements
    select paid.till_id, c.id, paid.vendor_id, paid.amount, paid.authorised_by, paid.created_at,
      extract(year from paid.created_at at time zone ?)::integer, (paid.created_at at time zone ?)::date
    from cash_rows c join paid on paid.id = c.payout_id`,
    [timeZone, timeZone],
  );
  await run('analyze bulk_movements');
  await bookPayoutMovementsInBulk(trx);
}

/**
 * The cash-book movements of the payouts just booked, as payOut's bookMovement books
 * them one by one: cash out of the payout's till, dated on the newspaper's local day, numbered on
 * from the till's voucher counter of the year, each with the till's balance after it (refused by the
 * database when the till would hold less than nothing).
 *
 * Each till's balance before the first of them is read once, in a statement of its own: a look-up
 * per inserted row reads the till's newest movement through the index, and inside the insert that
 * index also holds every row the statement itself has inserted so far, each one invisible to it,
 * so every look-up steps over all of them (tens of thousands of payouts: hours). The running
 * balance is then one window sum over the till's movements in booking order.
 */
async function bookPayoutMovementsInBulk(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`create temporary table bulk_till_start on commit drop as
    select t.id as till_id, coalesce(last.balance, t.opening_balance) as balance
    from tills t left join lateral (
      select b.balance from cash_movements b where b.till_id = t.id order by b.id desc limit 1) last on true
    where t.id in (select till_id from bulk_movements)`);
  await trx.raw(
    `insert into cash_movements (till_id, year, voucher_number, day, kind, counterpart, vendor_id, amount, balance,
      staff, ledger_row_id, created_at)
    select m.till_id, m.year,
      coalesce(c.next, 1) - 1 + row_number() over (partition by m.till_id, m.year order by m.created_at, m.ledger_row_id),
      m.day, 'payout', 'vendor', m.vendor_id, -m.amount,
      s.balance - sum(m.amount) over (partition by m.till_id order by m.created_at, m.ledger_row_id
                                      rows between unbounded preceding and current row),
      m.staff, m.ledger_row_id, m.created_at
    from bulk_movements m
    join bulk_till_start s on s.till_id = m.till_id
    left join till_voucher_counters c on c.till_id = m.till_id and c.year = m.year
    order by m.created_at, m.ledger_row_id`,
  );
  await trx.raw(`insert into till_voucher_counters (till_id, year, next)
    select till_id, year, max(voucher_number) + 1 from cash_movements
    where (till_id, year) in (select till_id, year from bulk_movements) group by till_id, year
    on conflict (till_id, year) do update set next = excluded.next`);
}

export interface BulkTillDays {
  tillId: number;
  /** The till's balance before the first day (its opening balance when it is new). */
  startBalance: number;
  /** The first and the last local day, as YYYY-MM-DD; every day between gets the same movements. */
  from: string;
  to: string;
  /** Cents of each day's manual movements in their order: + income, − expense. */
  perDay: number[];
  staff: string;
}

/**
 * A till's cash book over many days, set-based: each day's movements with gap-free vouchers per
 * year and the running balance, the till's voucher counters raised past them, and every day before
 * `to` closed with the counted balance it expected (the books bench's year of a till). Like
 * bookManualMovement and closeDay for each movement and day, for a new till with no movement yet.
 */
export async function bookTillDaysInBulk(trx: Knex.Transaction, days: BulkTillDays): Promise<void> {
  const moves = days.perDay.map((amount, n) => `(${n + 1}, ${Math.trunc(amount)})`).join(', ');
  await trx.raw(
    `insert into cash_movements (till_id, year, voucher_number, day, kind, counterpart, amount, balance, reason, staff,
       created_at)
     select ?, extract(year from d)::integer, row_number() over (partition by extract(year from d) order by d, n),
       d, case when a < 0 then 'expense' else 'income' end, 'other', a,
       ? + sum(a) over (order by d, n rows between unbounded preceding and current row), 'Bulk', ?,
       d + interval '9 hours' + n * interval '1 hour'
     from generate_series(?::date, ?::date, interval '1 day') as days (d)
     cross join lateral (values ${moves}) as m (n, a)
     order by d, n`,
    [days.tillId, days.startBalance, days.staff, days.from, days.to],
  );
  await trx.raw(
    `insert into till_voucher_counters (till_id, year, next)
     select till_id, year, max(voucher_number) + 1 from cash_movements where till_id = ? group by till_id, year`,
    [days.tillId],
  );
  await trx.raw(
    `insert into till_closes (till_id, day, opening_balance, expected, counted, difference, staff, created_at,
       last_movement_id)
     select till_id, day, (array_agg(balance - amount order by id))[1], (array_agg(balance order by id desc))[1],
       (array_agg(balance order by id desc))[1], 0, ?, day + interval '20 hours', max(id)
     from cash_movements where till_id = ? and day < ? group by till_id, day`,
    [days.staff, days.tillId, days.to],
  );
}
