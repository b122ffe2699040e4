import assert from 'node:assert/strict';
import { benchBooks } from '../../bench/books.ts';
import { benchMigrate } from '../../bench/migrate.ts';
import { seedSalesHistory } from '../../seeds/history.ts';
import { assertMeasured, quietly } from '../support/bench.ts';
import { engine } from '../support/env.ts';
import { resetDatabase } from '../support/reset.ts';

// The bench parts on a tiny history, so that a route they call cannot change under them unseen: a
// part throws when a route it calls answers an error. Their figures are the bench's to judge, on
// the full history; here only that each part measures what it names.

describe('bench parts on a tiny history', function () {
  this.timeout(120_000);

  it('the books bench calls every back-office route it measures without an error and measures each', async () => {
    const figures = await quietly(() => benchBooks({ tiny: true }));
    const names = figures.map((figure) => figure.name);
    for (const name of [
      'DATEV, one month, median',
      'trial balance, one year, median',
      'Stripe reconciliation, one month, median',
      "every vendor's statements of a year (CSV), median",
      'statistics, one year, longest event-loop block',
    ])
      assert.ok(names.includes(name), `${name} among ${names.join('; ')}`);
    for (const figure of figures) assert.ok(Number.isFinite(figure.value), `${figure.name}: ${figure.value}`);
  });

  it('the migration bench brings a copy of a history from before the counter to the latest migration', async () => {
    // The demo's weeks of sales and payouts in the tests' database (PGlite): the history copied.
    const { db } = await engine('pglite');
    await resetDatabase(db);
    try {
      await db.transaction((trx) => seedSalesHistory(trx, { now: new Date(), timeZone: 'Europe/Berlin' }));
      const figures = await quietly(() => benchMigrate({ tiny: true, db }));
      assert.equal(figures.length, 1);
      assert.match(figures[0].name, /^from 013_\w+ to \d{3}_\w+, a tiny history$/);
      assertMeasured(figures, []);
      // The tests' own schema is where it was, with its history.
      assert.ok(Number((await db('ledger_rows').count({ n: '*' }))[0].n) > 0);
    } finally {
      await resetDatabase(db);
    }
  });
});
