import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { readPublicSettings } from '../../api/src/settings/queries.ts';
import { currentShopData } from '../../api/src/shop/cache.ts';
import { salesStatistics } from '../../api/src/statistics/queries.ts';
import { describeApi } from '../support/env.ts';

// The reads that do not depend on each other (the shop's copy of settings and items, the public
// settings, the statistics) run side by side on a pool; in a transaction, whose one connection takes
// one query at a time, one after another. pg queues overlapping queries on one client with a
// deprecation warning and refuses them from version 9; the Stripe sandbox reads the shop's settings
// in its transaction, and the settings' change reads the public settings in its own.

/** The most queries of `trx` sent and not yet answered at one time while `read` runs, and its result. */
async function atOnce<T>(trx: Knex.Transaction, read: () => Promise<T>): Promise<{ most: number; result: T }> {
  let open = 0;
  let most = 0;
  const sent = () => (most = Math.max(most, ++open));
  const answered = () => open--;
  trx.on('query', sent).on('query-response', answered).on('query-error', answered);
  try {
    const result = await read();
    return { most, result };
  } finally {
    trx.off('query', sent).off('query-response', answered).off('query-error', answered);
  }
}

describeApi('independent reads', (t) => {
  const period = { from: new Date(Date.now() - 30 * 86_400_000), to: new Date(Date.now() + 86_400_000) };
  const reads: [string, (db: Knex | Knex.Transaction) => Promise<unknown>][] = [
    ['the shop’s settings and items', (db) => currentShopData(db)],
    ['the public settings', (db) => readPublicSettings(db, t.config)],
    ['the statistics', (db) => salesStatistics(db, period, 'Europe/Berlin')],
  ];
  for (const [name, read] of reads) {
    it(`reads ${name} one query at a time in a transaction, the same as on the pool`, async () => {
      const onPool = await read(t.db);
      const { most, result } = await t.db.transaction((trx) => atOnce(trx, () => read(trx)));
      assert.equal(most, 1);
      assert.deepEqual(result, onPool);
    });
  }
});
