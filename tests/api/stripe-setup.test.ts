import assert from 'node:assert/strict';
import Stripe from 'stripe';
import { createDb } from '../../api/src/db/connection.ts';
import { stripeClient } from '../../api/src/stripe/adapter.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { setupWebhookEndpoint } from '../../api/src/stripe/setup.ts';
import { handledEvents } from '../../api/src/stripe/events.ts';
import { removeDir, seededCopy, tempDir } from '../e2e/server.ts';
import { describeApi } from '../support/env.ts';
import { npmScript } from '../support/npm-script.ts';
import { startHttpFaultProxy } from '../support/http-fault-proxy.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// `npm run stripe-setup` creates the webhook endpoint <PUBLIC_URL>/api/webhooks/stripe
// with exactly the events we handle and the pinned API version, once; a second run changes nothing.

describe('npm run stripe-setup against the sandbox', function () {
  this.timeout(120_000);
  const dataDir = tempDir('stripe-setup-');
  // The demo's data directory, migrated once per process: the endpoint, not the migration, is under test.
  before(() => seededCopy(dataDir));
  after(() => removeDir(dataDir));

  const setup = async () => {
    const done = await npmScript('stripe-setup', [], {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      STRIPE_SECRET_KEY: '',
      PUBLIC_URL: 'https://shop.example.org',
      LOG_LEVEL: 'silent',
    });
    assert.equal(done.code, 0, done.out);
    return done;
  };

  it('creates the endpoint once, printing its secret; the second run changes nothing', async () => {
    const first = await setup();
    assert.match(first.stdout, /^Webhook endpoint created: https:\/\/shop\.example\.org\/api\/webhooks\/stripe \(we_/m);
    const secret = /(whsec_[A-Za-z0-9]+)/.exec(first.stdout)?.[1];
    assert.ok(secret, first.stdout);

    const second = await setup();
    assert.match(second.stdout, /^Webhook endpoint unchanged: /m);
    assert.doesNotMatch(second.stdout, /whsec_/, 'the secret is printed once');

    const db = createDb({ dataDir });
    try {
      const endpoints = (await db('stripe_sandbox_objects').where({ type: 'webhook_endpoint' }).select('data')).map(
        (row) => row.data,
      );
      assert.equal(endpoints.length, 1);
      assert.equal(endpoints[0].url, 'https://shop.example.org/api/webhooks/stripe');
      assert.deepEqual(endpoints[0].enabled_events, [...handledEvents]);
      assert.equal(endpoints[0].api_version, Stripe.API_VERSION);
      assert.equal(secret, (await sandboxCredentials(db)).webhookSecret, 'the signing secret the server verifies with');
    } finally {
      await db.destroy();
    }
  });
});

describeApi('stripe-setup brings an existing endpoint in line', (t) => {
  let shop: ListeningShop;
  let stripe: Stripe;
  before(async () => {
    shop = await listenShop(t);
    stripe = stripeClient(t.db, shop.config);
  });
  after(() => shop.close());

  it('adds missing events, replaces an endpoint of another API version, and leaves a right one alone', async () => {
    const created = await setupWebhookEndpoint(stripe, shop.url);
    assert.equal(created.action, 'created');
    await stripe.webhookEndpoints.update(created.endpoint.id, { enabled_events: ['checkout.session.completed'] });
    const updated = await setupWebhookEndpoint(stripe, shop.url);
    assert.equal(updated.action, 'updated');
    assert.equal(updated.endpoint.id, created.endpoint.id);
    assert.deepEqual([...updated.endpoint.enabled_events].sort(), [...handledEvents].sort());
    assert.equal(updated.secret, undefined);
    assert.equal((await setupWebhookEndpoint(stripe, shop.url)).action, 'unchanged');

    // An endpoint made for an older API version sends events in that version's shapes: replaced.
    await t
      .db('stripe_sandbox_objects')
      .where({ id: created.endpoint.id })
      .update({ data: t.db.raw(`jsonb_set(data, '{api_version}', '"2025-01-27.acacia"')`) });
    const replaced = await setupWebhookEndpoint(stripe, shop.url);
    assert.equal(replaced.action, 'recreated');
    assert.notEqual(replaced.endpoint.id, created.endpoint.id);
    assert.ok(replaced.secret);
    const all = (await stripe.webhookEndpoints.list()).data;
    assert.deepEqual(
      all.map((e) => e.id),
      [replaced.endpoint.id],
    );
    await stripe.webhookEndpoints.del(replaced.endpoint.id);
  });

  /** An endpoint at `url` made for an older API version (whose events come in that version's shapes). */
  const olderEndpoint = async (url = `${shop.url}/api/webhooks/stripe`) => {
    const made = await stripe.webhookEndpoints.create({
      url: `${shop.url}/api/webhooks/stripe`,
      enabled_events: ['*'],
    });
    await t
      .db('stripe_sandbox_objects')
      .where({ id: made.id })
      .update({
        data: t.db.raw(
          `jsonb_set(jsonb_set(data, '{api_version}', '"2025-01-27.acacia"'), '{url}', to_jsonb(?::text))`,
          [url],
        ),
      });
    return made.id;
  };

  it('makes the new endpoint before it deletes the old one', async () => {
    // The sandbox's requests in the order they arrive.
    const proxy = await startHttpFaultProxy(shop.url);
    const watched = stripeClient(t.db, { ...shop.config, stripe: { ...shop.config.stripe, apiUrl: proxy.url } });
    try {
      const old = [await olderEndpoint(), await olderEndpoint()];
      const replaced = await setupWebhookEndpoint(watched, shop.url);
      assert.equal(replaced.action, 'recreated');
      const calls = proxy.seen.filter((seen) => !seen.startsWith('GET '));
      // A duplicate goes first (it would deliver every event twice); the last old one once the new one is there.
      const deleted = (at: number) => calls[at]?.replace('DELETE /v1/webhook_endpoints/', '');
      assert.equal(calls.length, 3, calls.join(', '));
      assert.equal(calls[1], 'POST /v1/webhook_endpoints', calls.join(', '));
      assert.deepEqual([deleted(0), deleted(2)].sort(), [...old].sort(), calls.join(', '));
      assert.deepEqual(
        (await stripe.webhookEndpoints.list()).data.map((e) => e.id),
        [replaced.endpoint.id],
      );
      await stripe.webhookEndpoints.del(replaced.endpoint.id);
    } finally {
      await proxy.close();
    }
  });

  it('at Stripe, keeps the replaced endpoint delivering until STRIPE_WEBHOOK_SECRET holds the new secret beside the old one', async () => {
    const old = await olderEndpoint();
    const ids = async () => (await stripe.webhookEndpoints.list()).data.map((e) => e.id).sort();
    // Two secrets configured (left from an earlier rotation) cannot hold one made in this run: the old one stays.
    const rotated = await setupWebhookEndpoint(stripe, shop.url, { shared: false, configured: 2 });
    assert.equal(rotated.action, 'recreated');
    assert.ok(rotated.secret, 'the new secret, shown once');
    assert.deepEqual([rotated.replaced?.id, rotated.replacedDeleted], [old, undefined]);
    assert.deepEqual(await ids(), [old, rotated.endpoint.id].sort(), 'both deliver');
    // A run before the variable holds the new secret beside the old one.
    const early = await setupWebhookEndpoint(stripe, shop.url, { shared: false, configured: 1 });
    assert.deepEqual([early.action, early.replaced?.id, early.replacedDeleted], ['unchanged', old, undefined]);
    assert.deepEqual(await ids(), [old, rotated.endpoint.id].sort(), 'it deletes nothing');

    const done = await setupWebhookEndpoint(stripe, shop.url, { shared: false, configured: 2 });
    assert.deepEqual([done.action, done.replaced?.id, done.replacedDeleted], ['unchanged', old, true]);
    assert.deepEqual(await ids(), [rotated.endpoint.id], 'the new endpoint delivers alone');
    await stripe.webhookEndpoints.del(rotated.endpoint.id);
  });

  it('keeps an old endpoint delivering when Stripe refuses the new one', async () => {
    // The sandbox makes endpoints only for this server's own address, so it refuses one elsewhere.
    const elsewhere = 'https://elsewhere.example';
    const old = [
      await olderEndpoint(`${elsewhere}/api/webhooks/stripe`),
      await olderEndpoint(`${elsewhere}/api/webhooks/stripe`),
    ];
    await assert.rejects(setupWebhookEndpoint(stripe, elsewhere));
    const left = (await stripe.webhookEndpoints.list()).data.map((e) => e.id);
    assert.equal(left.length, 1, 'one old endpoint still delivers');
    assert.ok(old.includes(left[0]));
    await stripe.webhookEndpoints.del(left[0]);
  });
});
