import assert from 'node:assert/strict';
import { startCluster, type Cluster } from '../support/processes.ts';

/**
 * two API processes on one PostgreSQL, each serving the settings,
 * the items and the shop page from its own copy. A change committed anywhere is in the very next
 * answer of either process, and the look-ups of a licence id, counted in each process without a
 * database write, still hold one client to the limit across both.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const suite = adminUrl ? describe : describe.skip;
const lookUpLimit = 40;

suite(`hot paths of two API processes${adminUrl ? '' : ' (skipped: needs TEST_DATABASE_URL)'}`, function () {
  this.timeout(60_000);
  let cluster: Cluster;

  const get = async (base: string, path: string) => {
    const response = await fetch(`${base}${path}`, { headers: { 'Accept-Language': 'de' } });
    return { status: response.status, text: await response.text() };
  };

  before(async function () {
    cluster = await startCluster(adminUrl!, `hot_paths_${process.pid}`, {
      env: { PROCESS_COUNT: '2', VENDOR_CHECK_RATE_LIMIT: String(lookUpLimit) },
    });
  });

  after(() => cluster?.stop());

  it('shows a change of the settings and of an item on the next request in the other process', async () => {
    const [a, b] = cluster.servers;
    // Both processes hold their copies.
    for (const server of [a, b]) {
      assert.equal((await get(server.url, '/api/settings')).status, 200);
      assert.equal((await get(server.url, '/api/items')).status, 200);
      assert.equal((await get(server.url, '/v/DEMO-1')).status, 200);
    }
    for (const [round, server] of [a, b, a, b].entries()) {
      const name = `Neue Zeitung ${round}`;
      const item = `Heft ${round}`;
      await cluster.db('settings').where({ id: 1 }).update({ newspaper_name: name });
      await cluster
        .db('items')
        .where({ name: round ? `Heft ${round - 1}` : 'Zeitung' })
        .update({ name: item });
      const settings = JSON.parse((await get(server.url, '/api/settings')).text) as { newspaperName: string };
      assert.equal(settings.newspaperName, name, `settings on ${server.url}`);
      const items = JSON.parse((await get(server.url, '/api/items')).text) as { name: string }[];
      assert.ok(
        items.some((entry) => entry.name === item),
        `items on ${server.url}: ${JSON.stringify(items)}`,
      );
      const page = (await get(server.url, '/v/DEMO-1')).text;
      assert.match(page, new RegExp(`<title>${name}</title>`), `page on ${server.url}`);
      assert.match(page, new RegExp(`1 × ${item}`), `first screen on ${server.url}`);
    }
  });

  it('prices an order by the item as changed a moment before, in either process (its copy is as current as the vendor query says)', async () => {
    const order = async (base: string, item: number) => {
      const response = await fetch(`${base}/api/orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept-Language': 'de' },
        body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item, quantity: 2 }] }),
      });
      return { status: response.status, body: (await response.json()) as { order?: string; message?: string } };
    };
    const { id } = await cluster.db('items').where({ is_main_product: true }).first('id');
    for (const [round, server] of cluster.servers.entries()) {
      // The copy is held, then the price changes behind it.
      assert.equal((await order(server.url, id)).status, 201);
      const price = 400 + round * 10;
      await cluster.db('items').where({ id }).update({ price });
      const placed = await order(server.url, id);
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      const stored = await cluster.db('orders').where({ token: placed.body.order }).first('amount_total');
      assert.equal(stored.amount_total, 2 * price, `order on ${server.url}`);
    }
    await cluster.db('items').where({ id }).update({ disabled: true });
    for (const server of cluster.servers) {
      const refused = await order(server.url, id);
      assert.equal(refused.status, 400, `disabled item on ${server.url}`);
      assert.match(refused.body.message ?? '', /nicht erhältlich/);
    }
    await cluster.db('items').where({ id }).update({ disabled: false, price: 300 });
    // The orders' own count (kept in the database) is not the look-ups' concern below.
    await cluster.db('rate_limits').delete();
  });

  it('holds one client to the look-up limit across both processes, without a write', async () => {
    const statuses = [];
    for (let i = 0; i < lookUpLimit + 10; i++)
      statuses.push((await get(cluster.url, '/api/vendors/check/DEMO-1')).status);
    const allowed = statuses.filter((status) => status === 200).length;
    // Each process allows half; a token refilled while the requests run may add one per process.
    assert.ok(allowed <= lookUpLimit + 2, `${allowed} of ${statuses.length} allowed: ${statuses.join(' ')}`);
    assert.deepEqual(statuses.slice(-4), [429, 429, 429, 429], statuses.join(' '));
    assert.equal(Number((await cluster.db('rate_limits').count({ n: '*' }))[0].n), 0);
  });
});
