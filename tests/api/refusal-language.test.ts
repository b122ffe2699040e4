import assert from 'node:assert/strict';
import type supertest from 'supertest';
import type { z } from 'zod';
import { datevSettingsForm } from '../../api/src/accounting/datev-settings.ts';
import { closeInput, movementInput, tillInput, tillLocationInput, visitInput } from '../../api/src/counter/schema.ts';
import { fiscalInput } from '../../api/src/fiscal/routes.ts';
import type { RouteDef } from '../../api/src/http/routes.ts';
import { itemCreateForm, itemUpdateForm } from '../../api/src/items/schema.ts';
import { benefitSchemeKeys } from '../../api/src/ledger/benefit.ts';
import { messagesDe } from '../../api/src/language/messages-de.ts';
import { disputeDecision, orderInput } from '../../api/src/orders/schema.ts';
import { payoutInput, reversalInput } from '../../api/src/payouts/schema.ts';
import { routes } from '../../api/src/routes.ts';
import { benefitSchemeForm } from '../../api/src/settings/benefit-scheme.ts';
import { settingsForm } from '../../api/src/settings/schema.ts';
import { commentInput, commentPatch } from '../../api/src/vendors/comments/schema.ts';
import { locationInput, locationPatch } from '../../api/src/vendors/locations/schema.ts';
import { vendorInput, vendorStateInput } from '../../api/src/vendors/schema.ts';
import { endpointChange, endpointInput } from '../../api/src/webhooks-out/schema.ts';
import { describeApi } from '../support/env.ts';
import { itemId } from '../support/orders.ts';

// Every route of api/src/routes.ts is sent what it refuses: ids that are none, query parameters that
// mean nothing, and for each field of each form a value of every wrong kind, then the refusals the
// domains make of well-formed input. Each refusal is read in German and in English: the German one
// may hold no English word and no English sentence of the catalogue, the English one no German word.

/** The fields each route's body has, by the schema it is read with; null for a body without fields. */
const bodies: Record<string, z.ZodType | null> = {
  'PUT /api/settings': settingsForm,
  'PUT /api/settings/css': null,
  'POST /api/items': itemCreateForm,
  'PUT /api/items/:id': itemUpdateForm,
  'POST /api/vendors': vendorInput,
  'PUT /api/vendors/:id': vendorInput,
  'PATCH /api/vendors/:id': vendorStateInput,
  'POST /api/vendors/:id/locations': locationInput,
  'PATCH /api/vendors/:id/locations/:locId': locationPatch,
  'POST /api/vendors/:id/comments': commentInput,
  'PATCH /api/vendors/:id/comments/:cid': commentPatch,
  'PUT /api/settings/benefit-scheme': benefitSchemeForm,
  'POST /api/orders': orderInput,
  'POST /api/disputes/:id/decision': disputeDecision,
  'POST /api/payments/payout': payoutInput,
  'POST /api/payments/payout/:id/reverse': reversalInput,
  'POST /api/counter/visits': visitInput,
  'POST /api/tills': tillInput,
  'PUT /api/tills/:id/location': tillLocationInput,
  'POST /api/tills/:id/movements': movementInput,
  'POST /api/tills/:id/closes': closeInput,
  'PUT /api/tills/:id/fiscal': fiscalInput,
  'POST /api/webhooks/stripe': null,
  'POST /api/webhook-endpoints': endpointInput,
  'PUT /api/webhook-endpoints/:id': endpointChange,
  'PUT /api/accounting/datev/settings': datevSettingsForm,
};

const key = (route: RouteDef) => `${route.method} ${route.path}`;

/** The field names of an object schema, through the refinements and defaults around it. */
function fieldsOf(schema: z.ZodType): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === 'object') return Object.keys(def.shape as object);
  const wrapped = def.in ?? def.innerType ?? def.schema;
  return wrapped ? fieldsOf(wrapped as z.ZodType) : [];
}

// Wrong values of every kind: missing, of another type, empty, too long, negative, fractional, too
// large, a list, an object, a bad date ("qqq" is no colour, address or JSON either). Texts are
// nonsense in both languages, as a refusal may quote them.
const wrongJson: unknown[] = [
  null,
  true,
  'qqq',
  '',
  'q'.repeat(6000),
  -1,
  1.5,
  2 ** 40,
  [],
  ['qqq'],
  [{}],
  {},
  '2026-13-45',
];
const wrongForm = ['', 'qqq', '-1', '1,5', '99999999999', 'q'.repeat(6000)];
/** Query parameters routes read; each is sent alone with a value no route accepts. */
const queryNames = ['from', 'to', 'filter', 'sort', 'range', 'format', 'table', 'till'];

/** English words no German sentence of ours holds (words both languages share are left out). */
const englishWords =
  /\b(the|must|only|item|field|fields|invalid|required|should|cannot|can|expected|received|string|number|please|is|not|be|this|with|of|to|and|or|for|has|have|are|value|enter|check|send|already|taken|does|there|too|least|most|allowed|found|missing|wrong|choose|one|licence|payout|credit)\b/i;
/** German words no English sentence of ours holds. */
const germanWords =
  /\b(bitte|muss|müssen|nicht|feld|felds|und|oder|ist|ein|eine|einen|der|das|kein|keine|wert|prüfen|eingeben|gültig|ungültig|zahl|betrag|für|mit|nur|wird|werden|wählen|senden|bereits|höchstens|mindestens|gibt)\b/i;

/** English sentences of the catalogue whose German differs: none may reach a German reader as it is. */
const englishSentences = Object.entries(messagesDe)
  .filter(([id, german]) => id !== german)
  .map(([id]) => id.split(/\{\w+\}/)[0].trim())
  .filter((start) => start.split(' ').length > 2);

/**
 * A text without what a refusal quotes of the request (a field's or a filter's name, a value) or of
 * the API's syntax: query parameters, JSON shapes, event types such as order.paid, media types.
 */
const ownWords = (text: string) =>
  text
    .replace(/„[^“]*“|“[^”]*”|"[^"]*"|‘[^’]*’/g, ' ')
    .replace(/\?\w+=\S*|\{[^}]*\}|\w+(?:[._]\w+)+/g, ' ')
    .replace(/\([a-z]+\/[a-z+-]+\)/g, ' ');

interface Probe {
  what: string;
  request: (http: supertest.Agent) => supertest.Test;
}

describeApi('Refusals: no English word in German, no German word in English', (t) => {
  let office = '';
  let vendor = '';
  let zeitung = 0;
  /** The DATEV settings as stored, so that a change of one of them reaches the checks across them. */
  let datev: { accounts: Record<string, string> } & Record<string, unknown> = { accounts: {} };
  const tested: string[] = [];
  const problems: string[] = [];

  before(async () => {
    office = await t.office();
    vendor = await t.auth(['vendor'], { sub: 'demo-1', vendor: 'DEMO-1' });
    zeitung = await itemId(t.db, 'Zeitung');
    // What the screen reads beside the settings (each chart's defaults) is no setting to send back.
    const { chartDefaults: _, ...stored } = (
      await t.http.get('/api/accounting/datev/settings').set('Authorization', office)
    ).body as typeof datev;
    datev = stored;
  });

  /** Sends a probe in German and in English and notes every word of the other language in the refusal. */
  async function expectOwnLanguage(probe: Probe): Promise<void> {
    for (const language of ['de', 'en'] as const) {
      const res = await probe.request(t.http).set('Accept-Language', language);
      // An accepted request is accepted in either language; only a refusal has words to read.
      if (res.status < 400) return;
      if (res.status >= 500) problems.push(`${probe.what}: answered ${res.status}`);
      const body = res.body as { message?: unknown; errors?: Record<string, unknown> };
      const texts = [body.message, ...Object.values(body.errors ?? {})].map(String);
      tested.push(...texts);
      // A field is named by the label its screen shows (api/src/language/fields.ts), never by its API name.
      const named = (field: string) => (language === 'de' ? `Feld „${field}“` : `field "${field}"`);
      const unlabelled = Object.keys(body.errors ?? {}).find((field) => String(body.message).includes(named(field)));
      if (unlabelled) problems.push(`${probe.what} [${language}]: the field "${unlabelled}" has no label`);
      for (const text of texts) {
        const own = ownWords(text);
        const foreign = (language === 'de' ? englishWords : germanWords).exec(own);
        if (foreign) problems.push(`${probe.what} [${language}]: "${foreign[1]}" in "${text}"`);
        if (/\{\w+\}/.test(text)) problems.push(`${probe.what} [${language}]: a placeholder left in "${text}"`);
        const sentence = language === 'de' && englishSentences.find((start) => text.includes(start));
        if (sentence) problems.push(`${probe.what} [de]: the English "${sentence}…" in "${text}"`);
      }
    }
  }

  const withCaller = (route: RouteDef, test: supertest.Test) =>
    route.access === 'public' ? test : test.set('Authorization', route.access === 'vendor' ? vendor : office);

  const call =
    (route: RouteDef, path = route.path.replace(/:\w+/g, '1')) =>
    (http: supertest.Agent) =>
      withCaller(route, http[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path));

  /** What every route is sent: each path parameter that is no id or names nothing, each query parameter with nonsense. */
  function probesOf(route: RouteDef): Probe[] {
    const probes: Probe[] = [];
    for (const [param] of route.path.matchAll(/:\w+/g))
      for (const value of ['qqq', '999999'])
        probes.push({
          what: `${key(route)} with ${param} = ${value}`,
          request: call(route, route.path.replace(param, value).replace(/:\w+/g, '1')),
        });
    if (route.method === 'GET')
      for (const name of queryNames)
        probes.push({
          what: `${key(route)}?${name}=qqq`,
          request: (http) => call(route)(http).query({ [name]: 'qqq' }),
        });
    if (!route.body) return probes;
    const schema = bodies[key(route)];
    probes.push({
      what: `${key(route)} with a body of the wrong kind`,
      request: (http) => call(route)(http).set('Content-Type', 'text/plain').send('qqq'),
    });
    if (route.body === 'json')
      for (const body of ['qqq', '[]', '{}', '{"qqq":'])
        probes.push({
          what: `${key(route)} with ${body}`,
          request: (http) => call(route)(http).set('Content-Type', 'application/json').send(body),
        });
    for (const field of schema ? fieldsOf(schema) : [])
      if (route.body === 'multipart')
        for (const value of wrongForm)
          probes.push({
            what: `${key(route)} with ${field} = ${value.slice(0, 20)}`,
            request: (http) => call(route)(http).field(field, value),
          });
      else
        for (const value of wrongJson)
          probes.push({
            what: `${key(route)} with ${field} = ${JSON.stringify(value).slice(0, 20)}`,
            request: (http) => call(route)(http).send({ [field]: value }),
          });
    return probes;
  }

  /** The refusals domains make of well-formed input, beside the checks of each field. */
  const domainRefusals = (): Probe[] => {
    const item = (fields: Record<string, string>) => (http: supertest.Agent) => {
      const test = http.post('/api/items').set('Authorization', office);
      for (const [name, value] of Object.entries({ name: 'Qqq', price: '300', ...fields })) test.field(name, value);
      return test;
    };
    const asOffice = (test: supertest.Test) => test.set('Authorization', office);
    return [
      { what: 'a PDF item that is no licence item', request: item({ isPdfItem: 'true', isLicenseItem: 'false' }) },
      { what: 'a PDF item without its PDF', request: item({ isPdfItem: 'true', isLicenseItem: 'true' }) },
      { what: 'a donation-only item', request: item({ donationOnly: 'true' }) },
      {
        what: 'a taken licence ID',
        request: (http) => asOffice(http.post('/api/vendors')).send({ licenseId: 'DEMO-1', firstName: 'Qqq' }),
      },
      {
        what: 'an order of a donation only',
        request: (http) => http.post('/api/orders').send({ vendor: 'DEMO-1', entries: [], tip: 100 }),
      },
      {
        what: 'an order above the maximum',
        request: (http) =>
          http.post('/api/orders').send({ vendor: 'DEMO-1', entries: [{ item: zeitung, quantity: 20 }], tip: 9000 }),
      },
      {
        what: 'an order of a quantity of 0',
        request: (http) =>
          http.post('/api/orders').send({ vendor: 'DEMO-1', entries: [{ item: zeitung, quantity: 0 }] }),
      },
      {
        what: 'a payout of nothing',
        request: (http) => asOffice(http.post('/api/payments/payout')).send({ vendor: 'DEMO-2', expectedAmount: 0 }),
      },
      {
        what: 'a webhook to the host itself',
        request: (http) =>
          asOffice(http.post('/api/webhook-endpoints')).send({
            url: 'https://localhost./qqq',
            eventTypes: ['order.paid'],
          }),
      },
      ...[
        [{ day: 'mon', from: '10:00', to: '09:00' }],
        [
          { day: 'mon', from: '08:00', to: '10:00' },
          { day: 'mon', from: '09:00', to: '11:00' },
        ],
      ].map((ranges) => ({
        what: `a place's working time of ${JSON.stringify(ranges)}`,
        request: (http: supertest.Agent) =>
          asOffice(http.post('/api/vendors/1/locations')).send({
            name: 'Qqq',
            latitude: 48.2,
            longitude: 16.37,
            workingTime: { kind: 'weekly', ranges },
          }),
      })),
      {
        what: 'benefit bands that do not rise',
        request: (http) =>
          asOffice(http.put('/api/settings/benefit-scheme')).send({
            scheme: benefitSchemeKeys[0],
            bands: [
              { upTo: 1000, percent: 10 },
              { upTo: 500, percent: 20 },
            ],
            warnPercent: 10,
            tipsFreeUpTo: null,
          }),
      },
      ...[
        { fiscalYearMonth: 2, fiscalYearDay: 30 },
        { accounts: { ...datev.accounts, cash: '1', bank: '1' } },
        { vendorBase: '123456789' },
      ].map((change) => ({
        what: `DATEV settings with ${JSON.stringify(change)}`,
        request: (http: supertest.Agent) =>
          asOffice(http.put('/api/accounting/datev/settings')).send({ ...datev, ...change }),
      })),
      {
        what: 'a period that ends before it starts',
        request: (http) =>
          asOffice(http.get('/api/payments/statistics')).query({ from: '2026-05-02', to: '2026-05-01' }),
      },
    ];
  };

  it('answers every refusal of every route and form in German without English words, and in English without German ones', async function () {
    this.timeout(600_000);
    const unnamed = routes.filter((route) => route.body && !Object.hasOwn(bodies, key(route))).map(key);
    assert.deepEqual(unnamed, [], 'each route with a body has its fields named in `bodies`');
    // The domains' refusals first, while the demo data is as seeded; then reading routes, deletions last.
    for (const probe of domainRefusals()) await expectOwnLanguage(probe);
    const rank = (route: RouteDef) => (route.method === 'GET' ? 0 : route.method === 'DELETE' ? 2 : 1);
    for (const route of [...routes].sort((a, b) => rank(a) - rank(b)))
      for (const probe of probesOf(route)) await expectOwnLanguage(probe);
    assert.ok(tested.length > 1000, `only ${tested.length} refusals read: the probes miss the forms`);
    assert.deepEqual([...new Set(problems)], []);
  });
});
