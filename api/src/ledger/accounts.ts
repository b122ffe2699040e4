import type { Knex } from 'knex';
import { VendorDeleted } from './errors.ts';

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

/** The accounts of `vendorExpr` (a trusted SQL expression) as one JSON object, kind → id, for a read that fetches more. */
export const accountsJsonSql = (vendorExpr: string) =>
  `(select json_object_agg(a.kind, a.id) from ledger_accounts a where a.vendor_id is null or a.vendor_id = ${vendorExpr})`;

/** The accounts as read with accountsJsonSql when that found them all; else read or created as accountIds does. */
export async function completeAccountIds(
  trx: Knex.Transaction,
  vendorId: number,
  read: Partial<AccountIds> | null,
): Promise<AccountIds> {
  const all = read && [...systemAccounts, 'vendor' as const].every((kind) => typeof read[kind] === 'number');
  return all ? (read as AccountIds) : accountIds(trx, vendorId);
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

// Lock order for a vendor's money: the vendor's row first, then the account row. Booking a sale takes
// the vendor's row in share mode (sales of one vendor do not wait for each other), deleting the vendor
// takes it exclusively (FOR NO KEY UPDATE, which the foreign-key checks of a payout do not wait for),
// so a sale and a deletion of the same vendor always run one after the other.

/** Holds the vendor's row against deletion until the transaction ends; refuses a deleted vendor. */
export async function holdLiveVendor(trx: Knex.Transaction, vendorId: number): Promise<void> {
  const vendor = await trx('vendors')
    .where({ id: vendorId })
    .forShare()
    .first<{ deleted_at: Date | null } | undefined>('deleted_at');
  if (!vendor || vendor.deleted_at !== null) throw new VendorDeleted(vendorId);
}
