import assert from 'node:assert/strict';
import { benchBooks } from '../../bench/books.ts';
import type { Figure } from '../../bench/figures.ts';

// The bench parts on a tiny history, so that a route they call cannot change under them unseen: a
// part throws when a route it calls answers an error. Their figures are the bench's to judge, on
// the full history; here only that each part measures what it names.

/** Runs a part with its printed tables kept out of the test's output. */
async function quietly(part: () => Promise<Figure[]>): Promise<Figure[]> {
  const log = console.log;
  console.log = () => {};
  try {
    return await part();
  } finally {
    console.log = log;
  }
}

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
});
