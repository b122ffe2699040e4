import assert from 'node:assert/strict';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import type { Config } from '../../api/src/foundations/config.ts';
import { fieldLabel } from '../../api/src/language/fields.ts';
import { messagesDe } from '../../api/src/language/messages-de.ts';
import { languageOf, money, tr, translate, type Param } from '../../api/src/language/messages.ts';
import { describeApi } from '../support/env.ts';
import { scanMessageIds } from '../support/message-ids.ts';
import { itemId } from '../support/orders.ts';
import { listedVendor, listenBooksShop, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// every refusal the shop and the back office can meet answers in the
// caller's language, German by default and for a language the API does not speak.

describe('API messages: the German catalog', function () {
  this.timeout(120_000);
  const scan = scanMessageIds();

  it('finds every message in api/src as one sentence with named placeholders, never assembled from pieces', () => {
    assert.deepEqual(scan.problems, []);
    assert.ok(scan.ids.size > 200, `only ${scan.ids.size} messages found: the scan misses some`);
  });

  it('has a German entry for every English message the code uses', () => {
    const missing = [...scan.ids].filter(([id]) => !Object.hasOwn(messagesDe, id)).map(([id, at]) => `${at[0]}: ${id}`);
    assert.deepEqual(missing, []);
  });

  it('has no entry that no code uses', () => {
    assert.deepEqual(
      Object.keys(messagesDe).filter((id) => !scan.ids.has(id)),
      [],
    );
  });

  it('keeps the placeholders of each sentence in its German one', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    // German may leave out an English detail word ({what}, {kind}) where its sentence needs none.
    const optional = new Set(['what', 'kind']);
    for (const [id, german] of Object.entries(messagesDe)) {
      const needed = placeholders(id).filter((name) => !optional.has(name));
      assert.deepEqual(
        placeholders(german).filter((name) => !optional.has(name)),
        needed,
        `placeholders of "${id}"`,
      );
    }
  });
});

describe('API messages: the caller’s language', () => {
  it('reads Accept-Language with q-values: de-AT, de-CH → de; en-GB → en; unknown or none → de', () => {
    const cases: [string | undefined, 'de' | 'en'][] = [
      [undefined, 'de'],
      ['', 'de'],
      ['fr', 'de'],
      ['*', 'de'],
      ['de-AT', 'de'],
      ['de-CH,de;q=0.9', 'de'],
      ['en', 'en'],
      ['en-GB', 'en'],
      ['EN-us', 'en'],
      ['fr-FR,fr;q=0.9,en;q=0.8,de;q=0.7', 'en'],
      ['en;q=0.2,de;q=0.8', 'de'],
      ['de;q=0,en', 'en'],
      ['en;q=abc', 'de'],
    ];
    for (const [header, language] of cases) assert.equal(languageOf(header), language, String(header));
  });

  it('formats amounts and days inside a message in the reader’s language', () => {
    const message = tr('The credit is now {amount}.', { amount: money(1250) });
    assert.equal(translate(message, 'de'), 'Das Guthaben beträgt jetzt 12,50 €.');
    assert.equal(translate(message, 'en'), 'The credit is now €12.50.');
  });
});

/** A refusal and the message id it must answer with. */
interface Refusal {
  title: string;
  status: number;
  id: string;
  params?: Record<string, Param>;
  /** A field that must carry its own message, and that message's id. */
  field?: [string, string, Record<string, Param>?];
  request: (http: supertest.Agent) => supertest.Test;
}

const callers: [string | undefined, 'de' | 'en'][] = [
  [undefined, 'de'],
  ['fr', 'de'],
  ['de-AT,de;q=0.9', 'de'],
  ['en', 'en'],
  ['en-GB,en;q=0.9', 'en'],
];

describeApi('API messages: every refusal of the shop and the back office, in German and English', (t) => {
  let shop: ListeningShop;
  let office = '';
  let vendor = '';
  let http: supertest.Agent;
  let limited: supertest.Agent;
  let zeitung = 0;
  before(async () => {
    // Clients without the suites' default language, and one with a vendor check allowance of one.
    const app = (config: Partial<Config> = {}) =>
      supertest.agent(buildApp({ db: t.db, config: { ...t.config, ...config } }).callback());
    http = app();
    limited = app({ vendorCheckRateLimit: 1 });
    shop = await listenBooksShop(t);
    office = await t.office();
    vendor = await t.auth(['vendor'], { sub: 'demo-1', vendor: 'DEMO-1' });
    zeitung = await itemId(t.db, 'Zeitung');
    await sell(shop, t.db, { vendor: 'DEMO-11', items: { Zeitung: 1 } });
  });
  after(() => shop.close());

  const order = (body: object) => (h: supertest.Agent) => h.post('/api/orders').send(body);
  const asOffice = (test: supertest.Test) => test.set('Authorization', office);
  const credit3 = money(300);

  const refusals = (): Refusal[] => [
    {
      title: 'vendor not found',
      status: 404,
      id: 'This ID is invalid',
      request: (h) => h.get('/api/vendors/check/NOBODY-42'),
    },
    {
      title: 'order validation: items not a list',
      status: 400,
      id: 'Please check the field "{field}": {problem}',
      params: { field: fieldLabel('entries'), problem: tr('Please send the items as a list.') },
      field: ['entries', 'Please send the items as a list.'],
      request: order({ vendor: 'DEMO-1', entries: 'many' }),
    },
    {
      title: 'order validation: a quantity of 0 (a message of zod’s own check, mapped to ours)',
      status: 400,
      id: 'Please check the field "{field}": {problem}',
      params: { field: fieldLabel('entries.0.quantity'), problem: tr('Please enter a whole quantity of at least 1.') },
      request: order({ vendor: 'DEMO-1', entries: [{ item: zeitung, quantity: 0 }] }),
    },
    {
      title: 'order validation: an unknown vendor',
      status: 400,
      id: 'This ID is invalid',
      field: ['vendor', 'This ID is invalid'],
      request: order({ vendor: 'NOBODY-42', entries: [{ item: zeitung, quantity: 1 }] }),
    },
    {
      title: 'order validation: a donation only',
      status: 400,
      id: 'Donation only is not allowed',
      request: order({ vendor: 'DEMO-1', entries: [], tip: 100 }),
    },
    {
      title: 'too many items: the total reaches the maximum (amounts in the reader’s format)',
      status: 400,
      id: 'The total of {total} is too high: an order must stay below {maximum}.',
      params: { total: money(15_000), maximum: money(15_000) },
      // 20 copies (the most of one item) at 3 € and a tip of 90 € reach the shop's 150 €.
      request: order({ vendor: 'DEMO-1', entries: [{ item: zeitung, quantity: 20 }], tip: 9000 }),
    },
    {
      title: 'body too large',
      status: 413,
      id: 'The request is too large; at most {kb} KB are accepted.',
      params: { kb: 256 },
      request: order({ vendor: 'DEMO-1', entries: [], padding: 'x'.repeat(300 * 1024) }),
    },
    {
      title: 'nested body',
      status: 400,
      id: 'The request is nested more than {levels} levels deep.',
      params: { levels: 32 },
      request: order(JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as object),
    },
    {
      title: 'not JSON',
      status: 400,
      id: 'The request body is not valid JSON.',
      request: (h) => h.post('/api/orders').set('Content-Type', 'application/json').send('{"vendor":'),
    },
    {
      title: 'unauthorised',
      status: 401,
      id: 'Please log in.',
      request: (h) => h.get('/api/vendors/'),
    },
    {
      title: 'forbidden',
      status: 403,
      id: 'You are not allowed to do this.',
      request: (h) => h.get('/api/vendors/').set('Authorization', vendor),
    },
    {
      title: 'no such endpoint',
      status: 404,
      id: 'There is no such endpoint.',
      request: (h) => h.get('/api/no-such-thing'),
    },
    {
      title: 'licence ID taken',
      status: 409,
      id: 'The licence ID "{licenseId}" is already taken by another vendor.',
      params: { licenseId: 'DEMO-1' },
      field: ['licenseId', 'This licence ID is already taken.'],
      request: (h) => asOffice(h.post('/api/vendors')).send({ licenseId: 'DEMO-1', firstName: 'Doppelt' }),
    },
    {
      title: 'an e-mail without "@" in the vendor form',
      status: 400,
      id: 'Please check the field "{field}": {problem}',
      params: { field: fieldLabel('email'), problem: tr('Please enter a valid email address.') },
      field: ['email', 'Please enter a valid email address.'],
      request: (h) => asOffice(h.post('/api/vendors')).send({ licenseId: 'NEU-1', firstName: 'Neu', email: 'neu' }),
    },
    {
      title: 'a price that is no whole number of cents in the item form',
      status: 400,
      id: 'Please check the field "{field}": {problem}',
      params: {
        field: fieldLabel('price'),
        problem: tr("Please enter the amount in the currency's smallest unit, for example {minor} for {amount}.", {
          minor: '150',
          amount: money(150),
        }),
      },
      request: (h) => asOffice(h.post('/api/items')).field('name', 'Neu').field('price', '1,50'),
    },
    {
      title: 'nothing to pay out',
      status: 409,
      id: 'No credits to pay out',
      field: ['vendor', 'This vendor has no credit to pay out.'],
      request: (h) => asOffice(h.post('/api/payments/payout/')).send({ vendor: 'DEMO-2', expectedAmount: 0 }),
    },
    {
      title: 'stale amount',
      status: 409,
      id: 'The credit has changed in the meantime: it is now {amount}. Please check the amount and pay out again.',
      params: { amount: credit3 },
      field: ['expectedAmount', 'The credit is now {amount}.', { amount: credit3 }],
      request: (h) => asOffice(h.post('/api/payments/payout/')).send({ vendor: 'DEMO-11', expectedAmount: 100 }),
    },
    {
      title: 'vendor with credit not deletable',
      status: 409,
      id: 'This vendor cannot be deleted: the credit is not zero ({credit}). Please pay it out or settle the debt first.',
      params: { credit: credit3 },
      request: (h) => asOffice(h.delete(`/api/vendors/${deletable}`)),
    },
    {
      title: 'a period that ends before it starts',
      status: 400,
      id: 'The period ends before it starts.',
      field: ['to', 'Please choose an end after the start.'],
      request: (h) => asOffice(h.get('/api/payments/statistics').query({ from: '2026-05-02', to: '2026-05-01' })),
    },
  ];
  let deletable = 0;
  before(async () => {
    deletable = (await listedVendor(t, office, 'DEMO-11')).id;
  });

  const expectIn = (res: supertest.Response, refusal: Refusal, language: 'de' | 'en', caller: string) => {
    const label = `${refusal.title}, Accept-Language ${caller}`;
    assert.equal(res.status, refusal.status, `${label}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.message, translate(tr(refusal.id, refusal.params), language), label);
    if (refusal.field) {
      const [field, id, params] = refusal.field;
      assert.equal(res.body.errors?.[field], translate(tr(id, params), language), `${label}, field ${field}`);
    }
    assert.match(String(res.headers.vary), /Accept-Language/i, label);
  };

  it('answers each refusal in German for no, German or an unknown language, and in English for English', async function () {
    this.timeout(120_000);
    for (const refusal of refusals()) {
      assert.notEqual(translate(tr(refusal.id, refusal.params), 'de'), translate(tr(refusal.id, refusal.params), 'en'));
      for (const [header, language] of callers) {
        const request = refusal.request(http);
        const res = await (header === undefined ? request : request.set('Accept-Language', header));
        expectIn(res, refusal, language, String(header));
      }
    }
  });

  it('says it in plain German where it matters most: the closed shop and the credit in euros', async () => {
    await t.db('settings').update({ webshop_is_closed: true });
    try {
      const closed = await order({ vendor: 'DEMO-1', entries: [{ item: zeitung, quantity: 1 }] })(http);
      assert.equal(closed.status, 409);
      assert.equal(
        closed.body.message,
        'Der Shop ist gerade wegen Wartung geschlossen. Bitte versuche es später noch einmal.',
      );
      const english = await order({ vendor: 'DEMO-1', entries: [{ item: zeitung, quantity: 1 }] })(http).set(
        'Accept-Language',
        'en-US',
      );
      assert.equal(english.body.message, 'The shop is closed for maintenance right now. Please try again later.');
    } finally {
      await t.db('settings').update({ webshop_is_closed: false });
    }
    const refused = await asOffice(http.delete(`/api/vendors/${deletable}`));
    assert.match(refused.body.message, /Guthaben ist nicht null \(3,00 €\)/);
  });

  it('writes CSV headers and its own labels in the caller’s language, one language per file', async () => {
    const csv = async (path: string, language?: string) => {
      const request = asOffice(http.get(path)).buffer(true);
      return (await (language ? request.set('Accept-Language', language) : request)).text;
    };
    const german = await csv('/api/payments/accounts?format=csv');
    const english = await csv('/api/payments/accounts?format=csv', 'en');
    assert.match(german, /^\uFEFF"Konto";"Kontoart";"Lizenz";"Anfangsbestand"/);
    assert.match(german, /"Kundschaft"/);
    assert.doesNotMatch(german, /Customers|Account|Newspaper/);
    assert.match(english, /^\uFEFF"Account";"Account kind";"Licence";"Opening balance"/);
    assert.match(english, /"Customers"/);
    assert.doesNotMatch(english, /Kundschaft|Konto|Zeitung/);
    const bookings = await csv('/api/payments?format=csv', 'fr');
    assert.match(bookings, /^\uFEFF"Buchung";"Datum";"Art";"Von"/);
    assert.match(bookings, /"Verkauf"/);
    assert.doesNotMatch(bookings, / \/ Sale|Customers/);
  });

  it('answers the rate limit in the caller’s language', async () => {
    let res = await limited.get('/api/vendors/check/DEMO-1');
    for (let tries = 0; res.status !== 429 && tries < 5; tries++) res = await limited.get('/api/vendors/check/DEMO-1');
    const id = 'Too many vendor IDs were looked up from this connection. Please wait a minute and try again.';
    for (const [header, language] of callers) {
      const request = limited.get('/api/vendors/check/DEMO-1');
      res = await (header === undefined ? request : request.set('Accept-Language', header));
      // A new minute may begin in between: then the first look-up of it passes, and the next is refused.
      if (res.status === 200) res = await limited.get('/api/vendors/check/DEMO-1').set('Accept-Language', header ?? '');
      expectIn(res, { title: 'rate limit', status: 429, id, request: () => request }, language, String(header));
    }
  });
});
