import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import type { Config } from '../../api/src/foundations/config.ts';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { describeApi } from '../support/env.ts';
import { pngBytes, withForm } from '../support/fixtures.ts';

// The shop's pages as the server answers them: the built index.html with the first screen's data
// inlined, the newspaper's title and icon, the right caching and compression. A small stand-in of
// Vite's output keeps these tests independent of the widget's build (the e2e tests use the real one).

const script = `/* the widget */ ${'console.log("street paper");\n'.repeat(80)}`;

function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-dist-'));
  const shop = path.join(dir, 'shop-widget');
  fs.mkdirSync(path.join(shop, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(shop, 'index.html'),
    [
      '<!doctype html>',
      '<html lang="de">',
      '  <head>',
      '    <meta charset="utf-8" />',
      '    <title>Straßenzeitung</title>',
      '    <script type="module" crossorigin src="/assets/index-abc123.js"></script>',
      '  </head>',
      '  <body>',
      '    <div id="shop"></div>',
      '  </body>',
      '</html>',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(shop, 'assets', 'index-abc123.js'), script);
  fs.writeFileSync(path.join(shop, 'widget.js'), script);
  return dir;
}

/** A raw GET on a real port: the bytes as they travel, not decoded by a client library. */
function rawGet(app: ReturnType<typeof buildApp>, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const handle = app.callback();
    const server = http
      .createServer((req, res) => void handle(req, res))
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        http
          .get({ host: '127.0.0.1', port, path: pathname, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              server.close();
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
            });
          })
          .on('error', (error) => {
            server.close();
            reject(error);
          });
      });
  });
}

/** The boot data exactly as the widget reads it: the text of the script element, parsed as JSON. */
function bootOf(html: string) {
  const match = /<script id="shop-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(match, 'the page holds the boot data');
  return JSON.parse(match[1]);
}

const secrets = {
  STRIPE_SECRET_KEY: 'sk_live_do_not_show_51Hxyz',
  STRIPE_WEBHOOK_SECRET: 'whsec_do_not_show_abc',
  SMTP_URL: 'smtp://mailer:smtp-password-do-not-show@mail.example.org:587',
};

describeApi('shop page: the first screen in one answer', (t) => {
  let dist: string;
  let app: ReturnType<typeof buildApp>;
  let page: supertest.Agent;
  const appWith = (config: Config) => buildApp({ db: t.db, config, distDir: dist });

  before(() => {
    dist = fakeBuild();
    app = appWith(t.config);
    page = supertest.agent(app.callback());
  });
  after(() => fs.rmSync(dist, { recursive: true, force: true }));

  async function apiAnswers(licenceId?: string) {
    const [settings, vendor, items] = await Promise.all([
      t.http.get('/api/settings/'),
      licenceId ? t.http.get(`/api/vendors/check/${licenceId}/`) : undefined,
      // The items' names in the page's language: German, as the page without Accept-Language.
      t.http.get('/api/items/').set('Accept-Language', 'de'),
    ]);
    return { settings: settings.body, vendor: vendor && vendor.status === 200 ? vendor.body : null, items: items.body };
  }

  it('keeps a language chosen without the script and sends the browser back to the same place on this host only', async () => {
    // Not the describe's agent: its cookie jar would keep the choice for the tests after this one.
    const chosen = await supertest(app.callback()).get('/v/DEMO-1/tipping?lang=en&from=badge');
    assert.equal(chosen.status, 303);
    assert.equal(chosen.headers.location, '/v/DEMO-1/tipping?from=badge');
    assert.match(String(chosen.headers['set-cookie']), /shop-lang=en/);
    // A path that a browser would read as another host's address ("//host") stays on this one.
    for (const [path, here] of [
      ['//evil-host/?lang=en', '/evil-host'],
      ['///evil-host/x?lang=de', '/evil-host/x'],
    ]) {
      const away = await supertest(app.callback()).get(path);
      assert.equal(away.status, 303, path);
      assert.equal(away.headers.location, here, path);
    }
  });

  it('answers /v/DEMO-1 with the settings the widget reads, the vendor check and the items inlined, as the API answers them', async () => {
    const res = await page.get('/v/DEMO-1');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type'], /^text\/html; charset=utf-8/);
    const boot = bootOf(res.text);
    const answers = await apiAnswers('DEMO-1');
    const inlined = Object.keys(boot.settings);
    assert.deepEqual(boot, {
      ...answers,
      settings: Object.fromEntries(inlined.map((key) => [key, answers.settings[key]])),
    });
    for (const key of ['newspaperName', 'currency', 'maxOrderAmount', 'mainItem', 'timeZone', 'agbUrl'])
      assert.ok(inlined.includes(key), `the widget reads ${key}`);
    // What only the back office reads stays out of every phone's first screen.
    for (const key of ['companyStreet', 'taxNumber', 'vatId', 'qrCodeSettings', 'mapTileUrl', 'identityProvider'])
      assert.ok(!inlined.includes(key), `${key} is not inlined`);
    assert.equal(boot.vendor.licenseId, 'DEMO-1');
    assert.ok(boot.items.length > 0, 'the shop has items');
    // What the browser shows before any script runs: the newspaper's name, icon and colour.
    assert.match(res.text, new RegExp(`<title>${DEMO_NEWSPAPER_NAME}</title>`));
    assert.match(res.text, /<html lang="de">/);
    assert.ok(
      res.text.includes(`<link rel="icon" href="${boot.settings.logo}">`),
      'the logo as icon (the demo has no favicon)',
    );
    assert.match(res.text, new RegExp(`<meta name="theme-color" content="${boot.settings.color}">`));
    assert.match(
      res.text,
      /<script type="module" crossorigin src="\/assets\/index-abc123.js"><\/script>/,
      'the widget script stays',
    );
  });

  it('answers the page of a vendor and the vendor check with one query each and no write, once its copy is current', async () => {
    assert.equal((await page.get('/v/DEMO-1')).status, 200);
    const queries: string[] = [];
    const count = (query: { sql: string }) => queries.push(query.sql);
    t.db.on('query', count);
    try {
      for (const path of ['/v/DEMO-1', '/api/vendors/check/DEMO-1', '/v/DEMO-1?lang=x']) {
        queries.length = 0;
        assert.equal((await page.get(path)).status, 200, path);
        assert.equal(queries.length, 1, `${path}: ${queries.join('; ')}`);
        assert.doesNotMatch(queries[0], /^\s*(insert|update|delete)/i, path);
      }
    } finally {
      t.db.off('query', count);
    }
  });

  it('serves the same boot data at /api/shop/boot/?vendor= for the embedded widget', async () => {
    const fromPage = bootOf((await page.get('/v/DEMO-1/tipping')).text);
    const res = await t.http.get('/api/shop/boot/?vendor=DEMO-1').set('Accept-Language', 'de');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, fromPage);
    const none = await t.http.get('/api/shop/boot/');
    assert.equal(none.body.vendor, null);
    assert.deepEqual(none.body.settings, fromPage.settings);
    const two = await t.http.get('/api/shop/boot/?vendor=DEMO-1&vendor=DEMO-2');
    assert.equal(two.status, 400);
    assert.equal(two.body.errors.vendor, 'Please name one vendor.');
  });

  it('answers an unknown and a deactivated vendor alike: 404, vendor null (the widget shows the check-id screen)', async () => {
    const unknown = await page.get('/v/NO-SUCH-VENDOR');
    const deactivated = await page.get('/v/DEMO-OFF');
    const broken = await page.get('/v/%E0%A4%A');
    for (const res of [unknown, deactivated, broken]) {
      assert.equal(res.status, 404);
      assert.equal(bootOf(res.text).vendor, null);
    }
    assert.equal(bootOf(unknown.text).settings.newspaperName, DEMO_NEWSPAPER_NAME);
    for (const vendor of ['NO-SUCH-VENDOR', 'DEMO-OFF']) {
      const res = await t.http.get(`/api/shop/boot/?vendor=${vendor}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.vendor, null, vendor);
    }
  });

  it('answers every shop route of the specification with the page, and /404 or an unknown path with status 404', async () => {
    const steps = [
      'check-id',
      'landing-page',
      'additionalproducts',
      'print-digital',
      'tipping',
      'information',
      'confirmation',
      'payment',
      'custom-tip',
      'shop',
      'item-available',
      'items',
    ];
    const screens = [
      '/',
      '/go-to-vendor',
      '/paymentconfirmation?order=abc',
      '/success?order=abc&session_id=cs_1',
      '/failure?order=abc',
      '/error',
      '/error-invalid-link',
      '/maintenance',
      '/pdf/some-link-id',
      '/v/DEMO-1',
      ...steps.map((step) => `/v/DEMO-1/${step}/`),
    ];
    for (const screen of screens) {
      const res = await page.get(screen);
      assert.equal(res.status, 200, screen);
      const boot = bootOf(res.text);
      assert.equal(boot.vendor?.licenseId ?? null, screen.startsWith('/v/') ? 'DEMO-1' : null, screen);
    }
    for (const screen of ['/404', '/nothing/here', '/v']) {
      const res = await page.get(screen);
      assert.equal(res.status, 404, screen);
      assert.equal(bootOf(res.text).vendor, null, 'the go-to-vendor page still renders');
    }
  });

  it('never answers the shop page for the API, the login service, the sandbox, the back office, files or images', async () => {
    for (const other of [
      '/api/nothing',
      '/oidc/nothing',
      '/v1/nothing',
      '/stripe-sandbox/nothing',
      '/backoffice',
      '/me/profile',
      '/files',
      '/public',
      '/img/nothing',
      '/assets/missing.js',
      '/missing.css',
    ]) {
      const res = await page.get(other);
      assert.equal(res.status, 404, other);
      assert.doesNotMatch(res.text, /shop-boot/, other);
    }
  });

  it('takes the page language from the browser, German by default', async () => {
    const lang = async (accept?: string) =>
      /<html lang="(\w+)">/.exec(
        (await (accept ? page.get('/v/DEMO-1').set('Accept-Language', accept) : page.get('/v/DEMO-1'))).text,
      )?.[1];
    assert.equal(await lang(), 'de');
    assert.equal(await lang('en-GB,en;q=0.9'), 'en');
    assert.equal(await lang('fr-FR,de;q=0.5,en;q=0.4'), 'de');
    assert.equal(await lang('fr-FR'), 'de');
  });

  it('keeps a newspaper name with </script>, line separators and $-patterns inside the title and the data', async () => {
    const office = await t.office();
    const name = 'Die </script><script>alert(1)</script> & "Blatt" \u2028\u2029 <!-- $\' $& $1';
    const saved = await withForm(t.http.put('/api/settings/').set('Authorization', office), { newspaperName: name });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    try {
      const res = await page.get('/v/DEMO-1');
      assert.equal(bootOf(res.text).settings.newspaperName, name);
      assert.equal((res.text.match(/<script/g) ?? []).length, 2, 'only the boot data and the widget are scripts');
      const data = /<script id="shop-boot" type="application\/json">([\s\S]*?)<\/script>/.exec(res.text)![1];
      assert.doesNotMatch(data, /[<\u2028\u2029]/, 'nothing in the data can end the script or a line');
      assert.match(
        res.text,
        /<title>Die &lt;\/script&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;Blatt&quot; /,
      );
      assert.match(res.text, /&lt;!-- \$&#39; \$&amp; \$1<\/title>/, 'no $-pattern pastes a part of the page');
    } finally {
      await withForm(t.http.put('/api/settings/').set('Authorization', office), { newspaperName: DEMO_NEWSPAPER_NAME });
    }
  });

  it('links the favicon of the settings (the logo without one) and the custom CSS once there is some', async () => {
    const office = await t.office();
    const before = (await page.get('/v/DEMO-1')).text;
    const { logo, favicon } = bootOf(before).settings;
    assert.equal(favicon, null, 'the demo has no favicon');
    assert.ok(
      before.includes(`<link rel="icon" href="${logo.startsWith('/') ? logo : `/${logo}`}">`),
      'the logo stands in',
    );
    assert.doesNotMatch(before, /style\.css/);

    const saved = await withForm(
      t.http.put('/api/settings/').set('Authorization', office),
      {},
      { favicon: { bytes: pngBytes([0, 128, 0]), name: 'icon.png' } },
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const css = await t.http
      .put('/api/settings/css')
      .set('Authorization', office)
      .set('Content-Type', 'text/css')
      .send('#shop-landing-title { color: teal }');
    assert.equal(css.status, 200, JSON.stringify(css.body));
    try {
      const html = (await page.get('/v/DEMO-1')).text;
      assert.ok(html.includes(`<link rel="icon" href="${saved.body.favicon}">`), 'the favicon');
      assert.ok(
        html.includes(
          `<link id="shop-custom-css" rel="stylesheet" href="/public/style.css?rev=${css.body.styleRevision}">`,
        ),
        'the CSS by revision',
      );
      assert.doesNotMatch(html, /color: teal/, 'the CSS itself stays at its own, cacheable address');
    } finally {
      await withForm(t.http.put('/api/settings/').set('Authorization', office), { favicon: '' });
      await t.http.put('/api/settings/css').set('Authorization', office).set('Content-Type', 'text/css').send('');
    }
  });

  it('holds no secret of the configuration', async () => {
    const config = {
      ...t.config,
      stripe: { secretKey: secrets.STRIPE_SECRET_KEY, webhookSecret: secrets.STRIPE_WEBHOOK_SECRET },
      smtpUrl: secrets.SMTP_URL,
    };
    const res = await supertest(appWith(config).callback()).get('/v/DEMO-1');
    assert.equal(res.status, 200);
    for (const [name, value] of Object.entries(secrets))
      assert.ok(!res.text.includes(value), `${name} is not in the page`);
    assert.doesNotMatch(res.text, /sk_live|sk_test|whsec_|password|style_css|_file_id/i);
  });

  it('lets the browser cache the hashed script for a year, widget.js briefly, and revalidates the page', async () => {
    const asset = await page.get('/assets/index-abc123.js');
    assert.equal(asset.status, 200);
    assert.match(asset.headers['content-type'], /^text\/javascript/);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');

    const widget = await page.get('/widget.js');
    assert.equal(widget.headers['cache-control'], 'public, max-age=300');
    const unchanged = await page.get('/widget.js').set('If-None-Match', widget.headers.etag);
    assert.equal(unchanged.status, 304, 'an unchanged widget.js is not sent again');

    const html = await page.get('/v/DEMO-1');
    assert.equal(html.headers['cache-control'], 'no-cache');
    assert.ok(html.headers.etag, 'the page has a validator');
    assert.equal((await page.get('/v/DEMO-1').set('If-None-Match', html.headers.etag)).status, 304);
    const office = await t.office();
    await withForm(t.http.put('/api/settings/').set('Authorization', office), { color: '#123456' });
    try {
      const changed = await page.get('/v/DEMO-1').set('If-None-Match', html.headers.etag);
      assert.equal(changed.status, 200, 'a settings change reaches the next visit');
      assert.match(changed.text, /content="#123456"/);
    } finally {
      await withForm(t.http.put('/api/settings/').set('Authorization', office), {
        color: html.text.match(/theme-color" content="([^"]+)"/)![1],
      });
    }
  });

  it('sends pages, scripts and JSON compressed with brotli or gzip, whichever the browser accepts', async () => {
    for (const target of ['/v/DEMO-1', '/assets/index-abc123.js', '/api/shop/boot/?vendor=DEMO-1']) {
      const plain = await rawGet(app, target);
      assert.equal(plain.headers['content-encoding'], undefined, `${target} uncompressed without Accept-Encoding`);
      const br = await rawGet(app, target, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
      assert.equal(br.headers['content-encoding'], 'br', target);
      assert.match(String(br.headers.vary), /Accept-Encoding/, target);
      const gz = await rawGet(app, target, { 'Accept-Encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip', target);
      assert.ok(
        br.body.length < plain.body.length && gz.body.length < plain.body.length,
        `${target} is smaller compressed`,
      );
      // The same bytes arrive (the page's ETag may differ: it names its content, not the encoding).
      assert.deepEqual(zlib.brotliDecompressSync(br.body), plain.body, target);
      assert.deepEqual(zlib.gunzipSync(gz.body), plain.body, target);
    }
    const refused = await rawGet(app, '/v/DEMO-1', { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    assert.equal(refused.headers['content-encoding'], undefined, 'q=0 means no');
    const tiny = await rawGet(app, '/api/vendors/check/DEMO-1/', { 'Accept-Encoding': 'br' });
    assert.equal(tiny.headers['content-encoding'], undefined, 'a few bytes are not worth encoding');
    assert.equal(JSON.parse(tiny.body.toString()).licenseId, 'DEMO-1');
  });

  it('reads and compresses a script named by its content once, however often it is asked for', async () => {
    const shop = path.join(dist, 'shop-widget');
    const first = await rawGet(app, '/assets/index-abc123.js', { 'Accept-Encoding': 'br' });
    const firstWidget = await rawGet(app, '/widget.js', { 'Accept-Encoding': 'br' });
    assert.equal(first.headers['content-encoding'], 'br');
    assert.match(String(first.headers.vary), /Accept-Encoding/);
    // Vite never puts other bytes under a hashed name; other bytes on the disk show whether it is read again.
    const originals = ['assets/index-abc123.js', 'widget.js'].map((name) => {
      const file = path.join(shop, name);
      const original = fs.readFileSync(file);
      fs.writeFileSync(file, `/* another build */ ${original.toString()}`);
      return [file, original] as const;
    });
    try {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const again = await rawGet(app, '/assets/index-abc123.js', { 'Accept-Encoding': encoding });
        assert.equal(again.headers.etag, first.headers.etag, encoding);
        if (encoding === 'br') assert.deepEqual(again.body, first.body, 'the very bytes of the first answer');
        const body =
          encoding === 'br'
            ? zlib.brotliDecompressSync(again.body)
            : encoding === 'gzip'
              ? zlib.gunzipSync(again.body)
              : again.body;
        assert.equal(body.toString(), script, `${encoding}: the bytes first read`);
      }
      const unchanged = await rawGet(app, '/assets/index-abc123.js', { 'If-None-Match': first.headers.etag! });
      assert.equal(unchanged.status, 304);
      const head = await page.head('/assets/index-abc123.js').set('Accept-Encoding', 'br');
      assert.equal(head.headers['content-encoding'], 'br', 'a HEAD says what the GET sends');
      assert.equal(head.headers['content-length'], first.headers['content-length']);
      // widget.js keeps its name from build to build: it is read as it is now.
      const widget = await rawGet(app, '/widget.js', { 'Accept-Encoding': 'br' });
      assert.notEqual(widget.headers.etag, firstWidget.headers.etag);
      assert.match(zlib.brotliDecompressSync(widget.body).toString(), /^\/\* another build \*\//);
      const sideways = await rawGet(app, '/assets/../widget.js', { 'Accept-Encoding': 'br' });
      assert.equal(sideways.headers['cache-control'], 'public, max-age=300', 'widget.js, not a hashed name');
      assert.equal(sideways.headers.etag, widget.headers.etag);
    } finally {
      for (const [file, original] of originals) fs.writeFileSync(file, original);
    }
  });
});
