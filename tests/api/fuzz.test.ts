import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RouteDef } from '../../api/src/http/routes.ts';
import { itemCreateForm, itemUpdateForm } from '../../api/src/items/schema.ts';
import { accountBalances } from '../../api/src/ledger/queries.ts';
import { orderInput } from '../../api/src/orders/schema.ts';
import { payoutInput, reversalInput } from '../../api/src/payouts/schema.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { routes } from '../../api/src/routes.ts';
import { settingsForm, styleCss } from '../../api/src/settings/schema.ts';
import { commentInput, commentPatch } from '../../api/src/vendors/comments/schema.ts';
import { locationInput, locationPatch } from '../../api/src/vendors/locations/schema.ts';
import { vendorInput } from '../../api/src/vendors/schema.ts';
import { bookHistory } from '../support/books.ts';
import { describeApi, type ApiTest } from '../support/env.ts';
import { pdfBytes, pngBytes } from '../support/fixtures.ts';
import {
  describeRequest,
  requestsFor,
  send,
  signedWebhooks,
  type BodySchemas,
  type FuzzRequest,
  type FuzzResponse,
  type RequestSources,
} from '../support/fuzz.ts';
import { eventually, itemId, placeMainOrder } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// thousands of generated malformed requests over every route, as
// anonymous, vendor, office and forger. Not one may answer 5xx, break off or hang; every error is
// JSON with a message and without a stack trace or database text; and afterwards the books still
// add up. FUZZ_SEED and FUZZ_RUNS (per engine) vary the run; the default seed keeps CI reproducible.

const seed = Number(process.env.FUZZ_SEED ?? 20_261_121);
const runsPerEngine = (engine: string) => Number(process.env.FUZZ_RUNS ?? (engine === 'pglite' ? 10_000 : 2_000));

/** The body each route reads, so generated bodies look like valid ones and reach the checks behind the parser. */
const schemas: BodySchemas = {
  'PUT /api/settings': settingsForm,
  'PUT /api/settings/css': styleCss,
  'POST /api/items': itemCreateForm,
  'PUT /api/items/:id': itemUpdateForm,
  'POST /api/vendors': vendorInput,
  'PUT /api/vendors/:id': vendorInput,
  'POST /api/vendors/:id/locations': locationInput,
  'PATCH /api/vendors/:id/locations/:locId': locationPatch,
  'POST /api/vendors/:id/comments': commentInput,
  'PATCH /api/vendors/:id/comments/:cid': commentPatch,
  'POST /api/orders': orderInput,
  'POST /api/payments/payout': payoutInput,
  'POST /api/payments/payout/:id/reverse': reversalInput,
};

const key = (route: RouteDef) => `${route.method} ${route.path}`;

/** Reading routes first, changing ones next, deletions last, so the data the early routes need is still there. */
const fuzzOrder = [...routes].sort((a, b) => {
  const rank = (r: RouteDef) => (r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);
  return rank(a) - rank(b);
});

/** Signs of a server fault leaking out: a stack frame, a source path, PostgreSQL's or knex's own words. */
const leaks = [
  /\n\s+at .+:\d+:\d+/,
  /node_modules|\.ts:\d+/,
  /syntax error at or near|violates (?:check|foreign key|unique|not-null) constraint|duplicate key value|invalid input syntax|relation "[^"]+" does not exist|column "[^"]+"|out of range for type|\bknex\b|pglite/i,
];

/** What is wrong with an answer, or undefined when it is an acceptable one. */
function problem(request: FuzzRequest, response: FuzzResponse): string | undefined {
  if (response.error) return `no complete answer: ${response.error}`;
  if (response.status >= 500) return `answered ${response.status}`;
  if (response.status < 400 || request.method === 'HEAD') return leaked(response);
  if (/^application\/json/.test(String(response.headers['content-type']))) {
    let body: { message?: unknown };
    try {
      body = JSON.parse(response.text);
    } catch {
      return `answered ${response.status} with broken JSON`;
    }
    if (typeof body.message !== 'string' || !body.message.trim())
      return `answered ${response.status} without a message`;
  }
  return leaked(response);
}

/** Data answers and errors are searched for internals; pages and scripts of the apps are not data. */
function leaked(response: FuzzResponse): string | undefined {
  if (response.status < 400 && !/json|text\/(plain|csv|css)/.test(String(response.headers['content-type'])))
    return undefined;
  const leak = leaks.find((pattern) => pattern.test(response.text));
  return leak && `answered ${response.status} with server internals (${leak})`;
}

/** Real data to aim at: a history of sales and payouts, one order paid through the sandbox with its PDF link. */
async function prepare(t: ApiTest, shop: ListeningShop): Promise<Omit<RequestSources, 'schemas'>> {
  await bookHistory(t.db, { orders: 30 });
  const office = await t.office();
  const paid = await placeMainOrder(shop, t.db);
  await payInSandbox(shop.url, paid.checkoutUrl);
  const digital = await shop.http.post('/api/orders').send({
    vendor: 'DEMO-2',
    entries: [{ item: await itemId(t.db, 'Digitale Ausgabe'), quantity: 1 }],
    email: 'reader@example.org',
  });
  assert.equal(digital.status, 201, JSON.stringify(digital.body));
  await payInSandbox(shop.url, digital.body.checkoutUrl);
  await eventually(() => t.db('download_links').first('id'), 'the digital edition’s download link');
  await eventually(
    () => t.db('orders').where({ id: paid.id, status: 'paid' }).first('id'),
    'the sandbox payment booked',
  );

  const vendor = await t.db('vendors').where({ license_id: 'DEMO-1' }).first('id', 'email');
  const column = async (table: string, name: string, limit = 8) =>
    (await t.db(table).orderBy(name).limit(limit).pluck(name)).map(String);
  const ids = async (table: string) => (await t.db(table).orderBy('id').limit(6).pluck('id')).map(Number);
  const credits = (await shop.http.get('/api/vendors?range=[0,9]').set('Authorization', office)).body.map(
    (v: { credit: number }) => v.credit,
  );
  const numbers = [
    ...new Set([
      ...(await ids('vendors')),
      ...(await ids('items')),
      ...(await ids('orders')),
      ...(await ids('payouts')),
      ...(await ids('vendor_locations')),
      ...(await ids('vendor_comments')),
      ...credits,
    ]),
  ];
  const texts = [
    'DEMO-1',
    'DEMO-2',
    'DEMO-31',
    'demo-1',
    ' DEMO-1 ',
    vendor.email,
    paid.token,
    paid.sessionId,
    digital.body.order,
    ...(await column('download_links', 'id')),
    ...(await column('files', 'id', 4)),
    ...(await column('payouts', 'receipt_number', 3)),
  ];
  const params = {
    id: [...numbers.map(String), ...(await column('files', 'id', 4)), ...(await column('download_links', 'id'))],
    locId: (await ids('vendor_locations')).map(String),
    cid: (await ids('vendor_comments')).map(String),
    licenseId: ['DEMO-1', 'DEMO-2', 'demo-3', 'DEMO-31', 'DEMO-999'],
    token: [paid.token, digital.body.order, paid.token.slice(1)],
  };
  const print = await itemId(t.db, 'Zeitung');
  const edition = await itemId(t.db, 'Digitale Ausgabe');
  const itemIds = (await ids('items')).map(String);
  const fields: Record<string, unknown[]> = {
    vendor: ['DEMO-1', 'DEMO-2', 'DEMO-3'],
    entries: [
      [{ item: print, quantity: 1 }],
      [
        { item: print, quantity: 2 },
        { item: edition, quantity: 1 },
      ],
      [{ item: edition, quantity: 1 }],
    ],
    item: [print, edition],
    quantity: [1, 2, 3],
    tip: [0, 100, 150],
    email: ['reader@example.org', null],
    returnUrl: [null, ''],
    locale: ['en', 'de', null],
    lastName: ['Muster', null],
    address: ['Hauptstraße 1', null],
    expectedAmount: credits,
    reason: ['Counted twice'],
    licenseId: ['FUZZ-1', 'fuzz_2', 'DEMO-1'],
    firstName: ['Anna', 'Ünal'],
    name: ['Corner', 'Extra issue'],
    comment: ['Met at the corner'],
    latitude: [48.2082, null],
    longitude: [16.3738, null],
    workingTime: [{ kind: 'allDay' }, { kind: 'weekly', ranges: [{ day: 'mon', from: '08:00', to: '12:00' }] }],
    // The item form's fields, as the strings a browser form sends.
    price: ['300', '0'],
    order: ['5'],
    description: ['A special issue', ''],
    measure: [''],
    color: ['#aabbcc', ''],
    fontColor: ['#000', ''],
    maxOrderAmount: ['', '10'],
    licenseGroup: [''],
    ...Object.fromEntries(
      ['isMainProduct', 'takesOverTransactionCosts', 'isLicenseItem', 'isPdfItem', 'donationOnly', 'disabled'].map(
        (flag) => [flag, ['false', 'true']],
      ),
    ),
    image: [''],
    pdf: [''],
    mainItem: itemIds,
    licenseItem: itemIds,
    webshopIsClosed: ['false'],
  };
  return {
    pools: { numbers, texts, fields },
    params,
    tokens: {
      vendor: (await t.auth(['vendor'], { sub: 'fuzz-vendor', email: vendor.email, vendor: vendor.licenseId })).slice(
        'Bearer '.length,
      ),
      backoffice: office.slice('Bearer '.length),
    },
    files: { png: pngBytes(), pdf: pdfBytes() },
  };
}

interface LedgerRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  amount: number;
  kind: string;
  order_id: number | null;
  order_entry_id: number | null;
  payout_id: number | null;
  reversal_of: number | null;
}

const ledgerRows = (t: ApiTest): Promise<LedgerRow[]> =>
  t
    .db('ledger_rows')
    .orderBy('id')
    .select(
      'id',
      'sender_id',
      'receiver_id',
      'amount',
      'kind',
      'order_id',
      'order_entry_id',
      'payout_id',
      'reversal_of',
    );

const sum = (values: number[]) => values.reduce((a, b) => a + Number(b), 0);

/**
 * Every invariant of the books that must survive any request: double entry sums to zero, no amount
 * <= 0, no booked row changed or removed, each order booked exactly as its entries say and only
 * when paid, each payout settling exactly its amount, and the credits the office sees equal to the
 * ledger's open rows.
 */
async function assertBooksBalanced(t: ApiTest, shop: ListeningShop, before: LedgerRow[]): Promise<void> {
  const rows = await ledgerRows(t);
  assert.equal(sum((await accountBalances(t.db)).map((b) => b.balance)), 0, 'the balances of all accounts sum to zero');
  assert.deepEqual(
    rows.filter((r) => !(Number(r.amount) > 0)),
    [],
    'no ledger row with an amount <= 0',
  );

  const now = new Map(rows.map((r) => [Number(r.id), r]));
  for (const old of before) {
    const row = now.get(Number(old.id));
    assert.ok(row, `booked row ${old.id} was deleted`);
    // Paying out stamps open rows with the payout; nothing else about a booked row may change.
    assert.deepEqual(
      { ...row, payout_id: old.payout_id === null ? null : row.payout_id },
      old,
      `booked row ${old.id} was changed`,
    );
  }

  const orders: { id: number; status: string; fee: number | null }[] = await t
    .db('orders')
    .select('id', 'status', 'fee');
  const entries: { id: number; order_id: number; amount: number }[] = await t
    .db('order_entries')
    .select('id', 'order_id', 'amount');
  for (const order of orders) {
    const booked = rows.filter((r) => r.order_id === order.id);
    const kinds = (...k: string[]) => booked.filter((r) => k.includes(r.kind));
    const expected = entries
      .filter((e) => e.order_id === order.id && e.amount > 0)
      .map((e) => [e.id, Number(e.amount)])
      .sort();
    const isPaid = order.status === 'paid' || order.status === 'refunded';
    assert.deepEqual(
      kinds('sale', 'tip', 'licence')
        .map((r) => [r.order_entry_id, Number(r.amount)])
        .sort(),
      isPaid ? expected : [],
      `order ${order.id} (${order.status}) is booked as its entries say`,
    );
    assert.deepEqual(
      kinds('refund')
        .map((r) => [r.order_entry_id, Number(r.amount)])
        .sort(),
      order.status === 'refunded' ? expected : [],
      `order ${order.id} (${order.status}) has refund rows only when refunded`,
    );
    assert.deepEqual(
      kinds('fee').map((r) => Number(r.amount)),
      isPaid && order.fee ? [order.fee] : [],
      `order ${order.id}: its fee is booked once`,
    );
    assert.ok(kinds('fee_cover').length <= kinds('fee').length, `order ${order.id}: a fee cover only with a fee`);
  }

  const accounts: { id: number; vendor_id: number | null }[] = await t.db('ledger_accounts').select('id', 'vendor_id');
  const payouts: { id: number; vendor_id: number; amount: number; reversed_at: Date | null }[] = await t
    .db('payouts')
    .select('id', 'vendor_id', 'amount', 'reversed_at');
  for (const payout of payouts) {
    const account = accounts.find((a) => a.vendor_id === payout.vendor_id)!.id;
    const settled = rows.filter((r) => r.payout_id === payout.id && r.kind !== 'payout');
    const payoutRow = rows.filter((r) => r.payout_id === payout.id && r.kind === 'payout');
    assert.deepEqual(
      payoutRow.map((r) => Number(r.amount)),
      [Number(payout.amount)],
      `payout ${payout.id} has one cash row of its amount`,
    );
    assert.equal(
      sum(settled.map((r) => (r.receiver_id === account ? r.amount : -r.amount))),
      Number(payout.amount),
      `payout ${payout.id} settled exactly its amount`,
    );
    const reversal = rows.filter((r) => r.kind === 'payout_reversal' && r.reversal_of === payoutRow[0].id);
    assert.equal(reversal.length, payout.reversed_at ? 1 : 0, `payout ${payout.id} is reversed once or not at all`);
  }

  const listed = await shop.http.get('/api/vendors?range=[0,999]').set('Authorization', await t.office());
  assert.equal(listed.status, 200);
  for (const vendor of listed.body as { id: number; credit: number }[]) {
    const account = accounts.find((a) => a.vendor_id === vendor.id)?.id;
    const open = rows.filter((r) => r.payout_id === null && (r.receiver_id === account || r.sender_id === account));
    assert.equal(
      vendor.credit,
      sum(open.map((r) => (r.receiver_id === account ? r.amount : -r.amount))),
      `vendor ${vendor.id}: the credit shown is the ledger's open rows`,
    );
  }
}

describeApi('fuzz: generated malformed requests on every route', (t) => {
  let shop: ListeningShop;
  let sources: RequestSources;
  let booked: LedgerRow[];
  const sent = new Map<string, number>();
  const perRoute = () => Math.ceil(runsPerEngine(t.engine) / routes.length);

  before(async function () {
    this.timeout(120_000);
    // A listening app, so that orders reach the Stripe sandbox on the same server (PUBLIC_URL is its address).
    // The per-address order limit is lifted: refusals before it are what the fuzz is after, not 429s.
    shop = await listenShop(t, () => ({ orderRateLimit: 1_000_000 }));
    sources = { ...(await prepare(t, shop)), schemas };
    booked = await ledgerRows(t);
  });
  after(async () => {
    await shop?.close();
  });

  /** Runs `arbitrary` as a fast-check property; a failure names the request (shrunk), the answer and the seed. */
  async function fuzz(
    route: RouteDef,
    arbitrary: fc.Arbitrary<FuzzRequest>,
    numRuns: number,
    check = problem,
  ): Promise<void> {
    let last: { request: FuzzRequest; response: FuzzResponse; problem: string } | undefined;
    const details = await fc.check(
      fc.asyncProperty(arbitrary, async (request) => {
        const response = await send(shop.url, request);
        sent.set(key(route), (sent.get(key(route)) ?? 0) + 1);
        const found = check(request, response);
        if (found) last = { request, response, problem: found };
        return !found;
      }),
      { seed, numRuns },
    );
    if (!details.failed) return;
    const shown = last
      ? `${last.problem}\n${describeRequest(last.request)}\nanswer: ${last.response.text.slice(0, 1500)}`
      : String(details.errorInstance);
    assert.fail(
      `${key(route)} [${t.engine}] failed with FUZZ_SEED=${details.seed} after ${details.numRuns} requests:\n${shown}`,
    );
  }

  for (const route of fuzzOrder) {
    it(`${key(route)}: no 5xx, every error a JSON message without internals`, async function () {
      this.timeout(240_000);
      await fuzz(route, requestsFor(route, sources), perRoute());
    });
  }

  it('POST /api/webhooks/stripe: signed events that are not this shop’s business are 2xx no-ops', async function () {
    this.timeout(120_000);
    const received = (_: FuzzRequest, response: FuzzResponse) =>
      response.status === 200 && /"received":true/.test(response.text) ? undefined : `answered ${response.status}`;
    await fuzz(
      routes.find((r) => r.path === '/api/webhooks/stripe')!,
      signedWebhooks(sources.pools, (await sandboxCredentials(t.db)).webhookSecret),
      perRoute(),
      received,
    );
  });

  it('sent requests to every route, and the books still balance afterwards', async function () {
    this.timeout(60_000);
    const short = routes
      .filter((r) => (sent.get(key(r)) ?? 0) < perRoute())
      .map((r) => `${key(r)}: ${sent.get(key(r)) ?? 0}`);
    assert.deepEqual(short, [], 'routes that got fewer requests than planned');
    assert.ok(sum([...sent.values()]) >= runsPerEngine(t.engine));
    await assertBooksBalanced(t, shop, booked);
  });
});
