import type { Knex } from 'knex';
import { VendorDeleted } from './errors.ts';

type Db = Knex | Knex.Transaction;

const systemAccounts = ['customers', 'orga', 'cash', 'provider'] as const;
type SystemAccount = (typeof systemAccounts)[number];

/** Account ids by role for one booking: the system accounts and the vendor's own. */
export type AccountIds = Record<SystemAccount | 'vendor', number>;

/**
 * The accounts a booking for `vendorExpr` (a trusted SQL expression) touches, as one JSON object kind
 * → id: the system accounts and the vendor's own. A booking that reads more at once takes it into
 * its own statement and completes it with completeAccountIds.
 */
export const accountsJsonSql = (vendorExpr: string) =>
  `(select json_object_agg(a.kind, a.id) from ledger_accounts a where a.vendor_id is null or a.vendor_id = ${vendorExpr})`;

type ReadAccounts = Partial<AccountIds> | null;

const isComplete = (read: ReadAccounts): read is AccountIds =>
  read !== null && [...systemAccounts, 'vendor' as const].every((kind) => typeof read[kind] === 'number');

async function readAccounts(trx: Knex.Transaction, vendorId: number): Promise<ReadAccounts> {
  const { rows } = await trx.raw<{ rows: { accounts: ReadAccounts }[] }>(`select ${accountsJsonSql('?')} as accounts`, [
    vendorId,
  ]);
  return rows[0]?.accounts ?? null;
}

/** The accounts a booking for `vendorId` touches, created on first use inside the caller's transaction. */
export async function accountIds(trx: Knex.Transaction, vendorId: number): Promise<AccountIds> {
  return completeAccountIds(trx, vendorId, await readAccounts(trx, vendorId));
}

/**
 * The accounts as `read` with accountsJsonSql in the caller's transaction, the missing ones created.
 * The unique indexes decide between two transactions creating the same account: the loser waits for
 * the winner's commit, inserts nothing, and reads the winner's row.
 */
export async function completeAccountIds(
  trx: Knex.Transaction,
  vendorId: number,
  read: ReadAccounts,
): Promise<AccountIds> {
  if (isComplete(read)) return read;
  await trx.raw(
    `insert into ledger_accounts (kind, vendor_id) values ${systemAccounts.map(() => '(?, null)').join(', ')}, ('vendor', ?) on conflict do nothing`,
    [...systemAccounts, vendorId],
  );
  return (await readAccounts(trx, vendorId)) as AccountIds;
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
