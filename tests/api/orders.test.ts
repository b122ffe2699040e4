import assert from 'node:assert/strict';
import { setLogSilent } from '../../api/src/foundations/log.ts';
import { stripeClient } from '../../api/src/stripe/adapter.ts';
import { assertRefused } from '../support/assertions.ts';
import { describeApi } from '../support/env.ts';
import { itemId, placeMainOrder, sandboxFee } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';
import { localDay } from '../../api/src/foundations/period.ts';

// Placing orders: every refusal rule of product.md with its message, prices from
// our own data, the rate limit, Stripe failing, receipts and the back office list.

interface Case {
  name: string;
  /** Prepares the data the case needs. */
  given?: (t: { db: import('../../api/src/db/connection.ts').Db }) => Promise<unknown>;
  body: (items: Record<string, number>) => unknown;
  status?: number;
  field?: string;
  message: string;
}

const cases: Case[] = [
  ...[0, -1, 1.5, '2'].map((quantity) => ({
    name: `quantity ${JSON.stringify(quantity)}`,
    body: (i: Record<string, number>) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity }] }),
    field: 'entries.0.quantity',
    message: 'Please enter a whole quantity of at least 1.',
  })),
  {
    name: 'a negative tip',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 1 }], tip: -100 }),
    field: 'tip',
    message: 'The tip must not be negative.',
  },
  ...[1.5, '1,50', '150'].map((tip) => ({
    name: `a tip of ${JSON.stringify(tip)}`,
    body: (i: Record<string, number>) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 1 }], tip }),
    field: 'tip',
    message: "Please enter the tip in the currency's smallest unit (0 or more), for example 150 for €1.50.",
  })),
  {
    name: 'an unknown item',
    body: () => ({ vendor: 'DEMO-1', entries: [{ item: 999_999, quantity: 1 }] }),
    field: 'entries.0.item',
    message: 'The item 999999 is not available.',
  },
  {
    name: 'a disabled item',
    given: ({ db }) => db('items').where({ name: 'Kalender 2027' }).update({ disabled: true }),
    body: (i) => ({
      vendor: 'DEMO-1',
      entries: [
        { item: i.print, quantity: 1 },
        { item: i.calendar, quantity: 1 },
      ],
    }),
    field: 'entries.1.item',
    message: '"Kalender 2027" is not available.',
  },
  {
    name: 'a deleted item',
    given: ({ db }) => db('items').where({ name: 'Kalender 2027' }).update({ deleted_at: db.fn.now() }),
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.calendar, quantity: 1 }] }),
    field: 'entries.0.item',
    message: 'The item {calendar} is not available.',
  },
  {
    name: 'a licence item on its own',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.licence, quantity: 1 }], email: 'reader@example.org' }),
    field: 'entries.0.item',
    message: '"Digitale Ausgabe – Lizenz" cannot be bought on its own.',
  },
  {
    name: 'the same item twice',
    body: (i) => ({
      vendor: 'DEMO-1',
      entries: [
        { item: i.print, quantity: 1 },
        { item: i.print, quantity: 2 },
      ],
    }),
    field: 'entries.1.item',
    message: 'Each item can be in the order only once; please change its quantity instead.',
  },
  {
    name: 'a tip without any item',
    body: () => ({ vendor: 'DEMO-1', entries: [], tip: 200 }),
    field: 'entries',
    message: 'Donation only is not allowed',
  },
  {
    name: 'an empty cart',
    body: () => ({ vendor: 'DEMO-1', entries: [] }),
    field: 'entries',
    message: 'Please choose at least one item.',
  },
  {
    name: 'a digital edition without an e-mail address',
    body: (i) => ({
      vendor: 'DEMO-1',
      entries: [
        { item: i.print, quantity: 1 },
        { item: i.digital, quantity: 1 },
      ],
      email: '  ',
    }),
    field: 'email',
    message: 'Your item Digitale Ausgabe needs an email address',
  },
  {
    name: 'a digital edition with an invalid e-mail address',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.digital, quantity: 1 }], email: 'reader@example' }),
    field: 'email',
    message: 'Please enter a valid email address.',
  },
  {
    name: 'a print order with an invalid e-mail address',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 1 }], email: 'not an address' }),
    field: 'email',
    message: 'Please enter a valid email address.',
  },
  {
    name: 'an unknown vendor',
    body: (i) => ({ vendor: 'NOBODY-1', entries: [{ item: i.print, quantity: 1 }] }),
    field: 'vendor',
    message: 'This ID is invalid',
  },
  {
    name: 'a deactivated vendor',
    body: (i) => ({ vendor: 'DEMO-OFF', entries: [{ item: i.print, quantity: 1 }] }),
    field: 'vendor',
    message: 'This ID is invalid',
  },
  {
    name: 'a deleted vendor',
    given: ({ db }) => db('vendors').where({ license_id: 'DEMO-7' }).update({ deleted_at: db.fn.now() }),
    body: (i) => ({ vendor: 'DEMO-7', entries: [{ item: i.print, quantity: 1 }] }),
    field: 'vendor',
    message: 'This ID is invalid',
  },
  {
    name: 'no vendor',
    body: (i) => ({ entries: [{ item: i.print, quantity: 1 }] }),
    field: 'vendor',
    message: 'This ID is invalid',
  },
  {
    name: 'a closed shop',
    given: ({ db }) => db('settings').update({ webshop_is_closed: true }),
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 1 }] }),
    status: 409,
    message: 'The shop is closed for maintenance right now. Please try again later.',
  },
  {
    name: 'a total at the maximum order amount',
    given: ({ db }) => db('settings').update({ max_order_amount: 6000 }),
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 20 }] }),
    field: 'entries',
    message: 'The total of €60.00 is too high: an order must stay below €60.00.',
  },
  {
    // The shop's "+" stops at the same number (api/src/orders/limits.ts).
    name: 'more of an item without a maximum of its own than the shop’s limit',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 21 }] }),
    field: 'entries.0.quantity',
    message: 'You can order at most 20 × "Zeitung".',
  },
  {
    name: 'a cart id that is not one the shop makes',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 1 }], cartId: 'short' }),
    field: 'cartId',
    message: 'The cart id must be 16 to 64 letters, digits, "-" or "_".',
  },
  {
    name: 'a tip that lifts the total above the maximum order amount',
    given: ({ db }) => db('settings').update({ max_order_amount: 2000 }),
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.print, quantity: 1 }], tip: 1800 }),
    field: 'entries',
    message: 'The total of €21.00 is too high: an order must stay below €20.00.',
  },
  {
    name: 'more of an item than its maximum',
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.calendar, quantity: 6 }] }),
    field: 'entries.0.quantity',
    message: 'You can order at most 5 × "Kalender 2027".',
  },
  {
    name: 'a total below what a card payment can charge',
    given: ({ db }) => db('items').where({ name: 'Kalender 2027' }).update({ price: 20 }),
    body: (i) => ({ vendor: 'DEMO-1', entries: [{ item: i.calendar, quantity: 1 }] }),
    field: 'entries',
    message: 'Card payments need a total of at least €0.50.',
  },
  { name: 'a list instead of an order', body: () => [], message: 'Please send the order as a JSON object.' },
  {
    name: 'items that are not a list',
    body: () => ({ vendor: 'DEMO-1', entries: 'Zeitung' }),
    field: 'entries',
    message: 'Please send the items as a list.',
  },
];

async function demoItems(db: import('../../api/src/db/connection.ts').Db): Promise<Record<string, number>> {
  return {
    print: await itemId(db, 'Zeitung'),
    digital: await itemId(db, 'Digitale Ausgabe'),
    licence: await itemId(db, 'Digitale Ausgabe – Lizenz'),
    calendar: (await db('items').where({ name: 'Kalender 2027' }).first('id')).id,
  };
}

describeApi('orders: every refusal with its message', (t) => {
  for (const c of cases) {
    it(`refuses ${c.name}`, async () => {
      const items = await demoItems(t.db);
      await c.given?.(t);
      try {
        const res = await t.http.post('/api/orders').send(c.body(items) as object);
        assertRefused(res, c.status ?? 400, c.field);
        const message = c.message.replace('{calendar}', String(items.calendar));
        assert.ok(res.body.message.includes(message), `"${res.body.message}" does not say "${message}"`);
        if (c.field) assert.equal(res.body.errors[c.field], message);
        assert.equal((await t.db('orders').count({ n: '*' }))[0].n, 0, 'nothing is stored');
      } finally {
        // The next case expects the demo data as seeded.
        if (c.given) await t.reset();
      }
    });
  }
});

describeApi('orders: placing them', (t) => {
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000 }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  it('prices everything from the database and ignores prices, totals and states sent by the client', async () => {
    const print = await itemId(t.db, 'Zeitung');
    const res = await shop.http.post('/api/orders').send({
      vendor: 'demo-1',
      entries: [{ item: print, quantity: 2, price: 1, unitPrice: 1, amount: 1 }],
      tip: 100,
      price: 1,
      total: 1,
      amountTotal: 1,
      status: 'paid',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.order, /^[A-Za-z0-9_-]{43}$/);
    const order = await t.db('orders').where({ token: res.body.order }).first();
    assert.deepEqual(
      [order.amount_total, order.tip, order.status, order.currency, order.locale],
      [700, 100, 'pending', 'eur', 'de'],
    );
    const session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(order.stripe_session_id);
    assert.deepEqual([session.amount_total, session.currency, session.metadata?.order], [700, 'eur', String(order.id)]);
    assert.equal(session.success_url, `${shop.url}/success?order=${res.body.order}&session_id={CHECKOUT_SESSION_ID}`);
    assert.equal(session.cancel_url, `${shop.url}/failure?order=${res.body.order}`);
    const entries = await t
      .db('order_entries')
      .where({ order_id: order.id })
      .orderBy('id')
      .select('kind', 'quantity', 'unit_price', 'amount');
    assert.deepEqual(entries, [
      { kind: 'sale', quantity: 2, unit_price: 300, amount: 600 },
      { kind: 'tip', quantity: null, unit_price: null, amount: 100 },
    ]);
  });

  it('stores a digital edition with its licence share and the customer’s e-mail and language', async () => {
    const digital = await itemId(t.db, 'Digitale Ausgabe');
    const res = await shop.http.post('/api/orders').send({
      vendor: 'DEMO-2',
      entries: [{ item: digital, quantity: 2 }],
      email: ' reader@example.org ',
      locale: 'en-GB',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const order = await t.db('orders').where({ token: res.body.order }).first();
    assert.deepEqual([order.amount_total, order.tip, order.email, order.locale], [600, 0, 'reader@example.org', 'en']);
    const entries = await t
      .db('order_entries')
      .where({ order_id: order.id })
      .orderBy('id')
      .select('kind', 'quantity', 'unit_price', 'amount');
    assert.deepEqual(entries, [
      { kind: 'sale', quantity: 2, unit_price: 300, amount: 600 },
      { kind: 'licence', quantity: 2, unit_price: 50, amount: 100 },
    ]);
    const session = await stripeClient(t.db, shop.config).checkout.sessions.retrieve(order.stripe_session_id);
    assert.equal(session.customer_email, 'reader@example.org');
  });

  it('refuses too many orders from one address with 429', async () => {
    const limited = await listenShop(t, () => ({ orderRateLimit: 1 }));
    try {
      const answers = [];
      // Three orders span at most two minutes of the limit, so at least one is refused.
      for (let i = 0; i < 3; i++)
        answers.push(
          await limited.http
            .post('/api/orders')
            .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }] }),
        );
      const refused = answers.filter((res) => res.status === 429);
      assert.ok(refused.length >= 1, JSON.stringify(answers.map((res) => res.status)));
      assert.ok(answers.every((res) => res.status === 201 || res.status === 429));
      assert.equal(
        refused[0].body.message,
        'Too many orders from this connection. Please wait a minute and try again.',
      );
      assert.match(refused[0].headers['retry-after'], /^\d+$/);
      assert.equal((await t.db('orders').count({ n: '*' }))[0].n, 3 - refused.length);
    } finally {
      await limited.close();
    }
  });
});

describeApi('orders: one order per cart however often "Pay" is tapped', (t) => {
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, () => ({ orderRateLimit: 10_000 }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const orderCount = async () => Number((await t.db('orders').count({ n: '*' }))[0].n);
  const pay = async (cartId: string) =>
    shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }], cartId });

  it('answers ten concurrent requests with the same cart id with one order and one checkout', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => pay('cart-0123456789abcdef')));
    assert.deepEqual(
      answers.map((res) => res.status),
      Array(10).fill(201),
      JSON.stringify(answers.map((res) => res.body)),
    );
    assert.equal(new Set(answers.map((res) => res.body.order)).size, 1);
    assert.equal(new Set(answers.map((res) => res.body.checkoutUrl)).size, 1);
    assert.equal(await orderCount(), 1);
    // A later tap gets the same order too; another cart is another order.
    assert.equal((await pay('cart-0123456789abcdef')).body.order, answers[0].body.order);
    assert.equal((await pay('cart-fedcba9876543210')).status, 201);
    assert.equal(await orderCount(), 2);
  });

  it('refuses a cart whose payment has ended or was paid, so the shop starts a new one', async () => {
    const first = await pay('cart-ended-000000000');
    await t.db('orders').where({ token: first.body.order }).update({ status: 'expired' });
    const ended = await pay('cart-ended-000000000');
    assertRefused(ended, 409, 'cartId');
    assert.equal(ended.body.message, 'This payment has ended. Please tap "Pay" again.');

    const paid = await pay('cart-paid-0000000000');
    await t.db('orders').where({ token: paid.body.order }).update({ status: 'paid', paid_at: t.db.fn.now() });
    const again = await pay('cart-paid-0000000000');
    assertRefused(again, 409, 'cartId');
    assert.equal(again.body.message, 'This cart has already been paid.');
    assert.equal(await orderCount(), 2);
  });

  it('answers "Try again" of an order paid meanwhile with that order’s receipt, and places no second order', async () => {
    const first = await pay('cart-first-device-00');
    // A second device took "Try again" while the order was unpaid: its own cart, the order it retries.
    const retry = async () =>
      shop.http.post('/api/orders').send({
        vendor: 'DEMO-1',
        entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }],
        cartId: 'cart-second-device-0',
        retryOf: first.body.order,
      });
    const back = await payInSandbox(shop.url, first.body.checkoutUrl);
    assert.equal((await shop.http.get(`/api/orders/verify${new URL(back).search}`)).body.status, 'paid');

    const answer = await retry();
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.order, first.body.order);
    assert.equal(answer.body.checkoutUrl, null);
    assert.equal(answer.body.receipt.status, 'paid');
    assert.deepEqual(
      answer.body.receipt.lines.map((line: { name: string; quantity: number }) => [line.name, line.quantity]),
      [['Zeitung', 1]],
    );
    assert.equal(await orderCount(), 1, 'no second order to pay');

    // A token of no order, or of one not paid, places the order as always.
    const unpaid = await pay('cart-unpaid-00000000');
    for (const retryOf of ['not-a-token', unpaid.body.order]) {
      const placed = await shop.http.post('/api/orders').send({
        vendor: 'DEMO-1',
        entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }],
        retryOf,
      });
      assert.equal(placed.status, 201, JSON.stringify(placed.body));
      assert.notEqual(placed.body.order, unpaid.body.order);
    }
    assert.equal(await orderCount(), 4);
  });
});

describeApi('orders: Stripe refusing the shop’s key', (t) => {
  it('answers 502 with a clear message and leaves no paid order and no ledger row', async () => {
    await t.reset();
    // A listening instance with the sandbox answers Stripe's API; the shop under test has the sandbox
    // off and a key Stripe does not know.
    const stripeStandIn = await listenShop(t);
    const shop = await listenShop(t, () => ({
      stripe: { secretKey: 'sk_test_not_a_real_key', apiUrl: stripeStandIn.url },
    }));
    try {
      const res = await shop.http
        .post('/api/orders')
        .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }], tip: 100 });
      assert.equal(res.status, 502);
      assert.deepEqual(res.body, { message: 'Card payments are not available right now. Please try again later.' });
      const orders = await t.db('orders').select('status', 'stripe_session_id');
      assert.deepEqual(orders, [{ status: 'failed', stripe_session_id: null }]);
      assert.equal((await t.db('ledger_rows').count({ n: '*' }))[0].n, 0);
    } finally {
      await shop.close();
      await stripeStandIn.close();
    }
  });
});

describeApi('orders: receipts and the back office', (t) => {
  // Webhooks are not accepted here (another secret), so orders stay pending until asked for.
  let shop: ListeningShop;
  before(async () => {
    shop = await listenShop(t, (c) => ({
      orderRateLimit: 10_000,
      stripe: { ...c.stripe, webhookSecret: 'whsec_not_the_sandbox' },
    }));
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const verify = (back: string) => shop.http.get(`/api/orders/verify${new URL(back).search}`);

  it('shows the receipt by its token: vendor, lines, tip, total, time of payment; no internals', async () => {
    const order = await placeMainOrder(shop, t.db);
    const pending = await shop.http.get(`/api/orders/${order.token}/`);
    assert.equal(pending.status, 200);
    assert.equal(pending.body.status, 'pending');
    assert.equal(pending.body.paidAt, null);

    const receipt = (await verify(await payInSandbox(shop.url, order.checkoutUrl))).body;
    assert.deepEqual(Object.keys(receipt).sort(), [
      'createdAt',
      'currency',
      'downloads',
      'emailHint',
      'licenseId',
      'lines',
      'mail',
      'number',
      'order',
      'paidAt',
      'refundedAt',
      'status',
      'tip',
      'total',
      'vendor',
    ]);
    assert.equal(receipt.order, order.token);
    assert.equal(receipt.status, 'paid');
    assert.equal(receipt.vendor, 'Anna');
    // The number staff find it by, the badge to go back to, where a PDF went (shortened: the
    // vendor reads this page).
    assert.equal(receipt.number, (await t.db('orders').where({ token: order.token }).first()).id);
    assert.equal(receipt.licenseId, 'DEMO-1');
    assert.equal(receipt.emailHint, null);
    assert.equal(receipt.mail, null, 'no PDF mail for a print order');
    assert.deepEqual(receipt.lines, [
      {
        item: await itemId(t.db, 'Zeitung'),
        name: 'Zeitung',
        // What the shop shows in English.
        nameEn: 'Newspaper',
        image: null,
        kind: 'print',
        quantity: 1,
        unitPrice: 300,
        amount: 300,
      },
    ]);
    assert.deepEqual([receipt.tip, receipt.total, receipt.currency, receipt.downloads], [100, 400, 'eur', []]);
    assert.ok(Date.parse(receipt.paidAt) >= Date.parse(receipt.createdAt));
    // A reload shows the same receipt.
    assert.deepEqual((await shop.http.get(`/api/orders/${order.token}`)).body, receipt);

    await t.db('settings').update({ use_vendor_license_id_in_shop: true });
    assert.equal((await shop.http.get(`/api/orders/${order.token}`)).body.vendor, 'DEMO-1');
  });

  it('answers a receipt, which the shop asks for until the payment is booked, with one query and no write', async () => {
    const placed = await shop.http.post('/api/orders').send({
      vendor: 'DEMO-1',
      entries: [{ item: await itemId(t.db, 'Digitale Ausgabe'), quantity: 2 }],
      tip: 50,
      email: 'reader@example.org',
    });
    assert.equal(placed.status, 201);
    await verify(await payInSandbox(shop.url, placed.body.checkoutUrl));
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    t.db.on('query', count);
    try {
      const receipt = await shop.http.get(`/api/orders/${placed.body.order}`);
      assert.equal(receipt.status, 200);
      // Everything the receipt shows came with that one query: the lines, the tip and the link.
      assert.equal(receipt.body.lines.length, 1);
      assert.equal(receipt.body.lines[0].quantity, 2);
      assert.equal(receipt.body.tip, 50);
      assert.equal(receipt.body.downloads.length, 1);
      assert.ok(Date.parse(receipt.body.downloads[0].expiresAt) > Date.now());
      assert.equal(queries.length, 1, queries.join('; '));
      assert.doesNotMatch(queries[0], /^\s*(insert|update|delete)/i);
    } finally {
      t.db.off('query', count);
    }
  });

  it('places an order in three statements: the vendor (settings and items from the copy it names), the order with its entries and the client’s count, the session', async () => {
    const item = await itemId(t.db, 'Zeitung');
    // This process's copy of the settings and items is read once; the order then takes them from there.
    assert.equal((await shop.http.get('/api/vendors/check/DEMO-1/')).status, 200);
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    t.db.on('query', count);
    try {
      const placed = await shop.http.post('/api/orders').send({ vendor: 'DEMO-1', entries: [{ item, quantity: 2 }] });
      assert.equal(placed.status, 201);
    } finally {
      t.db.off('query', count);
    }
    // The sandbox standing in for Stripe keeps its data in the same database, in transactions of its
    // own (and a savepoint within, which keeps a refused request's answer): those are not the
    // order's statements (placing one opens no transaction).
    const ours = queries.filter((sql) => !/stripe_sandbox_|^(BEGIN|COMMIT|(RELEASE )?SAVEPOINT \w+);/.test(sql));
    assert.equal(ours.length, 3, ours.join('; '));
    assert.ok(!ours.some((sql) => /from "(settings|items)"/.test(sql)), 'settings and items come from the copy');
  });

  it('wakes the webhook sender and the outbox after a payment only when they have something to send', async () => {
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    const pay = async (entries: { item: number; quantity: number }[], email?: string) => {
      const placed = await shop.http.post('/api/orders').send({ vendor: 'DEMO-1', entries, email });
      assert.equal(placed.status, 201);
      queries.length = 0;
      t.db.on('query', count);
      try {
        await verify(await payInSandbox(shop.url, placed.body.checkoutUrl));
        // Both are woken after the commit, in the background. A fixed pause, since what this shows is
        // mostly an absence (no wake-up for a printed copy), and an absence has nothing to wait on:
        // a wake-up's query follows the commit within milliseconds, well inside the pause.
        await new Promise((resolve) => setTimeout(resolve, 300));
      } finally {
        t.db.off('query', count);
      }
      return {
        claims: queries.filter((sql) => /with claimed as/.test(sql)).length,
        outbox: queries.filter((sql) => /^update "outbox"/.test(sql)).length,
      };
    };
    // No endpoint takes order.paid, and a printed copy sends no mail.
    assert.deepEqual(await pay([{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }]), { claims: 0, outbox: 0 });
    // A digital edition queues its mail: the outbox is woken for it.
    const digital = await pay([{ item: await itemId(t.db, 'Digitale Ausgabe'), quantity: 1 }], 'reader@example.org');
    assert.equal(digital.claims, 0);
    assert.ok(digital.outbox >= 1, 'the outbox looks for the queued mail');
  });

  it('marks an order paid with its protocol entry and its order.paid event in one statement after the booking', async () => {
    await t.db('webhook_endpoints').insert({
      url: 'https://erp.example.org/hooks/shop',
      event_types: ['order.paid'],
      secret: `whsec_${'x'.repeat(40)}`,
    });
    const placed = await shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }] });
    assert.equal(placed.status, 201);
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    t.db.on('query', count);
    try {
      assert.equal((await verify(await payInSandbox(shop.url, placed.body.checkoutUrl))).body.status, 'paid');
    } finally {
      t.db.off('query', count);
    }
    const writes = (table: string) => queries.filter((sql) => new RegExp(`insert into "?${table}"? `, 'i').test(sql));
    const [marked, ...more] = queries.filter((sql) => /update "?orders"? set "?status"? = /i.test(sql));
    assert.equal(more.length, 0, queries.join('; '));
    assert.deepEqual(writes('protocol_entries'), [marked], 'the entry is written by the same statement');
    assert.deepEqual(writes('webhook_events'), [marked], 'and so is the event');
    const booked = writes('ledger_rows');
    assert.equal(booked.length, 1, queries.join('; '));
    assert.ok(queries.indexOf(booked[0]) < queries.indexOf(marked), 'after the booking');

    const order = await t.db('orders').where({ token: placed.body.order }).first('id', 'status', 'paid_at');
    assert.equal(order.status, 'paid');
    const entries = await t.db('protocol_entries').where({ action: 'payment.confirmed', record_id: String(order.id) });
    assert.equal(entries.length, 1);
    assert.equal(entries[0].details.amount, 300);
    const events = await t.db('webhook_events').where({ type: 'order.paid' }).select('id', 'data');
    assert.equal(events.length, 1);
    assert.equal(events[0].data.orderId, order.id);
    assert.equal(events[0].data.paidAt, order.paid_at.toISOString(), 'the time it was paid');
    assert.equal((await t.db('webhook_deliveries').where({ event_id: events[0].id })).length, 1);
  });

  it('lists a digital edition as digital with its download link once paid', async () => {
    const digital = await itemId(t.db, 'Digitale Ausgabe');
    const placed = await shop.http
      .post('/api/orders')
      .send({ vendor: 'DEMO-1', entries: [{ item: digital, quantity: 1 }], email: 'reader@example.org' });
    assert.equal(placed.status, 201);
    assert.deepEqual((await shop.http.get(`/api/orders/${placed.body.order}`)).body.downloads, []);
    const receipt = (await verify(await payInSandbox(shop.url, placed.body.checkoutUrl))).body;
    assert.equal(receipt.lines[0].kind, 'digital');
    assert.equal(receipt.downloads.length, 1);
    assert.equal(receipt.downloads[0].itemName, 'Digitale Ausgabe');
    assert.match(receipt.downloads[0].url, /^\/pdf\/[A-Za-z0-9_-]{32}$/);
    assert.equal(receipt.emailHint, 'r…@example.org');
  });

  it('keeps the receipt token and the secret key out of the log', async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array) => lines.push(String(chunk)) > 0;
    setLogSilent(false);
    const secretKey = 'sk_test_do_not_log_this_key';
    const refused = await listenShop(t, () => ({ stripe: { secretKey, apiUrl: shop.url } }));
    let token: string;
    try {
      const order = await placeMainOrder(shop, t.db);
      token = order.token;
      await shop.http.get(`/api/orders/${token}/`);
      await verify(await payInSandbox(shop.url, order.checkoutUrl));
      assert.equal(
        (
          await refused.http
            .post('/api/orders')
            .send({ vendor: 'DEMO-1', entries: [{ item: await itemId(t.db, 'Zeitung'), quantity: 1 }] })
        ).status,
        502,
      );
    } finally {
      setLogSilent(process.env.TEST_LOG !== '1');
      process.stdout.write = write;
      await refused.close();
    }
    assert.ok(
      lines.some((l) => l.includes('"path":"/api/orders/…"')),
      'the receipt request was logged',
    );
    assert.ok(
      lines.some((l) => l.includes('checkout session failed')),
      'the refused key was logged',
    );
    assert.deepEqual(
      lines.filter((l) => l.includes(token) || l.includes(secretKey) || l.includes('do_not_log')),
      [],
    );
  });

  it('answers "Invalid payment confirmation" to a wrong token', async () => {
    await placeMainOrder(shop, t.db);
    for (const token of ['x'.repeat(43), 'not-a-token', 'verify-me']) {
      const res = await shop.http.get(`/api/orders/${token}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.message, 'Invalid payment confirmation');
    }
    const res = await shop.http.get('/api/orders/verify').query({ order: 'x'.repeat(43), session_id: 'cs_test_x' });
    assert.deepEqual([res.status, res.body.message], [404, 'Invalid payment confirmation']);
  });

  it('lists orders for staff with filters, without receipt tokens', async () => {
    const office = await t.office();
    const first = await placeMainOrder(shop, t.db, { vendor: 'DEMO-1' });
    const second = await placeMainOrder(shop, t.db, { vendor: 'DEMO-2', tip: 0 });
    await verify(await payInSandbox(shop.url, second.checkoutUrl));
    const list = (query: Record<string, unknown> = {}) =>
      shop.http.get('/api/orders/').query(query).set('Authorization', office);

    const all = await list();
    assert.equal(all.status, 200);
    assert.equal(all.headers['content-range'], 'orders 0-1/2');
    assert.deepEqual(
      all.body.map((o: { id: number }) => o.id),
      [second.id, first.id],
    );
    assert.ok(!JSON.stringify(all.body).includes(first.token), 'no receipt token');
    const paid = all.body[0];
    assert.deepEqual(
      [paid.status, paid.vendorLicenseId, paid.amountTotal, paid.tip, paid.fee, paid.stripeSessionId],
      ['paid', 'DEMO-2', 300, 0, 30, second.sessionId],
    );

    const ids = async (filter: object) =>
      (await list({ filter: JSON.stringify(filter) })).body.map((o: { id: number }) => o.id);
    assert.deepEqual(await ids({ status: 'pending' }), [first.id]);
    assert.deepEqual(await ids({ status: ['pending', 'paid'] }), [second.id, first.id]);
    assert.deepEqual(
      await ids({
        vendor: await t
          .db('vendors')
          .where({ license_id: 'DEMO-1' })
          .first('id')
          .then((v) => v.id),
      }),
      [first.id],
    );
    const today = localDay(new Date(), t.config.timeZone);
    assert.deepEqual(await ids({ from: today, to: today }), [second.id, first.id]);
    assert.deepEqual(await ids({ to: '2020-01-01' }), []);
    for (const filter of [{ status: 'lost' }, { from: 'yesterday' }, { vendor: 'DEMO-1' }]) {
      assertRefused(await list({ filter: JSON.stringify(filter) }), 400);
    }
    for (const vendor of [0, 3_000_000_000]) {
      const refused = await list({ filter: JSON.stringify({ vendor }) });
      assertRefused(refused, 400);
      assert.equal(refused.body.message, 'The filter "vendor" must be a vendor id.', `for ${vendor}`);
    }
  });

  it('lets staff ask Stripe about an order now', async () => {
    const office = await t.office();
    const order = await placeMainOrder(shop, t.db);
    await payInSandbox(shop.url, order.checkoutUrl);
    assert.equal((await shop.http.get(`/api/orders/${order.token}`)).body.status, 'pending', 'the webhook was refused');

    const res = await shop.http.post(`/api/orders/${order.id}/reconcile`).set('Authorization', office);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.id, res.body.status, res.body.fee], [order.id, 'paid', sandboxFee(400)]);
    assert.equal((await t.db('ledger_rows').where({ order_id: order.id }).count({ n: '*' }))[0].n, 4);

    assertRefused(await shop.http.post('/api/orders/999999/reconcile').set('Authorization', office), 404);
    await t.db('orders').where({ id: order.id }).update({ stripe_session_id: null });
    assertRefused(await shop.http.post(`/api/orders/${order.id}/reconcile`).set('Authorization', office), 409);
  });
});
