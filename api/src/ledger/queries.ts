import type { Knex } from 'knex';
import { payoutVoucherSql } from './vouchers.ts';

type Db = Knex | Knex.Transaction;

/** A timestamp as the API answers it; the ledger stays free of the other domains' modules. */
const iso = (value: Date | string) => new Date(value).toISOString();

export interface VendorAccountSummary {
  /** Open rows received minus open rows sent, in cents: what the next payout pays; negative is a debt. */
  credit: number;
  /** The latest payout that was not reversed; one vendor's summary names its voucher (ledger/vouchers.ts). */
  lastPayout: { amount: number; at: string; voucher?: string } | null;
  /** Open rows the vendor received (sales, tips, fee covers, reversed payouts not yet paid out). */
  openPayments: number;
}

/** The columns `withVendorMoney` adds to a query. */
export interface VendorMoneyColumns {
  credit: number;
  open_payments: number;
  last_payout_amount: number | null;
  last_payout_at: Date | string | null;
}

// A vendor's credit has ONE definition, `openSignedRows`: the rows not yet settled by a payout, each
// signed from the account's side (+ received, − sent); the credit is their sum. The vendor list and
// answer, /api/vendors/me, vendor deletion (through `withVendorMoney`), the forpayout page and the
// payout itself (through `openRows` and `openCredit`) and the office's total (`openCreditTotal`) all
// read it, so they cannot disagree. It is computed where it is asked for, never stored, so it cannot
// drift from the ledger. Each branch of the union reads one of the open-row partial indexes.
const openSignedRows = (accountId: string) => `
  select id, amount as signed from ledger_rows where receiver_id = ${accountId} and payout_id is null
  union all
  select id, -amount from ledger_rows where sender_id = ${accountId} and payout_id is null`;

// An aggregate without GROUP BY always answers one row, so a vendor without an account gets 0.
// Reversed payouts are no payouts any more: the last payout is the latest one still standing.
const vendorMoneyJoins = (vendorId: string) => `
  left join lateral (
    select coalesce(sum(o.signed), 0)::bigint as credit, (count(*) filter (where o.signed > 0))::integer as open_payments
    from ledger_accounts money_account
    cross join lateral (${openSignedRows('money_account.id')}) o
    where money_account.vendor_id = ${vendorId}
  ) money on true
  left join lateral (
    select p.amount as last_payout_amount, p.created_at as last_payout_at
    from payouts p
    where p.vendor_id = ${vendorId} and p.reversed_at is null
    order by p.created_at desc, p.id desc
    limit 1
  ) last_payout on true`;

/** The open credit of an account and the ids of the rows that make it, read in one statement. */
export async function openCredit(db: Db, accountId: number): Promise<{ credit: number; rowIds: number[] }> {
  const { rows } = await db.raw<{ rows: { credit: number | string; ids: number[] }[] }>(
    `select coalesce(sum(o.signed), 0)::bigint as credit, coalesce(array_agg(o.id), '{}') as ids
     from (${openSignedRows('?')}) o`,
    [accountId, accountId],
  );
  // An aggregate without GROUP BY answers exactly one row.
  const row = rows[0];
  return { credit: Number(row?.credit ?? 0), rowIds: row?.ids ?? [] };
}

/**
 * What the office owes its vendors now, summed set-based over every vendor account in one statement:
 * how many vendors have credit, and its sum. A debt lowers neither: it is the vendor's to pay off with
 * their next sales, not money the office can hold back from another vendor.
 */
export async function openCreditTotal(db: Db): Promise<{ vendors: number; amount: number }> {
  // An account without open rows has no row in `c`; each account reads the open-row indexes once.
  const { rows } = await db.raw<{ rows: { vendors: number; amount: number | string }[] }>(`
    select count(*)::integer as vendors, coalesce(sum(c.credit), 0)::bigint as amount from (
      select a.id, sum(o.signed) as credit
      from ledger_accounts a
      cross join lateral (${openSignedRows('a.id')}) o
      where a.kind = 'vendor'
      group by a.id
    ) c where c.credit > 0`);
  // An aggregate without GROUP BY answers exactly one row.
  const row = rows[0];
  return { vendors: row?.vendors ?? 0, amount: Number(row?.amount ?? 0) };
}

/**
 * Adds the vendor's credit, open payments and last payout to a query that has the vendor's id in
 * `vendorIdColumn` (a trusted column name, never input). `money.credit` can then be sorted and
 * filtered on like any column.
 */
export function withVendorMoney(query: Knex.QueryBuilder, vendorIdColumn: string): Knex.QueryBuilder {
  return query
    .joinRaw(vendorMoneyJoins(vendorIdColumn))
    .select('money.credit', 'money.open_payments', 'last_payout.last_payout_amount', 'last_payout.last_payout_at');
}

export function vendorMoneyToApi(row: VendorMoneyColumns): VendorAccountSummary {
  return {
    credit: row.credit,
    lastPayout:
      row.last_payout_amount === null || row.last_payout_at === null
        ? null
        : { amount: row.last_payout_amount, at: iso(row.last_payout_at) },
    openPayments: row.open_payments,
  };
}

/** A vendor's money as the back office and the vendor's own page show it. */
export async function vendorAccountSummary(db: Db, vendorId: number): Promise<VendorAccountSummary> {
  const row = await withVendorMoney(
    db.from(db.raw('(select ?::integer as id) v', [vendorId])),
    'v.id',
  ).first<VendorMoneyColumns>();
  const summary = vendorMoneyToApi(row);
  if (summary.lastPayout) {
    // The same payout as the lateral join's: the latest one still standing.
    const last = await db('payouts as p')
      .where({ vendor_id: vendorId })
      .whereNull('reversed_at')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first<{ voucher: string } | undefined>(db.raw(`${payoutVoucherSql('p')} as voucher`));
    if (last) summary.lastPayout.voucher = last.voucher;
  }
  return summary;
}

/** One ledger row as a vendor's account sees it: amount always positive, `sign` +1 received, -1 sent. */
export interface VendorLedgerRow {
  id: number;
  createdAt: string;
  kind: string;
  itemId: number | null;
  itemName: string | null;
  quantity: number | null;
  amount: number;
  sign: 1 | -1;
}

/** The rows that moved money into or out of `accountId`, with their item names; callers narrow and order. */
export function accountRows(db: Db, accountId: number): Knex.QueryBuilder {
  return db('ledger_rows as r')
    .leftJoin('items as i', 'i.id', 'r.item_id')
    .where((q) => {
      q.where('r.receiver_id', accountId).orWhere('r.sender_id', accountId);
    })
    .select(
      'r.id',
      'r.created_at',
      'r.kind',
      'r.item_id',
      'i.name as item_name',
      'r.quantity',
      'r.amount',
      'r.payout_id',
      db.raw('(case when r.receiver_id = ? then 1 else -1 end)::integer as sign', [accountId]),
    );
}

/** A row of `accountRows`. */
export interface AccountRow {
  id: number;
  created_at: Date | string;
  kind: string;
  item_id: number | null;
  item_name: string | null;
  quantity: number | null;
  amount: number;
  sign: 1 | -1;
  payout_id: number | null;
}

export function accountRowToApi(row: AccountRow): VendorLedgerRow {
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    kind: row.kind,
    itemId: row.item_id,
    itemName: row.item_name,
    quantity: row.quantity,
    amount: row.amount,
    sign: row.sign,
  };
}

/** Every open row of an account, oldest first: what the next payout settles, as the forpayout page lists it. */
export const openRows = (db: Db, accountId: number) =>
  accountRows(db, accountId)
    .joinRaw(`join (${openSignedRows('?')}) open_row on open_row.id = r.id`, [accountId, accountId])
    .orderBy('r.created_at')
    .orderBy('r.id');

/**
 * Every account's figures around a period, as a query to join on `account_id`: `opening` (everything
 * received minus everything sent before `from`), and what it `received` and `sent` from `from` until
 * before `to` ('-infinity' and 'infinity' leave an end open). Each side is one pass over the rows
 * before `to`, grouped by the account that received or sent them.
 */
export function accountTurnovers(db: Db, from: Date | string, to: Date | string): Knex.Raw {
  const side = (column: 'receiver_id' | 'sender_id') => `
    select ${column} as account_id,
      sum(amount) filter (where created_at < ?::timestamptz) as before,
      sum(amount) filter (where created_at >= ?::timestamptz) as within
    from ledger_rows where created_at < ?::timestamptz group by ${column}`;
  return db.raw(
    `with received as (${side('receiver_id')}), sent as (${side('sender_id')})
    select a.id as account_id,
      (coalesce(r.before, 0) - coalesce(s.before, 0))::bigint as opening,
      coalesce(r.within, 0)::bigint as received,
      coalesce(s.within, 0)::bigint as sent
    from ledger_accounts a
    left join received r on r.account_id = a.id
    left join sent s on s.account_id = a.id`,
    [from, from, to, from, from, to],
  );
}

export interface AccountBalance {
  accountId: number;
  kind: string;
  vendorId: number | null;
  /** Everything received minus everything sent, paid out or not. */
  balance: number;
}

/** Every account's balance; double entry makes their sum zero. */
export async function accountBalances(db: Db): Promise<AccountBalance[]> {
  const { rows } = await db.raw<{ rows: { id: number; kind: string; vendor_id: number | null; balance: number }[] }>(`
    select a.id, a.kind, a.vendor_id,
      (coalesce((select sum(amount) from ledger_rows where receiver_id = a.id), 0)
       - coalesce((select sum(amount) from ledger_rows where sender_id = a.id), 0))::bigint as balance
    from ledger_accounts a order by a.id
  `);
  return rows.map((r) => ({ accountId: r.id, kind: r.kind, vendorId: r.vendor_id, balance: r.balance }));
}
