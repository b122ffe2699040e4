import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { describeApi } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';

// What a search engine or a shared link's preview shows under a page's title: the shop's pages the
// newspaper's own text once it wrote one (settings `metaDescription`), the generated one until then;
// the vendor's page /me always its own, in the reader's language. A small stand-in of Vite's output
// keeps these tests independent of the builds.

function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meta-dist-'));
  const page = (body: string) =>
    `<!doctype html>\n<html lang="de">\n  <head>\n    <meta charset="utf-8" />\n    <title>Straßenzeitung</title>\n  </head>\n  <body>${body}</body>\n</html>\n`;
  fs.mkdirSync(path.join(dir, 'shop-widget'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'shop-widget', 'index.html'), page('<div id="shop"></div>'));
  fs.mkdirSync(path.join(dir, 'admin'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'admin', 'me.html'), page('<div id="root"></div>'));
  return dir;
}

/** The content of the page's one meta description. */
function descriptionOf(html: string): string {
  const found = [...html.matchAll(/<meta name="description" content="([^"]*)">/g)];
  assert.equal(found.length, 1, `one meta description in ${html}`);
  return found[0][1];
}

describeApi('meta descriptions of the shop and the vendor’s page', (t) => {
  let dist: string;
  let page: supertest.Agent;
  let office = '';
  before(async () => {
    dist = fakeBuild();
    page = supertest.agent(buildApp({ db: t.db, config: t.config, distDir: dist }).callback());
    office = await t.office();
  });
  after(() => fs.rmSync(dist, { recursive: true, force: true }));
  beforeEach(() => t.reset());

  const described = async (pathname: string, language: 'de' | 'en') => {
    const res = await page.get(pathname).set('Accept-Language', language);
    assert.equal(res.status, 200, pathname);
    return descriptionOf(res.text);
  };
  const putSettings = (fields: Record<string, string>, language: 'de' | 'en' = 'de') =>
    withForm(t.http.put('/api/settings/').set('Authorization', office).set('Accept-Language', language), fields);

  it('describes /v/DEMO-1 by the generated text, or by the newspaper’s own once it wrote one; /me keeps its own', async () => {
    const vendor = (await t.http.get('/api/vendors/check/DEMO-1/')).body.displayName as string;
    const generated = {
      de: `${DEMO_NEWSPAPER_NAME} online kaufen bei ${vendor}: die Straßenzeitung gedruckt oder digital, bezahlt mit Karte.`,
      en: `Buy ${DEMO_NEWSPAPER_NAME} online from ${vendor}: the street paper in print or digital, paid by card.`,
    };
    const vendorPage = {
      de: `Dein Guthaben, deine Buchungen und dein QR-Code als Verkäuferin oder Verkäufer bei ${DEMO_NEWSPAPER_NAME}.`,
      en: `Your credit, your transactions and your QR code as a vendor of ${DEMO_NEWSPAPER_NAME}.`,
    };
    for (const language of ['de', 'en'] as const) {
      assert.equal(await described('/v/DEMO-1', language), generated[language]);
      assert.equal(await described('/me', language), vendorPage[language]);
    }
    const mePage = await page.get('/me').set('Accept-Language', 'en');
    assert.match(mePage.text, /<html lang="en">/, 'the page says the language its description is in');
    assert.match(mePage.headers.vary ?? '', /Accept-Language/);

    const own = 'Die Straßenzeitung für Wien & Umgebung: "gedruckt" <und> digital.';
    const saved = await putSettings({ metaDescription: own });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.metaDescription, own);
    const escaped = 'Die Straßenzeitung für Wien &amp; Umgebung: &quot;gedruckt&quot; &lt;und&gt; digital.';
    for (const language of ['de', 'en'] as const) {
      assert.equal(await described('/v/DEMO-1', language), escaped, 'the newspaper’s text, as it wrote it');
      assert.equal(await described('/', language), escaped, 'on the pages without a vendor as well');
      assert.equal(await described('/me', language), vendorPage[language]);
    }

    const emptied = await putSettings({ metaDescription: '' });
    assert.equal(emptied.status, 200, JSON.stringify(emptied.body));
    assert.equal(await described('/v/DEMO-1', 'de'), generated.de, 'empty: the generated text again');
  });

  it('refuses a description over 300 characters, in German, and keeps the one saved', async () => {
    assert.equal((await putSettings({ metaDescription: 'Kurz.' })).status, 200);
    const refused = await putSettings({ metaDescription: 'x'.repeat(301) });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.errors.metaDescription, 'Bitte höchstens 300 Zeichen verwenden.');
    assert.match(refused.body.message, /Beschreibung für Suchmaschinen/);
    assert.equal((await t.http.get('/api/settings/')).body.metaDescription, 'Kurz.');
    assert.equal((await putSettings({ metaDescription: 'x'.repeat(300) })).status, 200, '300 are fine');
  });
});
