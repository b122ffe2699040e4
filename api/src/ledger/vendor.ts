import type { Knex } from 'knex';
import { vendorAccountId } from './accounts.ts';
import { CreditNotZero } from './errors.ts';
import { vendorAccountSummary } from './queries.ts';

/**
 * Money must not vanish with a vendor: runs `remove` (the vendor's soft delete, or anonymisation) only while their
 * credit is zero, in one transaction that holds the vendor's row (no sale is booked meanwhile, see
 * holdLiveVendor) and their account row (no payout or reversal changes the credit meanwhile).
 */
export async function removeVendorWithoutCredit<T>(
  db: Knex,
  vendorId: number,
  remove: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (trx) => {
    await trx('vendors').where({ id: vendorId }).forNoKeyUpdate().first('id');
    await vendorAccountId(trx, vendorId, { lock: true });
    const { credit } = await vendorAccountSummary(trx, vendorId);
    if (credit !== 0) throw new CreditNotZero(credit);
    return remove(trx);
  });
}
