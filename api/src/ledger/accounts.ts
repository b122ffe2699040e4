import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

const systemAccounts = ['customers', 'orga', 'cash', 'provider'] as const;
type SystemAccount = (typeof systemAccounts)[number];

/** Account ids by role for one booking: the system accounts and the vendor's own. */
export type AccountIds = Record<SystemAccount | 'vendor', number>;

function findAccounts(db: Db, vendorId: number) {
  return db('ledger_accounts')
    .where((q) => {
      q.whereNull('vendor_id').orWhere('vendor_id', vendorId);
    })
    .select<{ id: number; kind: SystemAccount | 'vendor' }[]>('id', 'kind');
}

/**
 * The accounts a booking for `vendorId` touches, created on first use inside the caller's
 * transaction. The unique indexes decide between two transactions creating the same account: the
 * loser waits for the winner's commit, inserts nothing, and reads the winner's row.
 */
export async function accountIds(trx: Knex.Transaction, vendorId: number): Promise<AccountIds> {
  let rows = await findAccounts(trx, vendorId);
  if (rows.length < systemAccounts.length + 1) {
    await trx.raw(
      `insert into ledger_accounts (kind, vendor_id) values ${systemAccounts.map(() => '(?, null)').join(', ')}, ('vendor', ?) on conflict do nothing`,
      [...systemAccounts, vendorId],
    );
    rows = await findAccounts(trx, vendorId);
  }
  return Object.fromEntries(rows.map((row) => [row.kind, row.id])) as AccountIds;
}

/**
 * The vendor's account id, or undefined when no money has moved for the vendor yet. With `lock`,
 * the account row stays locked until the transaction ends: payouts and reversals of one vendor
 * queue on it, whichever server they run on.
 */
export async function vendorAccountId(db: Db, vendorId: number, { lock = false } = {}): Promise<number | undefined> {
  const query = db('ledger_accounts').where({ vendor_id: vendorId }).first<{ id: number } | undefined>('id');
  if (lock) query.forUpdate();
  return (await query)?.id;
}
