import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type supertest from 'supertest';
import { fieldLabel } from '../../api/src/language/fields.ts';
import { describeApi } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';

// Every refusal of the back office's forms, as the office reads it in German: the API names a field
// by the label its screen shows ("Bitte das Feld „Ist ein PDF-Produkt“ prüfen"), never by its name
// in the code ("isPdfItem"). The walk sends each form every field the back office's screens have
// (`source="…"` in admin/src/backoffice) with a value of the wrong kind, then an empty form, and
// reads the message and each field's message.

/** The field names the back office's forms use, read from the sources of these folders. */
function backOfficeFields(...folders: string[]): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name))
        for (const match of fs.readFileSync(file, 'utf8').matchAll(/source=["{]'?([a-zA-Z]+)/g)) names.add(match[1]);
    }
  };
  for (const folder of folders) walk(path.resolve('admin/src/backoffice', folder));
  return [...names].sort();
}

/** A name as code writes it: "isPdfItem", "adviserNumber". */
const camelCase = /\b[a-z]+[A-Z][A-Za-z]*\b/;

interface Refusal {
  status: number;
  body: { message?: string; errors?: Record<string, string> };
}

describeApi('field names in refusals', (t) => {
  let office = '';
  let vendorId = 0;
  let itemId = 0;
  before(async () => {
    office = await t.office();
    const vendor = await t.http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: 'FL-1', firstName: 'Fee' });
    assert.equal(vendor.status, 201, JSON.stringify(vendor.body));
    vendorId = vendor.body.id;
    const items = await t.http.get('/api/items').set('Authorization', office);
    itemId = items.body[0].id;
  });

  const as = (request: supertest.Test, language: 'de' | 'en') =>
    request.set('Authorization', office).set('Accept-Language', language);

  /** What the office would read: no field named as code, and every field it names has a label. */
  function readsAsWords(where: string, res: Refusal) {
    assert.ok(res.status >= 400 && res.status < 500, `${where}: ${res.status} ${JSON.stringify(res.body)}`);
    const texts = [res.body.message ?? '', ...Object.values(res.body.errors ?? {})];
    for (const text of texts) assert.doesNotMatch(text, camelCase, `${where}: "${text}"`);
    for (const field of Object.keys(res.body.errors ?? {}).filter((key) => key !== '_'))
      assert.notEqual(fieldLabel(field), field, `${where}: the field "${field}" has a label`);
  }

  it('names every field of the JSON forms by its label, in German', async () => {
    const fields = backOfficeFields('');
    const forms: [method: 'post' | 'put', url: string][] = [
      ['post', '/api/vendors'],
      ['put', `/api/vendors/${vendorId}`],
      ['post', `/api/vendors/${vendorId}/comments`],
      ['post', `/api/vendors/${vendorId}/locations`],
      ['put', '/api/accounting/datev/settings'],
      ['post', '/api/counter/visits'],
      ['post', '/api/tills'],
      ['post', '/api/tills/1/movements'],
      ['post', '/api/tills/1/closes'],
      ['post', '/api/payments/payout'],
      ['post', '/api/webhook-endpoints'],
      ['put', '/api/tills/1/fiscal'],
    ];
    let named = 0;
    for (const [method, url] of forms) {
      const body: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field, { wrong: true }]));
      // A form that takes only its own fields says which others it does not know: those go.
      const english = await as(t.http[method](url), 'en').send(body);
      const unknown = /^Unknown [^:]+: (.*)\.$/.exec(english.body.errors?._ ?? '')?.[1]?.split(', ') ?? [];
      for (const field of unknown) delete body[field];
      if (method === 'put' && url.startsWith('/api/vendors/')) body.id = vendorId;
      const wrong = await as(t.http[method](url), 'de').send(body);
      readsAsWords(`${method} ${url} with wrong values`, wrong);
      assert.match(wrong.body.message ?? '', /^Bitte das Feld „[^„“]+“ prüfen|^[A-ZÄÖÜ]/, url);
      named += Object.keys(wrong.body.errors ?? {}).length;
      readsAsWords(`${method} ${url} empty`, await as(t.http[method](url), 'de').send({}));
    }
    assert.ok(named > 50, `the walk met ${named} refused fields`);
  });

  it('names every field of the product and settings forms by its label, in German', async () => {
    const wrongValues = (fields: string[]) => Object.fromEntries(fields.map((field) => [field, '{wrong']));
    const product = backOfficeFields('products');
    readsAsWords('post /api/items', await withForm(as(t.http.post('/api/items'), 'de'), wrongValues(product)));
    readsAsWords(
      `put /api/items/${itemId}`,
      await withForm(as(t.http.put(`/api/items/${itemId}`), 'de'), wrongValues(product)),
    );
    const settings = backOfficeFields('settings', 'qrcodes');
    readsAsWords('put /api/settings', await withForm(as(t.http.put('/api/settings'), 'de'), wrongValues(settings)));
  });

  it('says which field in the label of the reader’s language', async () => {
    const res = await withForm(as(t.http.post('/api/items'), 'de'), { name: 'A', price: '1', isPdfItem: 'true' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.message, /^Bitte das Feld „Ist ein PDF-Produkt“ prüfen: /);
    const english = await withForm(as(t.http.post('/api/items'), 'en'), { name: 'A', price: '1', isPdfItem: 'true' });
    assert.match(english.body.message, /^Please check the field "Is a PDF item": /);
    assert.ok('isPdfItem' in english.body.errors, 'the form still finds its field by name');
  });
});
