import assert from 'node:assert/strict';
import { limits } from '../../api/src/http/body.ts';
import { chooseCurrencyOnFirstStart } from '../../api/src/settings/currency.ts';
import { describeApi } from '../support/env.ts';
import { pdfBytes, pngBytes, webpBytes, withForm, type FormFile } from '../support/fixtures.ts';
import { placeMainOrder } from '../support/orders.ts';
import { listenShop } from '../support/shop-server.ts';

type Fields = Record<string, string | number | boolean>;

const publicKeys = [
  'newspaperName',
  'newspaperAddress',
  // Printed on every invoice (§14 (4) UStG), so public like the address.
  'companyStreet',
  'companyPostcode',
  'companyTown',
  'companyCountry',
  'taxNumber',
  'vatId',
  'vatRate',
  'color',
  'fontColor',
  'logo',
  'favicon',
  'qrCodeLogoImgUrl',
  'agbUrl',
  'maintainanceModeHelpUrl',
  'vendorNotFoundHelpUrl',
  'qrCodeUrl',
  'qrCodeSettings',
  'qrCodeEnableLogo',
  'vendorEmailPostfix',
  'webshopIsClosed',
  'mapCenterLat',
  'mapCenterLong',
  'useVendorLicenseIdInShop',
  'useTipInsteadOfDonation',
  'orgaCoversTransactionCosts',
  'maxOrderAmount',
  'styleRevision',
  'mainItem',
  'identityProvider',
  'embedOrigins',
  'germanVariant',
  'currency',
  'currencyDigits',
  'metaDescription',
  'mapTileUrl',
  'publicUrl',
  'timeZone',
].sort();

describeApi('settings', (t) => {
  let office = '';
  before(async () => {
    office = await t.office();
  });

  const put = (fields: Fields, files?: Record<string, FormFile>) =>
    withForm(t.http.put('/api/settings/').set('Authorization', office), fields, files);
  const read = async () => (await t.http.get('/api/settings/')).body;

  async function saved(fields: Fields, files?: Record<string, FormFile>) {
    const res = await put(fields, files);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  function assertFieldError(
    res: { status: number; body: { message: string; errors?: Record<string, string> } },
    field: string,
    message: RegExp,
  ) {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.ok(res.body.errors?.[field], `expected an error for "${field}", got ${JSON.stringify(res.body)}`);
    assert.match(res.body.errors[field], message);
  }

  async function createItem(fields: Fields) {
    const res = await withForm(t.http.post('/api/items').set('Authorization', office), { price: 300, ...fields });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  describe('GET /api/settings', () => {
    it('answers the public settings to anyone, without the CSS and without secrets', async () => {
      const res = await t.http.get('/api/settings');
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), publicKeys);
      assert.deepEqual(res.body.identityProvider, {
        url: t.config.oidc.issuer,
        realm: null,
        clientId: t.config.oidc.clientId,
        scopes: t.config.oidc.scopes,
      });
      assert.equal(
        res.body.mapTileUrl,
        'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        'OpenStreetMap unless MAP_TILE_URL says otherwise',
      );
      assert.equal(res.body.timeZone, t.config.timeZone, 'TIME_ZONE, for the dates the browsers show');
      assert.doesNotMatch(res.text, /styleCss|style_css|secret|_file_id/i);
    });

    it('falls back to img/logo.png without a logo and null without favicon or QR logo', async () => {
      const body = await saved({ logo: '', favicon: '', qrCodeLogo: '' });
      assert.equal(body.logo, 'img/logo.png');
      assert.equal(body.favicon, null);
      assert.equal(body.qrCodeLogoImgUrl, null);
      assert.equal((await read()).logo, 'img/logo.png');
    });
  });

  describe('PUT /api/settings', () => {
    it('saves the fields sent and answers the new settings; GET shows the same', async () => {
      const qr = {
        errorCorrectionLevel: 'H',
        dotColor: '#112233',
        backgroundColor: '#fff',
        dotType: 'classy-rounded',
        cornerSquareType: 'extra-rounded',
        cornerDotType: 'dot',
      };
      const body = await saved({
        newspaperName: 'Die Straßenzeitung',
        color: '#aabbcc',
        fontColor: '#000',
        agbUrl: 'https://paper.example/agb',
        maintainanceModeHelpUrl: '',
        vendorNotFoundHelpUrl: 'http://paper.example/help',
        qrCodeUrl: 'https://shop.example',
        qrCodeSettings: JSON.stringify(qr),
        qrCodeEnableLogo: 'true',
        vendorEmailPostfix: 'paper.example',
        webshopIsClosed: 'on',
        mapCenterLat: '47,2692',
        mapCenterLong: '11.4041',
        useVendorLicenseIdInShop: '1',
        useTipInsteadOfDonation: 'true',
        orgaCoversTransactionCosts: 'false',
        maxOrderAmount: '20000',
      });
      const expected = {
        newspaperName: 'Die Straßenzeitung',
        color: '#aabbcc',
        fontColor: '#000',
        agbUrl: 'https://paper.example/agb',
        maintainanceModeHelpUrl: '',
        vendorNotFoundHelpUrl: 'http://paper.example/help',
        qrCodeUrl: 'https://shop.example',
        qrCodeSettings: qr,
        qrCodeEnableLogo: true,
        vendorEmailPostfix: '@paper.example',
        webshopIsClosed: true,
        mapCenterLat: 47.2692,
        mapCenterLong: 11.4041,
        useVendorLicenseIdInShop: true,
        useTipInsteadOfDonation: true,
        orgaCoversTransactionCosts: false,
        maxOrderAmount: 20000,
      };
      for (const settings of [body, await read()]) {
        for (const [key, value] of Object.entries(expected)) assert.deepEqual(settings[key], value, key);
      }
    });

    it('saves the German of the mails and the meta description, and refuses another variant', async () => {
      const before = await read();
      assert.equal(before.germanVariant, 'de-DE', 'German German until chosen');
      assert.equal(before.metaDescription, '', 'the generated description until one is written');
      const body = await saved({ germanVariant: 'de-AT', metaDescription: '  Die Straßenzeitung\r\naus Wien  ' });
      for (const settings of [body, await read()]) {
        assert.equal(settings.germanVariant, 'de-AT');
        assert.equal(settings.metaDescription, 'Die Straßenzeitung aus Wien', 'one line, as a meta tag shows it');
      }
      assertFieldError(await put({ germanVariant: 'de-CH' }), 'germanVariant', /de-DE, de-AT/);
      assertFieldError(await put({ metaDescription: 'x'.repeat(301) }), 'metaDescription', /at most 300 characters/);
      assert.equal((await read()).germanVariant, 'de-AT');
    });

    it('keeps the books in one currency: chosen until money moves, then refused with the reason', async () => {
      const before = await read();
      assert.deepEqual([before.currency, before.currencyDigits], ['EUR', 2], 'CURRENCY (EUR) until chosen');
      const yen = await saved({ currency: 'jpy' });
      assert.deepEqual([yen.currency, yen.currencyDigits], ['JPY', 0], 'whole yen, as Stripe counts them');
      assertFieldError(await put({ currency: 'XYZ' }), 'currency', /EUR, CHF, GBP/);
      await saved({ currency: 'CHF', webshopIsClosed: false });

      const shop = await listenShop(t, () => ({ sandboxCurrencies: ['chf'] }));
      try {
        await placeMainOrder(shop, t.db);
      } finally {
        await shop.close();
      }
      for (const [language, sentence] of [
        ['en', /The currency stays CHF: amounts have been booked in it already/],
        ['de', /Die Währung bleibt CHF: In ihr sind schon Beträge gebucht/],
      ] as const) {
        const res = await put({ currency: 'GBP' }).set('Accept-Language', language);
        assert.equal(res.status, 409, JSON.stringify(res.body));
        assert.match(res.body.message, sentence);
      }
      assert.equal((await read()).currency, 'CHF');
      await saved({ currency: 'CHF', newspaperName: 'Surprise' });
      await t.reset();
    });

    it('takes CURRENCY on the first start only', async () => {
      await t.db('system_state').where({ key: 'currency_chosen' }).delete();
      await chooseCurrencyOnFirstStart(t.db, 'GBP');
      assert.equal((await read()).currency, 'GBP');
      await chooseCurrencyOnFirstStart(t.db, 'SEK');
      assert.equal((await read()).currency, 'GBP', 'a later start keeps the settings’ currency');
      await t.reset();
    });

    it('leaves absent fields unchanged', async () => {
      const before = await saved({ newspaperName: 'Before', color: '#123456' });
      const after = await saved({ color: '#654321' });
      assert.equal(after.newspaperName, 'Before');
      assert.equal(after.color, '#654321');
      assert.deepEqual({ ...after, color: before.color }, before);
    });

    it('names every bad field and saves nothing when one is bad', async () => {
      const before = await read();
      const res = await put({
        newspaperName: 'Never saved',
        color: 'blue',
        mapCenterLat: '91',
        webshopIsClosed: 'yes please',
      });
      assertFieldError(res, 'color', /colour like #000/);
      assertFieldError(res, 'mapCenterLat', /between -90 and 90/);
      assertFieldError(res, 'webshopIsClosed', /yes or no/);
      assert.match(res.body.message, /Please check the field/);
      assert.deepEqual(await read(), before);
    });

    it('refuses each kind of bad value with a message for its field', async () => {
      const cases: [Fields, string, RegExp][] = [
        [{ fontColor: '#ggg' }, 'fontColor', /colour like #000/],
        [{ color: '' }, 'color', /colour like #000/],
        [{ agbUrl: 'javascript:alert(1)' }, 'agbUrl', /https:\/\//],
        [{ qrCodeUrl: 'ftp://files.example' }, 'qrCodeUrl', /https:\/\//],
        [{ vendorNotFoundHelpUrl: 'not a url' }, 'vendorNotFoundHelpUrl', /https:\/\//],
        [{ mapCenterLong: '-180.5' }, 'mapCenterLong', /between -180 and 180/],
        [{ mapCenterLat: 'north' }, 'mapCenterLat', /Please enter a number/],
        [{ maxOrderAmount: '0' }, 'maxOrderAmount', /at least €0\.01/],
        [{ maxOrderAmount: '150,00' }, 'maxOrderAmount', /smallest unit, for example 150 for €1\.50/],
        [{ vendorEmailPostfix: 'not a domain' }, 'vendorEmailPostfix', /domain like @example.org/],
        [{ qrCodeEnableLogo: 'maybe' }, 'qrCodeEnableLogo', /yes or no/],
        [{ newspaperName: 'x'.repeat(201) }, 'newspaperName', /at most 200 characters/],
        [{ qrCodeSettings: '{not json' }, 'qrCodeSettings', /valid JSON/],
        [{ qrCodeSettings: '[]' }, 'qrCodeSettings', /JSON object/],
        [{ qrCodeSettings: '{"logoSize":3}' }, 'qrCodeSettings', /Unknown QR code setting: logoSize/],
        [
          { qrCodeSettings: '{"dotType":"stars"}' },
          'qrCodeSettings.dotType',
          /square, dots, rounded, classy, classy-rounded, extra-rounded/,
        ],
        [{ qrCodeSettings: '{"errorCorrectionLevel":"X"}' }, 'qrCodeSettings.errorCorrectionLevel', /L, M, Q, H/],
        [{ qrCodeSettings: '{"dotColor":"black"}' }, 'qrCodeSettings.dotColor', /colour like #000/],
        [
          { qrCodeSettings: '{"cornerSquareType":"dots"}' },
          'qrCodeSettings.cornerSquareType',
          /square, dot, extra-rounded/,
        ],
        [{ qrCodeSettings: '{"cornerDotType":"rounded"}' }, 'qrCodeSettings.cornerDotType', /square, dot/],
        [{ mainItem: 'first' }, 'mainItem', /Please choose an item/],
      ];
      for (const [fields, field, message] of cases) assertFieldError(await put(fields), field, message);
    });

    it('stores an uploaded logo, favicon and QR code logo and serves the logo at its URL', async () => {
      const logo = pngBytes([10, 20, 30]);
      const body = await saved(
        { newspaperName: 'With logo' },
        { logo: { bytes: logo, name: 'logo.png' }, favicon: webpBytes(), qrCodeLogo: pngBytes([1, 1, 1]) },
      );
      assert.match(body.logo, /^\/files\/[0-9a-f-]{36}$/);
      assert.match(body.favicon, /^\/files\/[0-9a-f-]{36}$/);
      assert.match(body.qrCodeLogoImgUrl, /^\/files\/[0-9a-f-]{36}$/);
      assert.equal((await read()).logo, body.logo);
      const served = await t.http.get(body.logo).buffer(true);
      assert.equal(served.status, 200);
      assert.equal(served.headers['content-type'], 'image/png');
      assert.ok(Buffer.from(served.body).equals(logo));
      const kept = await saved({ newspaperName: 'Logo kept', logo: body.logo });
      assert.equal(kept.logo, body.logo, 'sending back the URL keeps the file');
    });

    it('refuses uploads that are not images, and saves nothing then', async () => {
      const before = await read();
      const fake = await put(
        { newspaperName: 'Never saved' },
        { logo: { bytes: Buffer.from('hello, I am text'), name: 'logo.png' } },
      );
      assertFieldError(fake, 'logo', /PNG, JPEG, WEBP/);
      assert.match(fake.body.message, /"Logo" is not a valid PNG, JPEG, WEBP file/);
      assertFieldError(
        await put({ newspaperName: 'Never saved' }, { favicon: { bytes: pdfBytes(), name: 'favicon.png' } }),
        'favicon',
        /PNG, JPEG, WEBP/,
      );
      const stray = await put({ newspaperName: 'Never saved' }, { styleCss: pngBytes() });
      assert.equal(stray.status, 400);
      assert.match(stray.body.message, /"styleCss" does not take a file/);
      assert.deepEqual(await read(), before);
    });

    it('refuses an upload over 10 MB with 413', async () => {
      const res = await put(
        { newspaperName: 'Huge' },
        { logo: { bytes: Buffer.concat([pngBytes(), Buffer.alloc(limits.file)]), name: 'logo.png' } },
      );
      assert.equal(res.status, 413);
      assert.match(res.body.message, /too large; at most 10 MB/);
    });

    it('makes an item the main product, moving the flag, or none', async () => {
      const first = await createItem({ name: 'Erste Zeitung', description: 'Nr. 1' });
      const second = await createItem({ name: 'Zweite Zeitung', isMainProduct: true });
      const body = await saved({ mainItem: String(first.id) });
      assert.deepEqual(body.mainItem, {
        id: first.id,
        name: 'Erste Zeitung',
        description: 'Nr. 1',
        image: null,
        price: 300,
      });
      const mains = await t.db('items').whereNull('deleted_at').where({ is_main_product: true }).select('id');
      assert.deepEqual(
        mains.map((r) => r.id),
        [first.id],
      );
      assert.equal(
        (await t.http.get(`/api/items/${second.id}`).set('Authorization', office)).body.isMainProduct,
        false,
      );
      const none = await saved({ mainItem: '' });
      assert.equal(none.mainItem, null);
      assert.equal((await read()).mainItem, null);
    });

    it('refuses a licence item, a disabled item or an unknown item as main item, and saves nothing then', async () => {
      const main = await createItem({ name: 'Main', isMainProduct: true });
      const licence = await createItem({ name: 'Licence', isLicenseItem: true, price: 10 });
      const disabled = await createItem({ name: 'Off', disabled: true });
      const before = await read();
      assert.equal(before.mainItem.id, main.id);
      assertFieldError(
        await put({ newspaperName: 'Never saved', mainItem: licence.id }),
        'mainItem',
        /A licence item cannot be the main product/,
      );
      assertFieldError(
        await put({ newspaperName: 'Never saved', mainItem: disabled.id }),
        'mainItem',
        /A disabled item cannot be the main product/,
      );
      assertFieldError(
        await put({ newspaperName: 'Never saved', mainItem: 999999 }),
        'mainItem',
        /There is no item with id 999999/,
      );
      assert.deepEqual(await read(), before);
    });

    it('takes a form from the back office only', async () => {
      const json = await t.http.put('/api/settings').set('Authorization', office).send({ newspaperName: 'JSON' });
      assert.equal(json.status, 415);
      assert.match(json.body.message, /multipart\/form-data/);
      assert.equal((await withForm(t.http.put('/api/settings'), { newspaperName: 'x' })).status, 401);
      assert.equal(
        (
          await withForm(t.http.put('/api/settings').set('Authorization', await t.auth(['vendor'])), {
            newspaperName: 'x',
          })
        ).status,
        403,
      );
    });
  });

  describe('custom CSS', () => {
    const putCss = (css: string) =>
      t.http.put('/api/settings/css/').set('Authorization', office).set('Content-Type', 'text/css').send(css);

    it('stores the CSS, counts the revision up and serves it at /public/style.css', async () => {
      const start = (await read()).styleRevision;
      const first = await putCss('.shop { color: red; }');
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, { styleRevision: start + 1 });
      const second = await putCss('#landing-page h1 { font-size: 2rem; }');
      assert.deepEqual(second.body, { styleRevision: start + 2 });
      assert.equal((await read()).styleRevision, start + 2);

      const pinned = await t.http.get(`/public/style.css?rev=${start + 2}`);
      assert.equal(pinned.status, 200);
      assert.equal(pinned.headers['content-type'], 'text/css; charset=utf-8');
      assert.equal(pinned.text, '#landing-page h1 { font-size: 2rem; }');
      assert.equal(pinned.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(pinned.headers['x-content-type-options'], 'nosniff');

      for (const url of ['/public/style.css', `/public/style.css?rev=${start + 1}`, '/public/style.css?rev=abc']) {
        const res = await t.http.get(url);
        assert.equal(res.status, 200, url);
        assert.equal(res.headers['cache-control'], 'no-cache', url);
        assert.equal(res.text, '#landing-page h1 { font-size: 2rem; }', url);
      }
      const revalidated = await t.http.get('/public/style.css').set('If-None-Match', pinned.headers.etag);
      assert.equal(revalidated.status, 304);
    });

    it('refuses CSS that could end the style element, leaving the revision alone', async () => {
      const start = (await read()).styleRevision;
      for (const css of ['a{}</style><script>alert(1)</script>', 'a{} </STYLE >', 'a{}<Script src=x>']) {
        const res = await putCss(css);
        assert.equal(res.status, 400, css);
        assert.match(res.body.message, /must not contain "<\/style" or "<script"/);
      }
      assert.equal((await read()).styleRevision, start);
    });

    it('takes text/css of at most 200 KB from the back office only', async () => {
      const json = await t.http.put('/api/settings/css').set('Authorization', office).send({ css: 'a{}' });
      assert.equal(json.status, 415);
      assert.match(json.body.message, /text\/css/);
      const huge = await putCss(`/* ${'x'.repeat(limits.css)} */`);
      assert.equal(huge.status, 413);
      assert.match(huge.body.message, /too large/);
      assert.equal((await t.http.put('/api/settings/css').set('Content-Type', 'text/css').send('a{}')).status, 401);
    });
  });
  it('saves the seeded settings back unchanged when a form sends them as it got them', async () => {
    await t.reset();
    const before = await read();
    const { mainItem, logo, favicon, qrCodeLogoImgUrl, identityProvider, mapTileUrl, styleRevision, ...fields } =
      before;
    const sent: Fields = { mainItem: mainItem.id };
    for (const [name, value] of Object.entries(fields)) {
      sent[name] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
    }
    const after = await saved(sent);
    assert.deepEqual(after, before);
    assert.equal(before.qrCodeSettings.dotType, 'rounded', 'the demo QR code styling is in the saved shape');
  });
});
