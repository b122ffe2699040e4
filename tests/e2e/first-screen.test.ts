import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { runInOwnProcess } from '../../bench/child.ts';
import type { Figure } from '../../bench/figures.ts';
import type { LighthouseOptions } from '../../bench/lighthouse.ts';
import { benchShop } from '../../bench/shop.ts';
import { assertMeasured, quietly } from '../support/bench.ts';
import { expectAccessible } from './axe.ts';
import { screenshot } from './browser.ts';
import { firstScreenBytes, openFirstScreen } from './first-screen.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The first screen of /v/DEMO-1 comes from one HTML answer plus the widget's cached
// script, with no API round trip, and costs under 25 KB gzip (page, scripts and styles; not the logo).

const budget = 25 * 1024;
/** the HTML up to the "Weiter" button fits in the first round trips of a slow phone. */
const beforeNextBudget = 14 * 1024;
const phone375 = { width: 375, height: 740 };

describe('e2e: the shop’s first screen', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let browser: Browser;

  const e2e = useServerAndBrowser();
  before(() => ({ server, browser } = e2e));

  for (const { locale, title, next } of [
    { locale: 'de-AT', title: 'Kaufe eine Zeitung bei Anna', next: 'Weiter' },
    { locale: 'en-GB', title: 'Buy a newspaper from Anna', next: 'Next' },
  ]) {
    it(`draws the landing page without any API request, under 25 KB gzip (${locale})`, async () => {
      const context = await browser.newContext({ viewport: phone375, deviceScaleFactor: 2, locale });
      try {
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        const requests = await openFirstScreen(page, `${server.url}/v/DEMO-1`);

        assert.equal(
          (await page.locator('#shop-landing h1, #shop-landing-title').first().textContent())?.trim(),
          title,
        );
        assert.equal((await page.locator('#shop-next').textContent())?.trim(), next);
        assert.equal(await page.title(), 'Straßenblatt Demo');
        assert.equal(await page.getAttribute('html', 'lang'), locale.slice(0, 2));

        // The favicon is an image too; Chromium files its request under "other".
        const icon = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href);
        const others = requests.filter(
          (r) => !['document', 'script', 'stylesheet', 'image'].includes(r.type) && r.url !== icon,
        );
        assert.deepEqual(others, [], `only the page, its files and images: ${JSON.stringify(requests)}`);
        assert.deepEqual(
          requests.filter((r) => new URL(r.url).pathname.startsWith('/api/')),
          [],
          'no API request',
        );
        assert.equal(requests.filter((r) => r.type === 'document').length, 1);

        const { total, files } = await firstScreenBytes(requests);
        assert.ok(
          total < budget,
          `the first screen costs ${total} bytes gzip (budget ${budget}): ${JSON.stringify(files)}`,
        );
        assert.deepEqual(errors, []);
        await screenshot(page, `first-screen-${locale}-375`);
      } finally {
        await context.close();
      }
    });
  }

  it('answers HTML that already is the first screen: at most 14 KB gzip up to "Weiter"', async () => {
    const html = await (await fetch(`${server.url}/v/DEMO-1`, { headers: { 'Accept-Language': 'de' } })).text();
    const next = html.indexOf('id="shop-next"');
    assert.ok(next > 0, 'the server rendered the "Weiter" button');
    const upToNext = html.slice(0, html.indexOf('</button>', next) + '</button>'.length);
    assert.match(upToNext, /<style id="shop-style">/, 'with the styles of the first screen inline');
    const bytes = zlib.gzipSync(upToNext).length;
    assert.ok(bytes <= beforeNextBudget, `${bytes} bytes gzip before "Weiter" (budget ${beforeNextBudget})`);
  });

  it('carries the styles inline on a page the script draws (the receipt), so it is never drawn unstyled', async () => {
    const html = await (await fetch(`${server.url}/paymentconfirmation?order=x`)).text();
    assert.match(html, /<div id="shop"><\/div>/, 'the receipt needs the browser: no first screen from the server');
    assert.match(html, /<style id="shop-style">[^<]*\.shop-receipt-tile\b/, 'the widget’s styles inline');
  });

  for (const { locale, title, next, tipping } of [
    { locale: 'de-AT', title: 'Kaufe eine Zeitung bei Anna', next: 'Weiter', tipping: /Trinkgeld|spenden/ },
    { locale: 'en-GB', title: 'Buy a newspaper from Anna', next: 'Next', tipping: /tip|donation/ },
  ]) {
    it(`shows the first screen and goes on with "${next}" without JavaScript (${locale})`, async () => {
      const context = await browser.newContext({ viewport: phone375, locale, javaScriptEnabled: false });
      try {
        const page = await context.newPage();
        const response = await page.goto(`${server.url}/v/DEMO-1`);
        assert.equal(response?.status(), 200);
        assert.equal((await page.locator('#shop-landing-title').textContent())?.trim(), title);
        await page.locator('#shop-next').waitFor({ state: 'visible' });
        await screenshot(page, `first-screen-no-js-${locale}-375`);
        const [answer] = await Promise.all([
          page.waitForNavigation(),
          page.getByRole('button', { name: next }).click(),
        ]);
        assert.equal(answer?.status(), 200, 'the server answers the next step');
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/tipping');
        assert.match((await page.locator('h1').first().textContent()) ?? '', tipping);
      } finally {
        await context.close();
      }
    });
  }

  it('hydrates the server’s first screen: "Weiter" moves on without loading a page', async () => {
    const context = await browser.newContext({ viewport: phone375, locale: 'de-AT' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const documents: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(request.url());
      });
      await openFirstScreen(page, `${server.url}/v/DEMO-1`);
      await expectAccessible(page, 'the hydrated first screen');
      await page.getByRole('button', { name: 'Weiter' }).click();
      await page.waitForURL(/\/v\/DEMO-1\/tipping$/);
      assert.deepEqual(documents, [`${server.url}/v/DEMO-1`], 'one page load');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('sends the page and its script compressed to the browser', async () => {
    const context = await browser.newContext({ viewport: phone375 });
    try {
      const page = await context.newPage();
      const encodings = new Map<string, string | null>();
      page.on('response', async (response) => {
        if (['document', 'script'].includes(response.request().resourceType()))
          encodings.set(response.url(), await response.headerValue('content-encoding'));
      });
      await openFirstScreen(page, `${server.url}/v/DEMO-1`);
      assert.ok(encodings.size >= 2, JSON.stringify([...encodings]));
      for (const [url, encoding] of encodings) assert.match(encoding ?? 'none', /^(br|gzip)$/, url);
    } finally {
      await context.close();
    }
  });

  // The shop and Lighthouse parts of `npm run bench` on this server, once each, so that a page they
  // load cannot change under them unseen; their figures are the bench's to judge.
  it('runs the shop bench once: first screen, floor page and both phone profiles measured', async () => {
    const figures = await quietly(() => benchShop({ tiny: true, origin: server.url, browser }));
    assertMeasured(figures, [
      'first screen /v/DEMO-1, HTML + JS + CSS gzip',
      'HTML before "Weiter", gzip',
      '"Weiter" painted, mobile, median of 1',
      'floor page, mobile, median of 1',
      '"Weiter" painted / floor page, mobile',
      '"Weiter" painted, slow mobile, median of 1',
    ]);
  });

  // Lighthouse runs in the headless shell the tests use (CI has no full Chromium); the bench
  // itself judges the full browser's scores. In a process of its own (bench/lighthouse-process.ts says why).
  it('runs the Lighthouse bench once: the landing page’s performance scored', async function () {
    this.timeout(180_000);
    const options: LighthouseOptions = { tiny: true, origin: server.url };
    const figures = await runInOwnProcess<Figure[]>('bench/lighthouse-process.ts', options);
    assertMeasured(figures, ['/v/DEMO-1: performance']);
    assert.equal(figures.length, 1);
  });
});
