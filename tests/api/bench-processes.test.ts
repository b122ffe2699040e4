import assert from 'node:assert/strict';
import { benchLoad } from '../../bench/load.ts';
import { benchPapers } from '../../bench/papers.ts';
import { benchPurchases } from '../../bench/purchases.ts';
import { assertMeasured, quietly } from '../support/bench.ts';

// The bench parts that start processes of their own (load generators, the real server, the Stripe
// sandbox), on a tiny run: each calls every route and process it measures once and throws when one
// answers an error. Their figures are the bench's to judge; here only that each is measured.

describe('bench parts with processes of their own, tiny', function () {
  // Each part starts a server, a sandbox and a load generator: on a busy machine that alone takes a minute.
  this.timeout(240_000);

  it('the load bench buys, loads each hot route and checks the books without an error', async () => {
    const figures = await quietly(() => benchLoad({ tiny: true }));
    assertMeasured(figures, [
      'ceiling: bare Koa, constant JSON req/s',
      'whole purchases, 2 customers',
      'whole purchase p99, 2 customers',
      'GET /api/vendors/check/DEMO-1/ req/s',
      'GET /api/items/ req/s',
      'GET /v/DEMO-1 (shop page) req/s',
      'GET /v/DEMO-1, brotli req/s',
      'GET /api/orders/:token (receipt) req/s',
      'POST /api/orders req/s',
      'failed requests of the single routes',
    ]);
    assert.ok(figures.some((figure) => /^paid orders not booked exactly once \(of [1-9]/.test(figure.name)));
  });

  it('the purchases bench buys through the real server and the sandbox and stops with a receipt waiting', async () => {
    const figures = await quietly(() => benchPurchases({ tiny: true }));
    assertMeasured(figures, [
      'whole purchases, 2 customers',
      'app CPU per purchase, 2 customers',
      'whole purchase p50, 2 customers',
      'stop with a receipt waiting',
      'paid shown to the waiting verify ask after a flood',
    ]);
    assert.ok(figures.some((figure) => /^paid orders not booked exactly once \(of [1-9]/.test(figure.name)));
  });

  // Many papers need PostgreSQL: without it the part says so and measures nothing.
  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'the papers bench adds two demo papers, serves them from one process and loads their hot paths and one paper’s',
    async () => {
      const figures = await quietly(() => benchPapers({ tiny: true }));
      assertMeasured(figures, [
        'memory per paper (resident)',
        'PostgreSQL connections per paper, at most during the start and the first requests',
        'GET /v/DEMO-1 (shop page), 2 papers vs one paper',
        'GET /api/vendors/check/DEMO-1/, 2 papers vs one paper',
        'GET /api/items/, 2 papers vs one paper',
      ]);
    },
  );
});
