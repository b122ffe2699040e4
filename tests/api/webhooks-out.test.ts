import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import os from 'node:os';
import type supertest from 'supertest';
import { createEndpoint } from '../../api/src/webhooks-out/queries.ts';
import { maxAttempts, processDeliveries } from '../../api/src/webhooks-out/delivery.ts';
import { emitEvent } from '../../api/src/webhooks-out/emit.ts';
import { eventTypes } from '../../api/src/webhooks-out/types.ts';
import type { Config } from '../../api/src/foundations/config.ts';
import { bookOrder } from '../../api/src/ledger/book.ts';
import { createDb } from '../../api/src/db/connection.ts';
import { removeDir, seededCopy, startServer, tempDir, type RunningServer } from '../e2e/server.ts';
import { describeApi, enginesUnderTest } from '../support/env.ts';
import { loginWithPkce } from '../support/oidc-flow.ts';
import { itemId, vendorId } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenBooksShop, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';
import { webhookReceiver, type Receiver } from '../support/webhook-receiver.ts';

// Outbound webhooks through the API and the sender itself:
// endpoints and their secrets, the addresses refused, the events each booking writes in its own
// transaction, signed deliveries with retries, and resending; then, with the real
// server process: a receiver that is down across a restart gets every event exactly once.

/**
 * Targets that reach this machine or its network through an IPv4 address inside an IPv6 one, each
 * as 127.0.0.1 or 10.0.0.1, and a site-local one.
 */
const embeddedIpv4Urls = [
  'https://[::127.0.0.1]/hook', // IPv4-compatible
  'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped, which URL parsing writes as ::ffff:7f00:1
  'https://[0:0:0:0:0:ffff:a00:1]/hook', // IPv4-mapped, in hex
  'https://[::ffff:8.8.8.8]/hook', // IPv4-mapped, of a public address: refused as a form
  'https://[::ffff:0:7f00:1]/hook', // IPv4-translated (SIIT)
  'https://[2002:7f00:1::1]/hook', // 6to4
  'https://[64:ff9b::127.0.0.1]/hook', // NAT64, well-known prefix
  'https://[64:ff9b:1::a00:1]/hook', // NAT64, local-use prefix
  'https://[2001:0:7f00:1::1]/hook', // Teredo
  'https://[fec0::1]/hook', // site-local
];
const privateNetworkDe =
  'Die Adresse zeigt in ein privates Netz; Ereignisse werden nur an öffentliche Adressen gesendet.';

describeApi('outbound webhooks: endpoints, events, signed deliveries', (t) => {
  let office = '';
  before(async () => {
    office = await t.office();
  });
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const createVia = (body: object) => as(t.http.post('/api/webhook-endpoints')).send(body);
  const allTypes = [...eventTypes];
  /** The sender as a local installation runs it (it may call 127.0.0.1); retries far off unless a test makes them due. */
  const localSender = (): Config => ({ ...t.config, publicUrl: 'http://localhost:3000', webhookRetryFirstMs: 60_000 });
  const makeDue = () =>
    t.db('webhook_deliveries').where({ status: 'pending' }).update({ next_attempt_at: t.db.fn.now() });

  describe('endpoints', () => {
    it('makes an endpoint and shows its secret once: not in the list, the endpoint, the protocol; a rotation replaces it', async () => {
      const made = await createVia({
        url: 'https://erp.example.org/hooks/shop',
        description: 'Odoo',
        eventTypes: ['order.paid', 'payout.created', 'order.paid'],
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const { id, secret } = made.body as { id: number; secret: string };
      assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(
        [made.body.url, made.body.description, made.body.eventTypes, made.body.active, made.body.pending],
        ['https://erp.example.org/hooks/shop', 'Odoo', ['order.paid', 'payout.created'], true, 0],
      );
      const listed = await as(t.http.get('/api/webhook-endpoints'));
      const one = await as(t.http.get(`/api/webhook-endpoints/${id}`));
      assert.equal(listed.status, 200);
      assert.equal(one.status, 200);
      assert.equal(listed.headers['content-range'], 'webhook-endpoints 0-0/1');
      for (const answer of [listed.text, one.text]) {
        assert.ok(!answer.includes(secret) && !answer.includes('"secret"'), answer);
      }

      const rotated = await as(t.http.post(`/api/webhook-endpoints/${id}/secret`));
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.notEqual(rotated.body.secret, secret);
      assert.equal((await t.db('webhook_endpoints').where({ id }).first()).secret, rotated.body.secret);
      const protocol = await t.db('protocol_entries').where({ record_type: 'webhook_endpoint' }).orderBy('id');
      assert.deepEqual(
        protocol.map((entry) => entry.action),
        ['create', 'rotate-secret'],
      );
      assert.ok(protocol[1].changes.secretSetAt, 'the rotation is seen in the protocol by its date');
      const allText = JSON.stringify(await t.db('protocol_entries').select('*'));
      assert.ok(!allText.includes(secret) && !allText.includes(rotated.body.secret), 'no secret in the protocol');

      const changed = await as(t.http.put(`/api/webhook-endpoints/${id}`)).send({
        ...one.body,
        active: false,
        eventTypes: ['counter.sale'],
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual([changed.body.active, changed.body.eventTypes], [false, ['counter.sale']]);
      assert.equal((await as(t.http.put('/api/webhook-endpoints/999')).send({ active: true })).status, 404);
      assert.equal((await as(t.http.post('/api/webhook-endpoints/999/secret'))).status, 404);
    });

    it('refuses addresses the server must not call, bad input and callers who are not staff, never with a 500', async () => {
      const refused: [string, RegExp][] = [
        ['http://erp.example.org/hook', /https/],
        ['https://127.0.0.1/hook', /private network/],
        ['https://10.1.2.3/hook', /private network/],
        ['https://169.254.169.254/latest/meta-data', /private network/],
        ['https://[::1]/hook', /private network/],
        ['https://[::ffff:192.168.1.1]/hook', /private network/],
        ['https://localhost/hook', /private network/],
        ['https://db.internal/hook', /private network/],
        ['https://user:pass@erp.example.org/hook', /user name or password/],
        ['ftp://erp.example.org/hook', /https/],
        ['erp.example.org', /full address/],
      ];
      for (const [url, message] of refused) {
        const res = await createVia({ url, eventTypes: ['order.paid'] });
        assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.errors.url, message, url);
      }
      const bad: object[] = [
        { url: 'https://erp.example.org', eventTypes: [] },
        { url: 'https://erp.example.org', eventTypes: ['order.shipped'] },
        { url: 'https://erp.example.org', eventTypes: 'order.paid' },
        { url: 'https://erp.example.org', eventTypes: ['order.paid'], description: 'x'.repeat(501) },
        { url: `https://erp.example.org/${'x'.repeat(2000)}`, eventTypes: ['order.paid'] },
        { eventTypes: ['order.paid'] },
        JSON.parse('{"__proto__": {"active": false}, "url": 5, "eventTypes": ["order.paid"]}') as object,
      ];
      for (const body of bad) {
        const res = await createVia(body);
        assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 100)}: ${JSON.stringify(res.body)}`);
        assert.ok(res.body.message, 'a message a person understands');
      }
      // An unknown event names the known ones, in the reader's language.
      const unknown = { url: 'https://erp.example.org', eventTypes: ['order.shipped'] };
      assert.equal(
        (await createVia(unknown)).body.errors['eventTypes.0'],
        `Please choose among ${eventTypes.join(', ')}.`,
      );
      assert.equal(
        (await createVia(unknown).set('Accept-Language', 'de')).body.errors['eventTypes.0'],
        `Bitte unter ${eventTypes.join(', ')} wählen.`,
      );
      const vendor = await t.auth(['vendor']);
      const body = { url: 'https://erp.example.org', eventTypes: ['order.paid'] };
      assert.equal((await t.http.post('/api/webhook-endpoints').send(body)).status, 401);
      assert.equal((await t.http.post('/api/webhook-endpoints').set('Authorization', vendor).send(body)).status, 403);
      assert.equal((await t.http.get('/api/webhook-deliveries').set('Authorization', vendor)).status, 403);
      assert.equal((await t.db('webhook_endpoints')).length, 0);
    });

    it('refuses every IPv6 form that carries an IPv4 address, and site-local IPv6, in German', async () => {
      for (const url of embeddedIpv4Urls) {
        const res = await createVia({ url, eventTypes: ['order.paid'] }).set('Accept-Language', 'de');
        assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors.url, privateNetworkDe, url);
      }
      assert.equal((await t.db('webhook_endpoints')).length, 0);
    });
    it('refuses every block of IANA’s special-purpose registries and takes public addresses', async () => {
      const special = [
        '0.1.2.3',
        '100.64.0.1',
        '192.0.0.9',
        '192.31.196.1',
        '192.52.193.1',
        '192.88.99.1',
        '192.175.48.1',
        '198.19.255.255',
        '255.255.255.255',
        '[100::1]',
        '[100:0:0:1::1]',
        '[2001:1::1]',
        '[2001:2::1]',
        '[2001:3::1]',
        '[2001:4:112::1]',
        '[2001:20::1]',
        '[2001:db8::1]',
        '[2620:4f:8000::1]',
        '[3fff::1]',
        '[5f00::1]',
        '[fd00::1]',
        '[ff02::1]',
        '[4000::1]',
      ];
      for (const host of special) {
        const res = await createVia({ url: `https://${host}/hook`, eventTypes: ['order.paid'] }).set(
          'Accept-Language',
          'de',
        );
        assert.equal(res.status, 400, `${host}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors.url, privateNetworkDe, host);
      }
      for (const host of ['1.1.1.1', '192.88.100.1', '[2606:4700:4700::1111]'])
        assert.equal((await createVia({ url: `https://${host}/hook`, eventTypes: ['order.paid'] })).status, 201, host);
    });

    it('refuses a name with a dot at its end, the shop’s own names, and a name that resolves inside when saved', async () => {
      const refused: [string, string][] = [
        ['https://localhost./hook', 'Bitte den Namen der Adresse ohne Punkt am Ende schreiben.'],
        [
          'https://metadata.google.internal./computeMetadata/v1/',
          'Bitte den Namen der Adresse ohne Punkt am Ende schreiben.',
        ],
        ['https://erp.example.org./hook', 'Bitte den Namen der Adresse ohne Punkt am Ende schreiben.'],
        [
          `https://${new URL(t.config.publicUrl).hostname}/hook`,
          'Die Adresse ist die dieses Shops; Ereignisse werden nur an andere Systeme gesendet.',
        ],
        [
          `https://${os.hostname().toUpperCase()}/hook`,
          'Die Adresse ist die dieses Shops; Ereignisse werden nur an andere Systeme gesendet.',
        ],
        ['https://inside.example.org/hook', privateNetworkDe],
        ['https://inside-v6.example.org/hook', privateNetworkDe],
      ];
      const resolved: Record<string, dns.LookupAddress[]> = {
        'inside.example.org': [
          { address: '93.184.215.14', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ],
        'inside-v6.example.org': [{ address: 'fd12::7', family: 6 }],
        'erp.example.org': [{ address: '93.184.215.14', family: 4 }],
      };
      const lookup = dns.promises.lookup;
      const looked: string[] = [];
      dns.promises.lookup = ((hostname: string) => {
        looked.push(hostname);
        const addresses = resolved[hostname];
        return addresses
          ? Promise.resolve(addresses)
          : Promise.reject(Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' }));
      }) as typeof dns.promises.lookup;
      try {
        for (const [url, message] of refused) {
          const res = await createVia({ url, eventTypes: ['order.paid'] }).set('Accept-Language', 'de');
          assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
          assert.equal(res.body.errors.url, message, url);
        }
        assert.equal((await t.db('webhook_endpoints')).length, 0);
        const saved = await createVia({ url: 'https://erp.example.org/hook', eventTypes: ['order.paid'] });
        assert.equal(saved.status, 201, 'a name that resolves to public addresses');
        const later = await createVia({ url: 'https://not-yet.example.org/hook', eventTypes: ['order.paid'] });
        assert.equal(later.status, 201, 'a name that does not resolve yet');
        const moved = await as(t.http.put(`/api/webhook-endpoints/${saved.body.id}`)).send({
          url: 'https://inside.example.org/hook',
        });
        assert.equal(moved.status, 400, 'nor when an endpoint is changed');
      } finally {
        dns.promises.lookup = lookup;
      }
      assert.deepEqual([...new Set(looked)].sort(), [
        'erp.example.org',
        'inside-v6.example.org',
        'inside.example.org',
        'not-yet.example.org',
      ]);
    });
  });

  describe('events in the booking transaction', () => {
    let shop: ListeningShop;
    before(async () => {
      shop = await listenBooksShop(t);
    });
    after(() => shop.close());

    it('writes one event per booking and one delivery per subscribed active endpoint; a refused booking writes none', async () => {
      const every = (await createVia({ url: 'https://a.example.org', eventTypes: allTypes })).body.id as number;
      const payouts = (await createVia({ url: 'https://b.example.org', eventTypes: ['payout.created'] })).body
        .id as number;
      await createVia({ url: 'https://c.example.org', eventTypes: allTypes, active: false });

      // A customer's order, paid in the sandbox, then refunded.
      const order = await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 2 }, tip: 50 });
      const refunded = await as(shop.http.post(`/api/orders/${order.id}/refund`));
      assert.equal(refunded.status, 200, JSON.stringify(refunded.body));
      // A second order makes a credit, paid out and the payout reversed.
      await sell(shop, t.db, { vendor: 'DEMO-2', items: { Zeitung: 1 } });
      const open = await as(t.http.get('/api/payments/forpayout').query({ vendor: 'DEMO-2' }));
      const stale = await as(t.http.post('/api/payments/payout')).send({ vendor: 'DEMO-2', expectedAmount: 1 });
      assert.equal(stale.status, 409, 'a payout of a stale amount is refused');
      const paidOut = await as(t.http.post('/api/payments/payout')).send({
        vendor: 'DEMO-2',
        expectedAmount: open.body.balance,
      });
      assert.equal(paidOut.status, 201, JSON.stringify(paidOut.body));
      const reversed = await as(t.http.post(`/api/payments/payout/${paidOut.body.id}/reverse`)).send({
        reason: 'counted twice',
      });
      assert.equal(reversed.status, 200, JSON.stringify(reversed.body));
      // Copies bought at the counter in cash, and the day closed.
      const till = (await t.db('tills').orderBy('id').first()) as { id: number };
      const visit = randomUUID();
      const bought = await as(t.http.post('/api/counter/visits')).send({
        visitId: visit,
        vendor: 'DEMO-3',
        tillId: till.id,
        items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 4 }],
        cash: 600,
        payOut: false,
        expectedCredit: 0,
      });
      assert.equal(bought.status, 201, JSON.stringify(bought.body));
      const balance = (await as(t.http.get('/api/tills'))).body.tills.find((x: { id: number }) => x.id === till.id)
        .balance as number;
      const closed = await as(t.http.post(`/api/tills/${till.id}/closes`)).send({
        counted: balance,
        expected: balance,
      });
      assert.equal(closed.status, 201, JSON.stringify(closed.body));

      const events = await t.db('webhook_events').orderBy('created_at').orderBy('id');
      assert.deepEqual(events.map((e) => e.type).sort(), [
        'counter.day_closed',
        'counter.sale',
        'order.paid',
        'order.paid',
        'order.refunded',
        'payout.created',
        'payout.reversed',
      ]);
      const byType = (type: string) => events.filter((e) => e.type === type);
      const paid = byType('order.paid').find((e) => e.data.orderId === order.id)!;
      // The time the order was paid, as JavaScript writes it (UTC, milliseconds).
      const { paid_at: paidAt } = await t.db('orders').where({ id: order.id }).first('paid_at');
      assert.equal(paid.data.paidAt, new Date(paidAt).toISOString());
      assert.deepEqual(
        { ...paid.data, paidAt: typeof paid.data.paidAt },
        {
          orderId: order.id,
          vendor: 'DEMO-1',
          amount: 650,
          tip: 50,
          currency: 'eur',
          items: [{ itemId: await itemId(t.db, 'Zeitung'), name: 'Zeitung', quantity: 2, unitPrice: 300, amount: 600 }],
          paidAt: 'string',
        },
      );
      assert.ok(!JSON.stringify(events).includes('reader@example.org'), 'no customer address in any event');
      assert.deepEqual(
        [byType('order.refunded')[0].data.orderId, byType('order.refunded')[0].data.amount],
        [order.id, 650],
      );
      assert.deepEqual(
        [byType('payout.created')[0].data.payoutId, byType('payout.created')[0].data.amount],
        [paidOut.body.id, open.body.balance],
      );
      assert.equal(byType('payout.reversed')[0].data.reason, 'counted twice');
      assert.deepEqual(
        [
          byType('counter.sale')[0].data.visitId,
          byType('counter.sale')[0].data.amount,
          byType('counter.sale')[0].data.cash,
        ],
        [visit, 600, 600],
      );
      assert.deepEqual(
        [byType('counter.day_closed')[0].data.closeId, byType('counter.day_closed')[0].data.difference],
        [closed.body.id, 0],
      );

      const deliveries = await t.db('webhook_deliveries').select('event_id', 'endpoint_id');
      const expected = [
        ...events.map((e) => `${e.id}:${every}`),
        ...byType('payout.created').map((e) => `${e.id}:${payouts}`),
      ].sort();
      assert.deepEqual(deliveries.map((d) => `${d.event_id}:${d.endpoint_id}`).sort(), expected);
    });

    it('names the installation’s currency in every event of a CHF paper, as Stripe writes it', async function () {
      this.timeout(60_000);
      await t.db('settings').update({ currency: 'CHF' });
      await createVia({ url: 'https://a.example.org', eventTypes: allTypes });
      const francs = await listenBooksShop(t, { sandboxCurrencies: ['chf'] });
      try {
        await sell(francs, t.db, { vendor: 'DEMO-2', items: { Zeitung: 1 } });
      } finally {
        await francs.close();
      }
      const open = await as(t.http.get('/api/payments/forpayout').query({ vendor: 'DEMO-2' }));
      const paidOut = await as(t.http.post('/api/payments/payout')).send({
        vendor: 'DEMO-2',
        expectedAmount: open.body.balance,
      });
      assert.equal(paidOut.status, 201, JSON.stringify(paidOut.body));
      const reversed = await as(t.http.post(`/api/payments/payout/${paidOut.body.id}/reverse`)).send({
        reason: 'twice',
      });
      assert.equal(reversed.status, 200, JSON.stringify(reversed.body));
      const till = (await t.db('tills').orderBy('id').first()) as { id: number };
      const bought = await as(t.http.post('/api/counter/visits')).send({
        visitId: randomUUID(),
        vendor: 'DEMO-3',
        tillId: till.id,
        items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 4 }],
        cash: 600,
        payOut: false,
        expectedCredit: 0,
      });
      assert.equal(bought.status, 201, JSON.stringify(bought.body));
      const balance = (await as(t.http.get('/api/tills'))).body.tills.find((x: { id: number }) => x.id === till.id)
        .balance as number;
      const closed = await as(t.http.post(`/api/tills/${till.id}/closes`)).send({
        counted: balance,
        expected: balance,
      });
      assert.equal(closed.status, 201, JSON.stringify(closed.body));

      const events = await t
        .db('webhook_events')
        .orderBy('type')
        .select<{ type: string; data: object }[]>('type', 'data');
      assert.deepEqual(
        events.map((e) => [e.type, (e.data as { currency: string }).currency]),
        [
          ['counter.day_closed', 'chf'],
          ['counter.sale', 'chf'],
          ['order.paid', 'chf'],
          ['payout.created', 'chf'],
          ['payout.reversed', 'chf'],
        ],
      );
    });

    it('writes no event for an order booked by hand outside the paid path, and none when nothing subscribes', async () => {
      // bookOrder alone is not a payment: only settling a paid order emits order.paid.
      const vendor = await vendorId(t.db, 'DEMO-1');
      await t.db.transaction(async (trx) => {
        const [{ id }] = await trx('orders')
          .insert({
            token: 'x'.repeat(43),
            vendor_id: vendor,
            status: 'paid',
            amount_total: 300,
            expires_at: new Date(),
            paid_at: new Date(),
          })
          .returning('id');
        await trx('order_entries').insert({
          order_id: id,
          kind: 'sale',
          item_id: await itemId(trx, 'Zeitung'),
          quantity: 1,
          unit_price: 300,
          amount: 300,
        });
        await bookOrder(trx, { id, vendor_id: vendor });
      });
      await t.db.transaction((trx) => emitEvent(trx, 'counter.sale', { test: true }));
      assert.equal((await t.db('webhook_events')).length, 1);
      assert.equal((await t.db('webhook_deliveries')).length, 0);
    });
  });

  describe('the sender', () => {
    let receiver: Receiver;
    beforeEach(async () => {
      receiver = await webhookReceiver('up');
    });
    afterEach(() => receiver.close());

    async function endpointAt(url: string, types = allTypes) {
      const { id, secret } = await createEndpoint(t.db, { url, description: '', eventTypes: types, active: true });
      receiver.secret = secret;
      return id;
    }
    const emit = (data: Record<string, unknown> = {}) =>
      t.db.transaction((trx) => emitEvent(trx, 'counter.sale', data));
    const delivery = async () => (await t.db('webhook_deliveries').first())!;

    it('asks the database once for due deliveries when none is due, not once per lane', async () => {
      await endpointAt(`${receiver.url}/hook`);
      const queries: string[] = [];
      const count = (query: { sql: string }) => queries.push(query.sql);
      t.db.on('query', count);
      try {
        assert.equal(await processDeliveries(t.db, localSender()), 0);
      } finally {
        t.db.off('query', count);
      }
      assert.equal(queries.length, 1, queries.join('; '));
    });

    it('signs each delivery so the README’s code verifies it, and calls a receiver that answered 2xx no more', async () => {
      await endpointAt(`${receiver.url}/hook`);
      const id = await emit({ visitId: 'v1', amount: 600 });
      assert.equal(await processDeliveries(t.db, localSender()), 1);
      assert.equal(receiver.received.length, 1);
      const [got] = receiver.received;
      assert.equal(got.verified, true, 'the README code verifies the signature');
      assert.deepEqual(
        [got.id, got.type, got.body.id, got.body.data],
        [id, 'counter.sale', id, { visitId: 'v1', amount: 600 }],
      );
      assert.equal(got.headers['webhook-id'], id);
      assert.match(String(got.headers['webhook-timestamp']), /^\d{10}$/);
      assert.equal(got.headers['content-type'], 'application/json');
      const done = await delivery();
      assert.deepEqual([done.status, done.attempts, done.last_status, done.last_error], ['delivered', 1, 204, null]);
      // Nothing is due any more.
      await makeDue();
      assert.equal(await processDeliveries(t.db, localSender()), 0);
      assert.equal(receiver.calls, 1);
      // A signature made with another secret does not verify.
      receiver.secret = 'whsec_someone_else_entirely_xxxxxxxxxxxxxxxxxxxxx';
      await t.db('webhook_deliveries').update({ status: 'pending', next_attempt_at: t.db.fn.now() });
      await processDeliveries(t.db, localSender());
      assert.equal(receiver.received[1].verified, false);
    });

    it('retries a receiver that is down with growing waits, keeps only an excerpt of its answer, and gives up after the last try', async () => {
      await endpointAt(`${receiver.url}/hook`);
      receiver.answer = 'down';
      await emit();
      await processDeliveries(t.db, localSender());
      let row = await delivery();
      assert.deepEqual([row.status, row.attempts, row.last_status], ['pending', 1, 503]);
      assert.match(row.last_error, /^HTTP 503: down for maintenance x+$/);
      assert.ok(row.last_error.length <= 320, `an excerpt only (${row.last_error.length} characters)`);
      const firstWait = (new Date(row.next_attempt_at).getTime() - new Date(row.last_attempt_at).getTime()) / 1000;
      assert.ok(firstWait >= 40 && firstWait <= 80, `first retry after 60 s ± 20 % here, got ${firstWait}`);
      await makeDue();
      await processDeliveries(t.db, localSender());
      row = await delivery();
      const secondWait = (new Date(row.next_attempt_at).getTime() - new Date(row.last_attempt_at).getTime()) / 1000;
      assert.ok(secondWait >= 180, `the second wait is longer, got ${secondWait}`);
      // The last try: then it is failed and not tried again by itself.
      await t.db('webhook_deliveries').update({ attempts: maxAttempts - 1, next_attempt_at: t.db.fn.now() });
      await processDeliveries(t.db, localSender());
      row = await delivery();
      assert.deepEqual([row.status, row.attempts], ['failed', maxAttempts]);
      assert.equal(await processDeliveries(t.db, localSender()), 0);
      assert.equal(receiver.received.length, 0);
    });

    it('does not follow a redirect, and treats a refused connection as a failure to retry', async () => {
      await endpointAt(`${receiver.url}/hook`);
      receiver.answer = 'redirect';
      await emit();
      await processDeliveries(t.db, localSender());
      const redirected = await delivery();
      assert.deepEqual([redirected.status, redirected.last_status], ['pending', 302]);
      assert.match(redirected.last_error, /redirects are not followed/);
      assert.equal(receiver.calls, 1, 'the redirect target was not called');
      await receiver.close();
      await makeDue();
      await processDeliveries(t.db, localSender());
      const refused = await delivery();
      assert.deepEqual([refused.status, refused.attempts], ['pending', 2]);
      assert.match(refused.last_error, /ECONNREFUSED/);
      await receiver.open();
    });

    it('refuses to call a private address when the shop runs on a public one, by number or by name', async () => {
      const publicShop: Config = { ...localSender(), publicUrl: 'https://shop.example.org' };
      await endpointAt(`${receiver.url}/by-number`);
      await endpointAt(`http://localhost:${receiver.port}/by-name`);
      await emit();
      assert.equal(await processDeliveries(t.db, publicShop), 2);
      const rows = await t.db('webhook_deliveries').orderBy('endpoint_id');
      assert.deepEqual(
        rows.map((r) => r.status),
        ['pending', 'pending'],
      );
      for (const row of rows) assert.match(row.last_error, /private address/);
      assert.equal(receiver.calls, 0, 'no connection was made');
    });

    it('refuses names that resolve to an IPv6 form carrying an IPv4 address, or to site-local IPv6', async () => {
      const publicShop: Config = { ...localSender(), publicUrl: 'https://shop.example.org' };
      // Each name resolves to the address its URL has in embeddedIpv4Urls.
      const resolved = new Map(embeddedIpv4Urls.map((url, n) => [`hook-${n}.example.org`, new URL(url).hostname]));
      for (const name of resolved.keys()) await endpointAt(`https://${name}/hook`);
      await emit();
      const lookup = dns.lookup;
      const looked: string[] = [];
      dns.lookup = ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
        looked.push(hostname);
        callback(null, [{ address: resolved.get(hostname)!.replace(/^\[|\]$/g, ''), family: 6 }]);
      }) as typeof dns.lookup;
      try {
        assert.equal(await processDeliveries(t.db, publicShop), resolved.size);
      } finally {
        dns.lookup = lookup;
      }
      assert.deepEqual(looked.sort(), [...resolved.keys()].sort(), 'every name was resolved');
      const rows = await t.db('webhook_deliveries').orderBy('endpoint_id');
      for (const row of rows) {
        assert.equal(row.status, 'pending');
        assert.match(row.last_error, /hook-\d+\.example\.org is a private address/);
      }
    });

    it('skips inactive endpoints until they are switched on again', async () => {
      const id = await endpointAt(`${receiver.url}/hook`);
      await t.db('webhook_endpoints').where({ id }).update({ active: false });
      await t.db.transaction(async (trx) => {
        // A delivery made while the endpoint was active, left over when it was switched off.
        const event = await emitEvent(trx, 'counter.sale', {});
        await trx('webhook_deliveries').insert({ event_id: event, endpoint_id: id });
      });
      assert.equal(await processDeliveries(t.db, localSender()), 0);
      await as(t.http.put(`/api/webhook-endpoints/${id}`)).send({ active: true });
      assert.equal(await processDeliveries(t.db, localSender()), 1);
      assert.equal(receiver.received.length, 1);
    });

    it('delivers each of 30 events once when three senders run at the same time', async () => {
      await endpointAt(`${receiver.url}/hook`);
      const ids: string[] = [];
      for (let n = 0; n < 30; n++) ids.push(await emit({ n }));
      const handled = await Promise.all([1, 2, 3].map(() => processDeliveries(t.db, localSender())));
      assert.equal(
        handled.reduce((a, b) => a + b, 0),
        30,
      );
      assert.deepEqual(receiver.received.map((r) => r.id).sort(), [...ids].sort());
      assert.ok(receiver.received.every((r) => r.verified));
    });

    it('lists an endpoint’s deliveries and resends one as a staff action recorded in the protocol', async () => {
      const id = await endpointAt(`${receiver.url}/hook`);
      receiver.answer = 'down';
      const event = await emit();
      await t.db('webhook_deliveries').update({ attempts: maxAttempts - 1 });
      await processDeliveries(t.db, localSender());
      const listed = await as(t.http.get('/api/webhook-deliveries')).query({
        filter: JSON.stringify({ endpointId: id, status: 'failed' }),
      });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.length, 1);
      const [failed] = listed.body;
      assert.deepEqual(
        [failed.eventId, failed.eventType, failed.status, failed.attempts, failed.nextAttemptAt, failed.lastStatus],
        [event, 'counter.sale', 'failed', maxAttempts, null, 503],
      );
      receiver.answer = 'up';
      const resent = await as(t.http.post(`/api/webhook-deliveries/${failed.id}/resend`));
      assert.equal(resent.status, 200, JSON.stringify(resent.body));
      assert.deepEqual([resent.body.status, resent.body.attempts], ['pending', 0]);
      const entry = await t.db('protocol_entries').where({ record_type: 'webhook_delivery', action: 'resend' }).first();
      assert.equal(entry.actor_name, 'office');
      assert.equal(entry.changes.status.after, 'pending');
      await processDeliveries(t.db, localSender());
      assert.deepEqual(
        receiver.received.map((r) => [r.id, r.verified]),
        [[event, true]],
      );
      assert.equal((await as(t.http.get(`/api/webhook-deliveries/${failed.id}`))).body.status, 'delivered');
      assert.equal((await as(t.http.post('/api/webhook-deliveries/99999/resend'))).status, 404);
      assert.equal((await as(t.http.post('/api/webhook-deliveries/abc/resend'))).status, 400);
      const wrongFilter = await as(t.http.get('/api/webhook-deliveries')).query({
        filter: JSON.stringify({ status: 'lost' }),
      });
      assert.equal(wrongFilter.status, 400);
    });
  });
});

/** Polls until `probe` answers something, for up to `limitMs` (generous: the machine may be busy). */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string, limitMs = 180_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface ListedDelivery {
  id: number;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  lastAttemptAt: string | null;
  lastError: string | null;
}

for (const engineName of enginesUnderTest()) {
  describe(`an endpoint that is down receives every event once after it comes back, across a server restart [${engineName}]`, function () {
    this.timeout(600_000);
    const adminUrl = process.env.TEST_DATABASE_URL;
    const database = `webhooks_restart_${process.pid}`;
    const databaseUrl =
      engineName === 'postgres' ? Object.assign(new URL(adminUrl!), { pathname: `/${database}` }).href : undefined;
    const onServer = async (sql: string) => {
      const admin = createDb({ databaseUrl: adminUrl, dataDir: '' });
      try {
        await admin.raw(sql);
      } finally {
        await admin.destroy();
      }
    };
    const dataDir = tempDir('street-paper-webhooks-');
    let server: RunningServer | undefined;
    let receiver: Receiver;
    // Short waits between tries, in this test only; production waits 30 s, 2 min, 10 min, ….
    const start = () =>
      startServer({ dataDir, databaseUrl, env: { WEBHOOK_RETRY_FIRST_MS: '100', SANDBOX_FEE_DELAY_MS: '0' } });

    before(async () => {
      if (databaseUrl) {
        await onServer(`drop database if exists "${database}" with (force)`);
        await onServer(`create database "${database}"`);
      } else {
        // The demo migrated and seeded once per process: the restart, not the first start, is under test.
        await seededCopy(dataDir);
      }
      receiver = await webhookReceiver('down');
    });
    after(async () => {
      await server?.stop();
      await receiver?.close();
      removeDir(dataDir);
      if (databaseUrl) await onServer(`drop database if exists "${database}" with (force)`);
    });

    it('the receiver gets each event id exactly once, each signature verified with the README’s code', async () => {
      server = await start();
      let token = (await loginWithPkce(server.url, 'office', 'office')).access_token;
      const call = async (path: string, body?: unknown) => {
        const response = await fetch(`${server!.url}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      };

      const endpoint = await call('/api/webhook-endpoints', {
        url: `${receiver.url}/erp`,
        description: 'ERP',
        eventTypes: [...eventTypes],
      });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      receiver.secret = endpoint.body.secret;

      // The bookings: a customer's order paid in the sandbox, refunded; another one's credit paid out
      // and reversed; copies bought at the counter; the day closed.
      const items = (await call('/api/items')).body as { id: number; name: string }[];
      const zeitung = items.find((item) => item.name === 'Zeitung')!.id;
      const buy = async (vendor: string) => {
        const placed = await call('/api/orders', { vendor, entries: [{ item: zeitung, quantity: 1 }], tip: 100 });
        assert.equal(placed.status, 201, JSON.stringify(placed.body));
        const back = new URL(await payInSandbox(server!.url, placed.body.checkoutUrl));
        const verified = await call(`/api/orders/verify${back.search}`);
        assert.equal(verified.body.status, 'paid', JSON.stringify(verified.body));
      };
      await buy('DEMO-1');
      const orders = (await call('/api/orders?range=[0,9]')).body as { id: number; status: string }[];
      const paidOrder = orders.find((o) => o.status === 'paid')!;
      assert.equal((await call(`/api/orders/${paidOrder.id}/refund`, {})).status, 200);
      await buy('DEMO-2');
      const open = await call('/api/payments/forpayout?vendor=DEMO-2');
      const payout = await call('/api/payments/payout', { vendor: 'DEMO-2', expectedAmount: open.body.balance });
      assert.equal(payout.status, 201, JSON.stringify(payout.body));
      assert.equal((await call(`/api/payments/payout/${payout.body.id}/reverse`, { reason: 'test' })).status, 200);
      const tills = (await call('/api/tills')).body.tills as { id: number; balance: number }[];
      const visit = await call('/api/counter/visits', {
        visitId: randomUUID(),
        vendor: 'DEMO-3',
        tillId: tills[0].id,
        items: [{ itemId: zeitung, quantity: 2 }],
        cash: 300,
        payOut: false,
        expectedCredit: 0,
      });
      assert.equal(visit.status, 201, JSON.stringify(visit.body));
      const balance = ((await call('/api/tills')).body.tills as { id: number; balance: number }[])[0].balance;
      const closed = await call(`/api/tills/${tills[0].id}/closes`, { counted: balance, expected: balance });
      assert.equal(closed.status, 201, JSON.stringify(closed.body));

      const deliveries = async () =>
        (
          await call(
            `/api/webhook-deliveries?range=[0,999]&filter=${encodeURIComponent(JSON.stringify({ endpointId: endpoint.body.id }))}`,
          )
        ).body as ListedDelivery[];
      const types = [
        'order.paid',
        'order.paid',
        'order.refunded',
        'payout.created',
        'payout.reversed',
        'counter.sale',
        'counter.day_closed',
      ];
      // The receiver answers 503: every delivery has been tried and is waiting for its next try.
      const tried = await until(async () => {
        const list = await deliveries();
        // A try still under way has no answer yet: each must have been answered 503 at least once.
        const answered = list.every((d) => d.status === 'pending' && /^HTTP 503/.test(d.lastError ?? ''));
        return list.length === types.length && answered && list;
      }, 'every delivery tried once while the receiver answers 503');
      assert.deepEqual(tried.map((d) => d.eventType).sort(), [...types].sort());
      assert.equal(receiver.received.length, 0);

      // The server stops with every delivery pending; the receiver goes away altogether (connections refused).
      assert.equal(await server.stop(), 0);
      await receiver.close();
      const stoppedAt = new Date();
      server = await start();
      token = (await loginWithPkce(server.url, 'office', 'office')).access_token;
      // The new process carries on: it tries again, and finds the receiver refusing connections.
      await until(async () => {
        const list = await deliveries();
        return list.every(
          (d) =>
            d.status === 'pending' && new Date(d.lastAttemptAt!) > stoppedAt && /ECONNREFUSED/.test(d.lastError ?? ''),
        );
      }, 'every delivery tried again by the restarted server');

      // The receiver comes back: every event arrives.
      receiver.answer = 'up';
      await receiver.open();
      const delivered = await until(async () => {
        const list = await deliveries();
        return list.every((d) => d.status === 'delivered') && list;
      }, 'every delivery delivered after the receiver came back');
      // One more round of the sender, seen by its work: one more order paid, its event delivered. A
      // second delivery of an earlier event would have been made by then.
      await buy('DEMO-4');
      const earlier = new Set(delivered.map((d) => d.eventId));
      await until(async () => {
        const list = await deliveries();
        const marker = list.find((d) => !earlier.has(d.eventId));
        return marker?.status === 'delivered' && receiver.received.some((got) => got.id === marker.eventId);
      }, 'the next order’s event delivered');

      const counts = new Map<string, number>();
      for (const got of receiver.received.filter((r) => earlier.has(r.id)))
        counts.set(got.id, (counts.get(got.id) ?? 0) + 1);
      assert.deepEqual([...counts.keys()].sort(), delivered.map((d) => d.eventId).sort(), 'every event arrived');
      assert.ok(
        [...counts.values()].every((n) => n === 1),
        `each exactly once: ${JSON.stringify([...counts])}`,
      );
      assert.ok(
        receiver.received.every((got) => got.verified),
        'every signature verifies with the README’s code',
      );
      assert.deepEqual(
        receiver.received
          .filter((got) => earlier.has(got.id))
          .map((got) => got.type)
          .sort(),
        [...types].sort(),
      );
    });
  });
}
