import assert from 'node:assert/strict';
import { limits } from '../../api/src/http/body.ts';
import { describeApi } from '../support/env.ts';
import { jpegBytes, pdfBytes, pngBytes, webpBytes, withForm, type FormFile } from '../support/fixtures.ts';

type Fields = Record<string, string | number | boolean>;

const publicFields = [
  'color',
  'description',
  'fontColor',
  'id',
  'image',
  'isDigital',
  'isMainProduct',
  'maxOrderAmount',
  'measure',
  'name',
  'order',
  'price',
].sort();
const backofficeFields = [
  ...publicFields,
  'createdAt',
  'disabled',
  'donationOnly',
  'isLicenseItem',
  'isPdfItem',
  'licenseGroup',
  'licenseItem',
  'nameEn',
  'descriptionEn',
  'pdf',
  'takesOverTransactionCosts',
  'updatedAt',
  'counterPrice',
  'vatRate',
].sort();

describeApi('items', (t) => {
  let office = '';
  let counter = 0;
  const unique = (name: string) => `${name} ${++counter}`;

  before(async () => {
    office = await t.office();
  });

  const post = (fields: Fields, files?: Record<string, FormFile>) =>
    withForm(t.http.post('/api/items').set('Authorization', office), fields, files);
  const put = (id: number | string, fields: Fields, files?: Record<string, FormFile>) =>
    withForm(t.http.put(`/api/items/${id}`).set('Authorization', office), fields, files);
  const get = (id: number | string) => t.http.get(`/api/items/${id}`).set('Authorization', office);

  async function create(fields: Fields, files?: Record<string, FormFile>) {
    const res = await post({ name: unique('Item'), price: 300, ...fields }, files);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }
  const licence = (fields: Fields = {}) =>
    create({ name: unique('Licence'), price: 50, isLicenseItem: true, ...fields });

  function assertFieldError(
    res: { status: number; body: { message: string; errors?: Record<string, string> } },
    field: string,
    message: RegExp,
  ) {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.ok(res.body.errors?.[field], `expected an error for "${field}", got ${JSON.stringify(res.body)}`);
    assert.match(res.body.errors[field], message);
    assert.match(res.body.message, message);
  }

  describe('GET /api/items (the shop)', () => {
    it('lists enabled, sellable items, higher order first, with public fields only and never a PDF', async () => {
      const low = await create({ order: 5 });
      const high = await create({ order: 50 });
      const disabled = await create({ order: 60, disabled: true });
      const withPdf = await create(
        { name: unique('PDF licence'), price: 50, isLicenseItem: true, isPdfItem: true },
        { pdf: { bytes: pdfBytes(), name: 'issue.pdf' } },
      );
      const digital = await create({ order: 40, licenseItem: withPdf.id });

      const res = await t.http.get('/api/items/');
      assert.equal(res.status, 200);
      assert.ok(Array.isArray(res.body));
      const ids = res.body.map((i: { id: number }) => i.id);
      assert.ok(ids.includes(low.id) && ids.includes(high.id) && ids.includes(digital.id));
      assert.ok(
        ids.indexOf(high.id) < ids.indexOf(digital.id) && ids.indexOf(digital.id) < ids.indexOf(low.id),
        'sorted by order, higher first',
      );
      assert.ok(!ids.includes(disabled.id), 'a disabled item is not for sale');
      assert.ok(!ids.includes(withPdf.id), 'a licence item is not sold on its own');
      for (const item of res.body) assert.deepEqual(Object.keys(item).sort(), publicFields);
      const shown = res.body.find((i: { id: number }) => i.id === digital.id);
      assert.equal(shown.isDigital, true);
      assert.equal(res.body.find((i: { id: number }) => i.id === low.id).isDigital, false);
      const pdfId = withPdf.pdf.url.split('/').pop();
      assert.ok(!res.text.includes(pdfId) && !res.text.includes('/api/files/'), 'no PDF reference reaches the shop');
    });

    it('keeps the name and description staff entered in English, and gives the shop each in its language, German where none was entered', async () => {
      const both = await create({
        name: unique('Kalender'),
        description: 'Wandkalender',
        nameEn: 'Calendar',
        descriptionEn: 'Wall calendar',
      });
      assert.equal(both.nameEn, 'Calendar');
      assert.equal(both.descriptionEn, 'Wall calendar');
      const german = await create({ name: unique('Postkarte'), description: 'Eine Karte' });
      assert.equal(german.nameEn, '');
      const nameOnly = await create({ name: unique('Buch'), description: 'Ein Buch', nameEn: 'Book' });

      const shop = async (language: string) => {
        const res = await t.http.get('/api/items/').set('Accept-Language', language);
        const listed = (id: number) =>
          (res.body as { id: number; name: string; description: string }[]).find((item) => item.id === id)!;
        return (id: number) => [listed(id).name, listed(id).description];
      };
      const english = await shop('en-GB,en;q=0.9');
      assert.deepEqual(english(both.id), ['Calendar', 'Wall calendar']);
      // No English text: the shop shows the German one in English too.
      assert.deepEqual(english(german.id), [german.name, 'Eine Karte']);
      assert.deepEqual(english(nameOnly.id), ['Book', 'Ein Buch']);
      const germanShop = await shop('de-AT');
      assert.deepEqual(germanShop(both.id), [both.name, 'Wandkalender']);

      const renamed = await put(both.id, { nameEn: '' });
      assert.equal(renamed.body.nameEn, '');
      assert.equal(renamed.body.descriptionEn, 'Wall calendar', 'a field not sent keeps its text');
      const search = await t.http
        .get('/api/items/backoffice')
        .query({ filter: JSON.stringify({ q: 'Book' }) })
        .set('Authorization', office);
      assert.deepEqual(
        search.body.map((item: { id: number }) => item.id),
        [nameOnly.id],
        'the back office finds an item by its English name',
      );
      assertFieldError(await put(both.id, { nameEn: 'x'.repeat(201) }), 'nameEn', /at most 200/);
    });

    it('sorts equal orders by id', async () => {
      const a = await create({ order: 2_000_000_000 });
      const b = await create({ order: 2_000_000_000 });
      const ids = (await t.http.get('/api/items')).body.map((i: { id: number }) => i.id);
      assert.ok(ids.indexOf(a.id) < ids.indexOf(b.id));
      assert.equal(ids.indexOf(a.id), 0, 'the highest order comes first');
    });
  });

  describe('POST /api/items', () => {
    it('creates an item from a form, with an image, and answers all fields', async () => {
      const png = pngBytes([1, 2, 3]);
      const res = await post(
        {
          name: '  Kalender 2026 ',
          description: 'Zwölf Monate',
          price: '1200',
          measure: 'Stück',
          order: '-3',
          color: '#aabbcc',
          fontColor: '#FFF',
          maxOrderAmount: '5',
          takesOverTransactionCosts: 'on',
          disabled: 'false',
          licenseGroup: '',
          donationOnly: 'false',
        },
        { image: { bytes: png, name: 'kalender.png' } },
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), backofficeFields);
      const { id, image, createdAt, updatedAt, ...rest } = res.body;
      assert.ok(Number.isInteger(id));
      assert.match(image, /^\/files\/[0-9a-f-]{36}$/);
      assert.ok(!Number.isNaN(Date.parse(createdAt)) && !Number.isNaN(Date.parse(updatedAt)));
      assert.deepEqual(rest, {
        name: 'Kalender 2026',
        description: 'Zwölf Monate',
        nameEn: '',
        descriptionEn: '',
        price: 1200,
        measure: 'Stück',
        order: -3,
        color: '#aabbcc',
        fontColor: '#FFF',
        maxOrderAmount: 5,
        isMainProduct: false,
        isDigital: false,
        takesOverTransactionCosts: true,
        isLicenseItem: false,
        licenseItem: null,
        licenseGroup: null,
        isPdfItem: false,
        pdf: null,
        donationOnly: false,
        disabled: false,
        counterPrice: null,
        vatRate: null,
      });
      const served = await t.http.get(image).buffer(true);
      assert.equal(served.status, 200);
      assert.equal(served.headers['content-type'], 'image/png');
      assert.ok(Buffer.from(served.body).equals(png));
      assert.deepEqual((await get(id)).body, res.body);
    });

    it('accepts JPEG and WebP images, recognised by their bytes', async () => {
      for (const [bytes, type] of [
        [jpegBytes(), 'image/jpeg'],
        [webpBytes(), 'image/webp'],
      ] as const) {
        const item = await create({}, { image: { bytes, name: 'photo.bin' } });
        const served = await t.http.get(item.image);
        assert.equal(served.headers['content-type'], type);
      }
    });

    it('needs a name and a price', async () => {
      assertFieldError(await post({ price: 100 }), 'name', /Please enter a name/);
      assertFieldError(await post({ name: '   ', price: 100 }), 'name', /Please enter a name/);
      assertFieldError(
        await post({ name: 'No price' }),
        'price',
        /Please enter a price in the currency's smallest unit/,
      );
      assertFieldError(await post({ name: 'x'.repeat(201), price: 100 }), 'name', /at most 200 characters/);
    });

    it('takes prices in whole cents only, never negative', async () => {
      for (const price of ['1,50', '1.5', '2e3', 'abc', '']) {
        assertFieldError(await post({ name: 'Bad price', price }), 'price', /smallest unit/);
      }
      assertFieldError(await post({ name: 'Negative', price: '-1' }), 'price', /must not be negative/);
    });

    it('refuses values of the wrong kind, naming the field', async () => {
      assertFieldError(await post({ name: 'A', price: 1, isMainProduct: 'maybe' }), 'isMainProduct', /yes or no/);
      assertFieldError(await post({ name: 'A', price: 1, disabled: '' }), 'disabled', /yes or no/);
      assertFieldError(await post({ name: 'A', price: 1, color: 'red' }), 'color', /colour like #000/);
      assertFieldError(await post({ name: 'A', price: 1, fontColor: '#12345' }), 'fontColor', /colour like #000/);
      assertFieldError(await post({ name: 'A', price: 1, maxOrderAmount: '0' }), 'maxOrderAmount', /greater than 0/);
      assertFieldError(await post({ name: 'A', price: 1, maxOrderAmount: '2.5' }), 'maxOrderAmount', /greater than 0/);
      assertFieldError(await post({ name: 'A', price: 1, order: 'first' }), 'order', /whole number/);
      assertFieldError(
        await post({ name: 'A', price: 1, licenseItem: 'abc' }),
        'licenseItem',
        /Please choose a licence item/,
      );
    });

    it('refuses a donation-only item', async () => {
      const res = await post({ name: 'Spende', price: 0, donationOnly: 'true' });
      assertFieldError(res, 'donationOnly', /Donation only is not allowed/);
    });

    it('refuses uploads that are not what they claim to be', async () => {
      assertFieldError(
        await post({ name: 'Fake', price: 1 }, { image: { bytes: Buffer.from('just some text'), name: 'x.png' } }),
        'image',
        /PNG, JPEG, WEBP/,
      );
      assertFieldError(
        await post({ name: 'PDF image', price: 1 }, { image: { bytes: pdfBytes(), name: 'x.png' } }),
        'image',
        /PNG, JPEG, WEBP/,
      );
      assertFieldError(
        await post(
          { name: 'Image PDF', price: 1, isLicenseItem: true, isPdfItem: true },
          { pdf: { bytes: pngBytes(), name: 'issue.pdf' } },
        ),
        'pdf',
        /PDF/,
      );
      const stray = await post({ name: 'Stray', price: 1 }, { attachment: pngBytes() });
      assert.equal(stray.status, 400);
      assert.match(stray.body.message, /"attachment" does not take a file/);
    });

    it('refuses an upload over 10 MB with 413', async () => {
      const huge = Buffer.concat([pngBytes(), Buffer.alloc(limits.file)]);
      const res = await post({ name: 'Huge', price: 1 }, { image: { bytes: huge, name: 'huge.png' } });
      assert.equal(res.status, 413);
      assert.match(res.body.message, /too large; at most 10 MB/);
    });

    it('takes a form, not JSON', async () => {
      const res = await t.http.post('/api/items').set('Authorization', office).send({ name: 'JSON', price: 100 });
      assert.equal(res.status, 415);
      assert.match(res.body.message, /multipart\/form-data/);
    });

    it('stores nothing when a rule fails', async () => {
      const before = await t.db('files').count({ n: '*' }).first();
      const res = await post({ name: 'Half', price: 1, isPdfItem: true }, { image: pngBytes([9, 9, 9]) });
      assertFieldError(res, 'isPdfItem', /Only a licence item can be a PDF item/);
      assert.deepEqual(await t.db('files').count({ n: '*' }).first(), before);
    });

    it('is for the back office only', async () => {
      assert.equal((await withForm(t.http.post('/api/items'), { name: 'A', price: 1 })).status, 401);
      const vendor = await t.auth(['vendor']);
      assert.equal(
        (await withForm(t.http.post('/api/items').set('Authorization', vendor), { name: 'A', price: 1 })).status,
        403,
      );
    });
  });

  describe('licence items', () => {
    it('links a digital edition to its licence item', async () => {
      const lic = await licence({ licenseGroup: 'issue-42' });
      const digital = await create({ price: 300, licenseItem: lic.id });
      assert.equal(digital.licenseItem, lic.id);
      assert.equal(digital.isDigital, true);
      assert.equal(lic.licenseGroup, 'issue-42');
    });

    it('links only existing licence items, never the item itself or from a licence item', async () => {
      const plain = await create({});
      const lic = await licence();
      assertFieldError(
        await post({ name: 'D', price: 300, licenseItem: plain.id }),
        'licenseItem',
        /is not a licence item/,
      );
      assertFieldError(
        await post({ name: 'D', price: 300, licenseItem: 999999 }),
        'licenseItem',
        /Please choose an existing licence item/,
      );
      assertFieldError(
        await post({ name: 'L', price: 10, isLicenseItem: true, licenseItem: lic.id }),
        'licenseItem',
        /A licence item cannot itself link a licence item/,
      );
      const other = await licence();
      assertFieldError(
        await put(other.id, { licenseItem: other.id, isLicenseItem: false }),
        'licenseItem',
        /its own licence item/,
      );
      const deleted = await licence();
      assert.equal((await t.http.delete(`/api/items/${deleted.id}`).set('Authorization', office)).status, 200);
      assertFieldError(
        await post({ name: 'D', price: 300, licenseItem: deleted.id }),
        'licenseItem',
        /existing licence item/,
      );
    });

    it('keeps a licence cheaper than every item that uses it, so a vendor never nets less than zero', async () => {
      const lic = await licence({ price: 100 });
      assertFieldError(
        await post({ name: 'Too cheap', price: 99, licenseItem: lic.id }),
        'price',
        /at least the price of its licence item/,
      );
      const digital = await create({ price: 300, licenseItem: lic.id });
      assertFieldError(
        await put(digital.id, { price: 80 }),
        'price',
        /at least the price of its licence item .* \(€1\.00\)/,
      );
      assertFieldError(
        await put(lic.id, { price: 301 }),
        'price',
        /must not cost more than the items that use it: ".*" \(from €3\.00\)/,
      );
      const raised = await put(lic.id, { price: 300 });
      assert.equal(raised.status, 200, JSON.stringify(raised.body));
      assert.equal(raised.body.price, 300);
    });

    it('refuses to turn a linked licence item into an ordinary item', async () => {
      const lic = await licence();
      const digital = await create({ licenseItem: lic.id });
      assertFieldError(
        await put(lic.id, { isLicenseItem: false }),
        'isLicenseItem',
        new RegExp(`still the licence item of "${digital.name}"`),
      );
    });

    it('makes a PDF item only from a licence item with a PDF, and keeps the PDF on later saves', async () => {
      assertFieldError(await post({ name: 'P', price: 50, isPdfItem: true }), 'isPdfItem', /Only a licence item/);
      assertFieldError(
        await post({ name: 'P', price: 50, isPdfItem: true, isLicenseItem: true }),
        'pdf',
        /upload the PDF/,
      );
      const pdf = pdfBytes('Ausgabe 42');
      const item = await create(
        { name: unique('PDF'), price: 50, isLicenseItem: true, isPdfItem: true },
        { pdf: { bytes: pdf, name: 'a42.pdf' }, image: pngBytes() },
      );
      assert.match(item.pdf.url, /^\/api\/files\/[0-9a-f-]{36}$/);
      assert.equal(item.pdf.size, pdf.length);
      const renamed = await put(item.id, { name: 'Ausgabe 42 (PDF)' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual(renamed.body.pdf, item.pdf);
      assert.equal(renamed.body.image, item.image);
      assertFieldError(await put(item.id, { pdf: '' }), 'pdf', /upload the PDF/);
    });
  });

  describe('main product', () => {
    const mainIds = async () =>
      (await t.db('items').whereNull('deleted_at').where({ is_main_product: true }).select('id')).map((r) => r.id);

    it('moves the flag to the item that is made the main product', async () => {
      const first = await create({ isMainProduct: true });
      assert.equal(first.isMainProduct, true);
      assert.deepEqual(await mainIds(), [first.id]);
      const second = await create({ isMainProduct: 'true' });
      assert.deepEqual(await mainIds(), [second.id]);
      assert.equal((await get(first.id)).body.isMainProduct, false);
      const back = await put(first.id, { isMainProduct: true });
      assert.equal(back.status, 200);
      assert.deepEqual(await mainIds(), [first.id]);
      assert.deepEqual((await t.http.get('/api/settings')).body.mainItem, {
        id: first.id,
        name: first.name,
        description: '',
        image: null,
        price: 300,
      });
    });

    it('refuses a licence item or a disabled item as main product', async () => {
      assertFieldError(
        await post({ name: 'L', price: 5, isLicenseItem: true, isMainProduct: true }),
        'isMainProduct',
        /A licence item cannot be the main product/,
      );
      assertFieldError(
        await post({ name: 'D', price: 5, disabled: true, isMainProduct: true }),
        'isMainProduct',
        /A disabled item cannot be the main product/,
      );
      const main = await create({ isMainProduct: true });
      assertFieldError(
        await put(main.id, { disabled: true }),
        'isMainProduct',
        /disabled item cannot be the main product/,
      );
      assert.deepEqual(await mainIds(), [main.id]);
    });
  });

  describe('GET and PUT /api/items/:id', () => {
    it('changes only the fields sent; an empty image field removes the image', async () => {
      const item = await create({ description: 'old', color: '#123' }, { image: pngBytes([4, 5, 6]) });
      const res = await put(item.id, { description: 'new', color: '' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.description, 'new');
      assert.equal(res.body.color, null);
      assert.equal(res.body.name, item.name);
      assert.equal(res.body.image, item.image, 'without a new file the image stays');
      assert.ok(Date.parse(res.body.updatedAt) >= Date.parse(item.updatedAt));
      const replaced = await put(item.id, { name: item.name }, { image: jpegBytes() });
      assert.notEqual(replaced.body.image, item.image);
      const removed = await put(item.id, { image: '' });
      assert.equal(removed.body.image, null);
    });

    it('validates a PUT like a POST', async () => {
      const item = await create({});
      assertFieldError(await put(item.id, { name: '' }), 'name', /Please enter a name/);
      assertFieldError(await put(item.id, { price: '3,00' }), 'price', /smallest unit/);
      assertFieldError(await put(item.id, { donationOnly: 'on' }), 'donationOnly', /Donation only is not allowed/);
      assertFieldError(
        await put(item.id, {}, { image: { bytes: Buffer.from('<svg/>'), name: 'x.png' } }),
        'image',
        /PNG, JPEG, WEBP/,
      );
      assert.equal((await get(item.id)).body.name, item.name);
    });

    it('answers 404 for an unknown item and 400 for a malformed id', async () => {
      const unknown = await put(999999, { name: 'x' });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.message, 'There is no item with id 999999.');
      assert.equal((await get(999999)).status, 404);
      assert.match((await get(999999)).body.message, /There is no item with id 999999/);
      for (const bad of ['abc', '1.5', '-1', '0']) {
        const res = await get(bad);
        assert.equal(res.status, 400, bad);
        assert.match(res.body.message, /is not a valid item id/);
        assert.equal((await put(bad, { name: 'x' })).status, 400);
      }
    });
  });

  describe('DELETE /api/items/:id', () => {
    const del = (id: number | string) => t.http.delete(`/api/items/${id}`).set('Authorization', office);

    it('deletes an item nothing refers to for good', async () => {
      const item = await create({});
      const res = await del(item.id);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, item.id);
      assert.equal(res.body.name, item.name);
      assert.equal(await t.db('items').where({ id: item.id }).first(), undefined);
      assert.equal((await get(item.id)).status, 404);
      const again = await del(item.id);
      assert.equal(again.status, 404);
      assert.match(again.body.message, /There is no item/);
    });

    it('only marks a licence item deleted while another item links it', async () => {
      const lic = await licence();
      const digital = await create({ licenseItem: lic.id });
      const res = await del(lic.id);
      assert.equal(res.status, 200);
      assert.equal(res.body.id, lic.id);
      const row = await t.db('items').where({ id: lic.id }).first();
      assert.ok(row?.deleted_at, 'the row stays, marked deleted');
      assert.equal((await get(lic.id)).status, 404);
      assert.equal((await get(digital.id)).body.licenseItem, lic.id);
      const listed = await t.http.get('/api/items/backoffice').set('Authorization', office);
      assert.ok(!listed.body.some((i: { id: number }) => i.id === lic.id));
    });

    it('covers references from any table, and a deleted main product is no longer main', async () => {
      await t.db.raw('create table test_item_refs (item_id integer not null references items(id))');
      try {
        const main = await create({ isMainProduct: true });
        await t.db('test_item_refs').insert({ item_id: main.id });
        const res = await del(main.id);
        assert.equal(res.status, 200);
        const row = await t.db('items').where({ id: main.id }).first();
        assert.ok(row.deleted_at);
        assert.equal(row.is_main_product, false);
        assert.equal((await t.http.get('/api/settings')).body.mainItem, null);
      } finally {
        await t.db.raw('drop table test_item_refs');
      }
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      const unknown = await del(999999);
      assert.equal(unknown.status, 404);
      assert.match(unknown.body.message, /There is no item with id 999999/);
      const malformed = await del('abc');
      assert.equal(malformed.status, 400);
      assert.match(malformed.body.message, /"abc" is not a valid item id/);
    });
  });

  describe('GET /api/items/backoffice (list contract)', () => {
    const list = (query: Record<string, unknown> = {}) =>
      t.http
        .get('/api/items/backoffice')
        .query(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)])))
        .set('Authorization', office);

    it('lists every live item with all fields, licence and disabled items included', async () => {
      const lic = await licence({ name: unique('Listed licence') });
      const off = await create({ disabled: true });
      const res = await list({ filter: { id: [lic.id, off.id] } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.map((i: { id: number }) => i.id).sort(), [lic.id, off.id].sort());
      for (const item of res.body) assert.deepEqual(Object.keys(item).sort(), backofficeFields);
      assert.match(res.headers['content-range'], /^items 0-1\/2$/);
    });

    it('sorts, pages with Content-Range and filters', async () => {
      const group = unique('Sortable');
      const items = [];
      for (const price of [500, 100, 300]) items.push(await create({ name: `${group} ${price}`, price }));
      const ids = items.map((i) => i.id);

      const byPrice = await list({ filter: { id: ids }, sort: ['price', 'ASC'] });
      assert.deepEqual(
        byPrice.body.map((i: { price: number }) => i.price),
        [100, 300, 500],
      );
      const byNameDesc = await list({ filter: { q: group.toUpperCase() }, sort: ['name', 'DESC'] });
      assert.deepEqual(
        byNameDesc.body.map((i: { name: string }) => i.name),
        [`${group} 500`, `${group} 300`, `${group} 100`],
      );

      const page = await list({ filter: { id: ids }, sort: ['id', 'ASC'], range: [1, 1] });
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.body.map((i: { id: number }) => i.id),
        [ids[1]],
      );
      assert.equal(page.headers['content-range'], 'items 1-1/3');

      const all = await list({ range: [0, 999] });
      const total = Number(all.headers['content-range'].split('/')[1]);
      assert.equal(total, all.body.length);
      assert.equal(total, Number((await t.db('items').whereNull('deleted_at').count({ n: '*' }).first())!.n));

      const disabled = await list({ filter: { disabled: true } });
      assert.ok(disabled.body.length > 0 && disabled.body.every((i: { disabled: boolean }) => i.disabled));
      const licences = await list({ filter: { isLicenseItem: 'true' } });
      assert.ok(licences.body.length > 0 && licences.body.every((i: { isLicenseItem: boolean }) => i.isLicenseItem));
      const wildcard = await list({ filter: { q: '%' } });
      assert.deepEqual(wildcard.body, [], 'a % in the search is a character, not a wildcard');
    });

    it('refuses sort fields, filters and ranges it does not know', async () => {
      const badSort = await list({ sort: ['secret', 'ASC'] });
      assert.equal(badSort.status, 400);
      assert.match(badSort.body.message, /cannot be sorted by "secret"/);
      const badFilter = await list({ filter: { color: '#fff' } });
      assert.equal(badFilter.status, 400);
      assert.match(badFilter.body.message, /cannot be filtered by "color"/);
      const badBool = await list({ filter: { disabled: 'perhaps' } });
      assert.equal(badBool.status, 400);
      assert.match(badBool.body.message, /"disabled" must be true or false/);
      const badRange = await list({ range: [5, 1] });
      assert.equal(badRange.status, 400);
      assert.match(badRange.body.message, /"range"/);
    });

    it('is for the back office only', async () => {
      assert.equal((await t.http.get('/api/items/backoffice')).status, 401);
      assert.equal(
        (await t.http.get('/api/items/backoffice').set('Authorization', await t.auth(['vendor']))).status,
        403,
      );
    });
  });
});
