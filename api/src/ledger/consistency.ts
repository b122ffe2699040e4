import type { Knex } from 'knex';
import { oneRow } from '../foundations/one-row.ts';
import { accountBalances } from './queries.ts';

// The invariants of the books, read back from the rows (read only). The constraints and the ledger
// guard keep them while one process writes; these queries are what tells, after the fact, whether
// something outside them (two processes on one embedded data directory, a restored copy, a hand
// edit) broke them. Each answers the problems it found, in words an office can act on.

type Db = Knex | Knex.Transaction;

/** Every booking moves money between two accounts, so all balances together are zero. */
async function balancesSumToZero(db: Db): Promise<string[]> {
  const total = (await accountBalances(db)).reduce((sum, account) => sum + account.balance, 0);
  const { rows } = await db.raw<{ rows: { orphans: number }[] }>(`
    select count(*)::integer as orphans from ledger_rows r
    where not exists (select 1 from ledger_accounts a where a.id = r.sender_id)
       or not exists (select 1 from ledger_accounts a where a.id = r.receiver_id)
  `);
  const problems: string[] = [];
  if (total !== 0) problems.push(`The balances of all accounts sum to ${total} cents instead of 0.`);
  const orphans = oneRow(rows).orphans;
  if (orphans) problems.push(`${orphans} ledger rows name an account that does not exist.`);
  return problems;
}

/** A paid (or since refunded) order booked its sale and tip once; any other order booked nothing. */
async function paidOrdersBookedOnce(db: Db): Promise<string[]> {
  const { rows } = await db.raw<{
    rows: { id: number; status: string; amount_total: number; booked: number; rows: number }[];
  }>(`
    select o.id, o.status, o.amount_total, coalesce(b.booked, 0)::bigint as booked, coalesce(b.rows, 0)::integer as rows
    from orders o
    left join (
      select order_id, sum(amount) filter (where kind in ('sale', 'tip')) as booked, count(*) as rows
      from ledger_rows where order_id is not null group by order_id
    ) b on b.order_id = o.id
    where case when o.status in ('paid', 'refunded') then coalesce(b.booked, 0) <> o.amount_total
               else coalesce(b.rows, 0) > 0 end
    order by o.id
    limit 20
  `);
  return rows.map((o) =>
    o.status === 'paid' || o.status === 'refunded'
      ? `Order ${o.id} (${o.status}) is for ${o.amount_total} cents but its sale and tip book ${o.booked} cents.`
      : `Order ${o.id} is ${o.status} but has ${o.rows} ledger rows.`,
  );
}

/** A payout pays what it stamped: its cash row and the vendor's settled rows (received minus sent) equal its amount. */
async function payoutsEqualWhatTheyStamped(db: Db): Promise<string[]> {
  const { rows } = await db.raw<{
    rows: { id: number; receipt_number: string; amount: number; cash: number; settled: number }[];
  }>(`
    select p.id, p.receipt_number, p.amount,
      coalesce(s.cash, 0)::bigint as cash, coalesce(s.settled, 0)::bigint as settled
    from payouts p
    left join ledger_accounts a on a.vendor_id = p.vendor_id
    left join (
      select r.payout_id,
        sum(r.amount) filter (where r.kind = 'payout') as cash,
        sum(case when r.receiver_id = v.id then r.amount else -r.amount end)
          filter (where r.kind <> 'payout') as settled
      from ledger_rows r
      join payouts p2 on p2.id = r.payout_id
      left join ledger_accounts v on v.vendor_id = p2.vendor_id
      group by r.payout_id
    ) s on s.payout_id = p.id
    where p.amount <> coalesce(s.cash, 0) or p.amount <> coalesce(s.settled, 0)
    order by p.id
    limit 20
  `);
  return rows.map(
    (p) =>
      `Payout ${p.receipt_number} is for ${p.amount} cents, ` +
      `its cash row says ${p.cash} and the rows it settled ${p.settled}.`,
  );
}

/** Receipt numbers are what the office files: each once (counted from the table, not the unique index). */
async function receiptNumbersUnique(db: Db): Promise<string[]> {
  // The unique index would answer "each once" whatever the table holds; this reads the table.
  await db.raw(`select set_config('enable_indexscan', 'off', true), set_config('enable_indexonlyscan', 'off', true),
    set_config('enable_bitmapscan', 'off', true)`);
  const { rows } = await db.raw<{ rows: { receipt_number: string; times: number }[] }>(`
    select receipt_number, count(*)::integer as times from payouts
    group by 1 having count(*) > 1 order by 1 limit 20
  `);
  return rows.map((r) => `The receipt number ${r.receipt_number} was issued ${r.times} times.`);
}

/** The books' invariants, each with the problems it found (none when it holds); `db` must be a transaction. */
export async function checkBooks(db: Knex.Transaction): Promise<{ check: string; problems: string[] }[]> {
  const checks: [string, (db: Db) => Promise<string[]>][] = [
    ['balances sum to zero', balancesSumToZero],
    ['every paid order booked once', paidOrdersBookedOnce],
    ['payouts equal what they stamped', payoutsEqualWhatTheyStamped],
    ['receipt numbers unique', receiptNumbersUnique],
  ];
  const results = [];
  for (const [check, run] of checks) results.push({ check, problems: await run(db) });
  return results;
}
