import assert from 'node:assert/strict';
import { createDb } from '../../api/src/db/connection.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { mainItemOrder, placeOrder } from '../e2e/purchase.ts';
import { removeDir, seededCopy, startServer, tempDir, type RunningServer } from '../e2e/server.ts';

// an order paid just before a crash waited up to three minutes (the reconciliation job's
// grace and interval) before its receipt said "paid". The job now asks about recent pending orders
// right after the start.

describe('after a crash, a paid order whose webhook was lost is booked at the next start', function () {
  this.timeout(240_000);
  const dir = tempDir('reconcile-start-');
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    removeDir(dir);
  });

  it('books it within 10 seconds of the restart', async () => {
    // The first process refuses the sandbox's webhook (a secret that does not match) and its retry
    // is an hour away: the payment is made at Stripe, the shop does not hear of it, then it is killed.
    // It logs, among the rest the sandbox's failed delivery, which the test waits for.
    const refusing = {
      STRIPE_WEBHOOK_SECRET: 'whsec_not_the_sandbox',
      SANDBOX_WEBHOOK_RETRY_MS: '3600000',
      LOG_LEVEL: 'info',
    };
    // The demo already seeded: the restart is what this test watches, not the first start.
    await seededCopy(dir);
    const first = await startServer({ dataDir: dir, readyTimeoutMs: 180_000, env: refusing });
    servers.push(first);
    const { token, checkoutUrl } = await placeOrder(first.url, await mainItemOrder(first.url, 'DEMO-1', 100));
    await payInSandbox(first.url, checkoutUrl);
    const receipt = async (url: string) =>
      ((await (await fetch(`${url}/api/orders/${token}`)).json()) as { status: string }).status;
    await logged(first, '"msg":"sandbox webhook failed, will retry"');
    assert.equal(await receipt(first.url), 'pending', 'the webhook was refused, so the order still waits');
    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));

    // The default interval (a minute) and grace (three minutes) stay as they are: only the start counts.
    const env = { SANDBOX_WEBHOOK_RETRY_MS: '3600000' };
    const second = await startServer({ dataDir: dir, readyTimeoutMs: 180_000, env });
    servers.push(second);
    const ready = Date.now();
    let status = await receipt(second.url);
    while (status !== 'paid' && Date.now() - ready < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await receipt(second.url);
    }
    assert.equal(status, 'paid', 'the receipt says paid within 10 seconds of the restart');
    await second.stop();

    const db = createDb({ dataDir: dir });
    try {
      const order = await db('orders').where({ token }).first('id', 'amount_total');
      const rows: { amount: number }[] = await db('ledger_rows')
        .where({ order_id: order.id })
        .whereIn('kind', ['sale', 'tip'])
        .select('amount');
      const booked = rows.reduce((sum, r) => sum + r.amount, 0);
      assert.equal(booked, order.amount_total, 'the sale and the tip are booked once');
    } finally {
      await db.destroy();
    }
  });
});

/** Resolves once the server has printed `text` (its log goes to stdout). */
function logged(server: RunningServer, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!server.stdout().includes(text)) return;
      server.process.stdout?.off('data', check);
      server.process.off('exit', exited);
      resolve();
    };
    const exited = () => reject(new Error(`the server exited before it logged ${text}\n${server.stdout()}`));
    server.process.stdout?.on('data', check);
    server.process.once('exit', exited);
    check();
  });
}
