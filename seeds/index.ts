import type { Db } from '../api/src/db/connection.ts';
import { seedDemo } from './demo.ts';
import { seedSalesHistory, type HistoryOptions } from './history.ts';

/**
 * Seeds the demo newspaper exactly once per database: the marker row and the demo data commit
 * together, so a crash halfway leaves nothing and a later start (or a second process) skips it.
 * With `history`, the demo's weeks of sales and payouts are booked in the same transaction.
 */
export async function seedOnFirstStart(db: Db, history?: HistoryOptions): Promise<boolean> {
  return db.transaction(async (trx) => {
    const inserted = await trx('system_state')
      .insert({ key: 'demo_seeded', value: JSON.stringify({ at: new Date().toISOString() }) })
      .onConflict('key')
      .ignore()
      .returning('key');
    if (inserted.length === 0) return false;
    await seedDemo(trx);
    if (history) await seedSalesHistory(trx, history);
    return true;
  });
}
