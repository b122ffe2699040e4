import type { Knex } from 'knex';
import { toIso } from '../vendors/queries.ts';
import { vendorAccountId } from './accounts.ts';

type Db = Knex | Knex.Transaction;

export interface VendorAccountSummary {
  /** Open rows received minus open rows sent, in cents: what the next payout pays. */
  credit: number;
  lastPayout: { amount: number; at: string } | null;
  /** Open rows the vendor received (sales, tips, fee covers not yet paid out). */
  openPayments: number;
}

/** A vendor's money as the back office and the vendor's own page show it. */
export async function vendorAccountSummary(db: Db, vendorId: number): Promise<VendorAccountSummary> {
  const account = await vendorAccountId(db, vendorId);
  if (account === undefined) return { credit: 0, lastPayout: null, openPayments: 0 };
  const open = await db('ledger_rows')
    .whereNull('payout_id')
    .where((q) => q.where('receiver_id', account).orWhere('sender_id', account))
    .first(
      db.raw('coalesce(sum(case when receiver_id = ? then amount else -amount end), 0)::bigint as credit', [account]),
      db.raw('(count(*) filter (where receiver_id = ?))::integer as open_payments', [account]),
    );
  const payout = await db('ledger_rows')
    .where({ sender_id: account, kind: 'payout' })
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .first('amount', 'created_at');
  return {
    credit: open.credit,
    lastPayout: payout ? { amount: payout.amount, at: toIso(payout.created_at)! } : null,
    openPayments: open.open_payments,
  };
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
  const { rows } = (await db.raw(`
    select a.id, a.kind, a.vendor_id,
      (coalesce((select sum(amount) from ledger_rows where receiver_id = a.id), 0)
       - coalesce((select sum(amount) from ledger_rows where sender_id = a.id), 0))::bigint as balance
    from ledger_accounts a order by a.id
  `)) as { rows: { id: number; kind: string; vendor_id: number | null; balance: number }[] };
  return rows.map((r) => ({ accountId: r.id, kind: r.kind, vendorId: r.vendor_id, balance: r.balance }));
}
