import assert from 'node:assert/strict';
import { leaseServer } from './host.ts';
import { mainItemOrder, placeOrder } from './purchase.ts';
import { removeDir } from './server.ts';

// The e2e suites' one server process serves each suite a paper of its own: what one paper changed is
// not in the next, and a paper of other settings (another currency) is served by the same process.

describe('e2e: one server process serves each suite a paper of its own', function () {
  this.timeout(180_000);

  const currencyOf = async (url: string) =>
    ((await (await fetch(`${url}/api/settings/`)).json()) as { currency: string }).currency;

  it('serves a Swiss paper, then the demo again without it, in the same process, and stops each cleanly', async () => {
    const swiss = (await leaseServer({ env: { CURRENCY: 'CHF', COUNTRY: 'CH' } }))!;
    assert.ok(swiss, 'the host serves a paper of another currency');
    try {
      assert.equal(await currencyOf(swiss.url), 'CHF');
      assert.equal(await leaseServer({}), undefined, 'one suite at a time');
    } finally {
      assert.equal(await swiss.stop(), 0);
      removeDir(swiss.dataDir);
    }
    const next = (await leaseServer({}))!;
    try {
      assert.equal(next.process.pid, swiss.process.pid, 'the same process');
      assert.equal(next.url, swiss.url);
      assert.equal(await currencyOf(next.url), 'EUR', 'nothing of the Swiss paper is left');
    } finally {
      assert.equal(await next.stop(), 0);
      removeDir(next.dataDir);
    }
  });

  it('serves each suite of the seeded demo from its one kept copy, the demo loaded back: an order of one is not in the next', async () => {
    const first = (await leaseServer({}))!;
    let token: string;
    try {
      ({ token } = await placeOrder(first.url, await mainItemOrder(first.url, 'DEMO-1')));
      assert.equal((await fetch(`${first.url}/api/orders/${token}`)).status, 200, 'the order is there');
    } finally {
      assert.equal(await first.stop(), 0);
      removeDir(first.dataDir);
    }
    const next = (await leaseServer({}))!;
    try {
      assert.equal(next.dataDir, first.dataDir, 'the same kept copy');
      assert.equal((await fetch(`${next.url}/api/orders/${token}`)).status, 404, 'nothing of the order before');
      const again = await placeOrder(next.url, await mainItemOrder(next.url, 'DEMO-1'));
      assert.notEqual(again.token, token, 'a new order of its own');
    } finally {
      assert.equal(await next.stop(), 0);
      removeDir(next.dataDir);
    }
  });

  it('a lease whose start fails leaves the host to the next suite', async () => {
    await assert.rejects(leaseServer({ env: { CURRENCY: 'XYZ' } }), /CURRENCY/);
    const next = (await leaseServer({}))!;
    assert.ok(next, 'the host is lent again');
    assert.equal(await next.stop(), 0);
    removeDir(next.dataDir);
  });

  it('leaves a suite that needs a port or PostgreSQL to a server of its own', async () => {
    assert.equal(await leaseServer({ port: 1 }), undefined);
    assert.equal(await leaseServer({ databaseUrl: 'postgres://nobody@127.0.0.1/none' }), undefined);
    assert.equal(await leaseServer({ env: { TRUST_PROXY: '10.0.0.0/8' } }), undefined);
  });
});
