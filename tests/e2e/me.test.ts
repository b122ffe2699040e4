import assert from 'node:assert/strict';
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { accessToken, logInAtProvider, openLoggedIn, useBrowserTab } from './admin-login.ts';
import { phone, screenshot, resize } from './browser.ts';
import { librariesIn } from './libraries.ts';
import { expectAccessible } from './axe.ts';
import { buyInShop, mainItemOrder } from './purchase.ts';
import type { RunningServer } from './server.ts';

// the vendor area /me — the vendor logs in and sees credit, last payout and transactions,
// their QR code to download and their profile, in German and English, on a 320 px phone, with
// under 80 KB of gzipped JavaScript; a back-office login is sent to the back office
//.
describe('e2e: the vendor area /me in Chromium', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ contextOptions: { viewport: phone, deviceScaleFactor: 2 } });
  let server: RunningServer;
  let page: Page;
  beforeEach(() => ({ server, page } = tab));

  const title = (pageName: string) => `${DEMO_NEWSPAPER_NAME} | ${pageName}`;
  /**
   * The tab is titled after the page: the title is set by an effect, a moment after the page's
   * content, so it is given a few seconds to follow before it is compared.
   */
  const expectTitle = async (pageName: string) => {
    const wanted = title(pageName);
    await page.waitForFunction((expected) => document.title === expected, wanted, { timeout: 5_000 }).catch(() => {});
    assert.equal(await page.title(), wanted);
  };

  it('logs the vendor in and shows credit, last payout and transactions with less than 80 KB of JavaScript', async () => {
    await page.goto(`${server.url}/me`);
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.waitForURL(`${server.url}/me`);
    await page.locator('#me-credit-amount').waitFor();
    // What a logged-in vendor's phone loads for the page.
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    await page.reload();
    await page.locator('#me-credit-amount').waitFor();
    assert.match(await page.locator('#me-credit-amount').innerText(), /^\d+,\d\d\s€$/, 'the credit in euros');
    await page
      .locator('#me-transactions li, #me-transactions p')
      .first()
      .filter({ hasNotText: 'Wird geladen' })
      .waitFor();
    assert.match(await page.locator('#me-last-payout').innerText(), /Letzte Auszahlung/);
    await expectTitle('Mein Guthaben');
    await screenshot(page, 'me-info-390');

    const loaded = scripts.filter((response) => new URL(response.url()).pathname.startsWith('/backoffice/assets/'));
    const bodies = await Promise.all(loaded.map((response) => response.body()));
    assert.ok(bodies.length >= 1);
    // No QR code library before the QR page, no map, nothing of react-admin.
    assert.deepEqual(bodies.flatMap(librariesIn), []);
    const gzipKb = bodies.reduce((sum, body) => sum + gzipSync(body).length, 0) / 1024;
    console.log(`      /me: ${bodies.length} scripts, ${gzipKb.toFixed(1)} KB gzip JS`);
    assert.ok(gzipKb < 80, `/me loads ${gzipKb.toFixed(1)} KB gzip of JavaScript`);
  });

  it('shows a card sale as one line in German and in English at 390 px: tabs on one line, nothing shifting, accessible', async () => {
    await buyInShop(server.url, await mainItemOrder(server.url, 'DEMO-1', 100));
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!entry.hadRecentInput) w.shifts.push(entry.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${server.url}/me`);
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.waitForURL(`${server.url}/me`);
    for (const [language, sale, amount, fee] of [
      ['de', /^Verkauf: Zeitung × 1\n/, /\n[1-9]\d*,\d\d\s€$/, 'Kartengebühr'],
      ['en', /^Sale: Newspaper × 1\n/, /\n€[1-9]\d*\.\d\d$/, 'Card fee'],
    ] as const) {
      // A fresh load in the language the vendor chose on the device: what it shifts is measured from its start.
      await page.reload();
      const first = page.locator('#me-transactions li').first();
      await first.waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), language);
      assert.match(await first.innerText(), sale, 'the newest line is the sale, its items named');
      assert.match(await first.innerText(), amount, 'with what it brought the vendor');
      assert.equal(await page.locator('#me-transactions li').filter({ hasText: fee }).count(), 0, 'no fee rows');
      const tabLines = await page.$$eval('.me-nav a', (links) =>
        links.map((link) => {
          const range = document.createRange();
          range.selectNodeContents(link);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
      );
      assert.deepEqual(tabLines, [1, 1, 1, 1], `each tab on one line (${language})`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `no sideways scrolling at 390 px (content is ${width} px wide)`);
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      const shift = await page.evaluate(() =>
        (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0),
      );
      assert.ok(shift < 0.01, `the page shifts by ${shift.toFixed(4)} (${language})`);
      await expectAccessible(page, `/me (${language})`);
      await screenshot(page, `me-lines-${language}-390`);
      if (language === 'de') await page.locator('#me-lang-en').click();
    }
  });

  it('shows the vendor’s QR code for <QRCodeUrl>/v/<licenceId> and downloads it as PNG and SVG', async () => {
    await page.goto(`${server.url}/me/qrcode`);
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.waitForURL(`${server.url}/me/qrcode`);
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as {
      qrCodeUrl: string;
      publicUrl: string;
    };
    const code = page.locator('#me-qr-code');
    await code.locator('svg').waitFor();
    // A fresh start on a random port: the seed stores no QR address, so the code leads to PUBLIC_URL.
    assert.deepEqual([settings.qrCodeUrl, settings.publicUrl], ['', server.url]);
    assert.equal(await code.getAttribute('data-url'), `${server.url}/v/DEMO-1`);
    await expectTitle('QR-Code');
    await screenshot(page, 'me-qrcode-390');

    for (const [button, extension, magic] of [
      ['#me-qr-png', 'png', '\x89PNG'],
      ['#me-qr-svg', 'svg', '<svg'],
    ] as const) {
      const download = page.waitForEvent('download');
      await page.locator(button).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), `qr-DEMO-1.${extension}`);
      const bytes = fs.readFileSync(await file.path());
      assert.ok(bytes.toString('latin1').includes(magic), `${extension} file`);
      // Big enough to print a badge: the PNG's header holds its width at byte 16, the SVG its own.
      const width =
        extension === 'png' ? bytes.readUInt32BE(16) : Number(/<svg[^>]*\swidth="(\d+)"/.exec(bytes.toString())?.[1]);
      assert.ok(width >= 1000, `the ${extension} is ${width} px wide`);
    }
  });

  it('speaks the language the office chose for the vendor, until the vendor chooses on the device', async () => {
    // The office sets DEMO-1 to English, as in the vendor form.
    const office = await page.context().browser()!.newContext();
    const officePage = await office.newPage();
    await openLoggedIn(officePage, `${server.url}/backoffice/vendorsummary`, 'office', 'office');
    const headers = { Authorization: `Bearer ${await accessToken(officePage)}`, 'Content-Type': 'application/json' };
    const [demo1] = (await (
      await fetch(`${server.url}/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-1@"}')}`, { headers })
    ).json()) as { id: number; licenseId: string }[];
    assert.equal(demo1.licenseId, 'DEMO-1');
    const setLanguage = async (language: string) => {
      const record = (await (await fetch(`${server.url}/api/vendors/${demo1.id}`, { headers })).json()) as object;
      const res = await fetch(`${server.url}/api/vendors/${demo1.id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ ...record, language }),
      });
      assert.equal(res.status, 200, await res.text());
    };
    await setLanguage('en');
    try {
      await page.goto(`${server.url}/me`);
      await logInAtProvider(page, 'vendor', 'vendor');
      await page.locator('#me-credit').filter({ hasText: 'Credit' }).waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      await page.locator('#me-lang-de').click();
      await page.reload();
      await page.locator('#me-credit').filter({ hasText: 'Guthaben' }).waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'de', 'the choice on the device wins');
    } finally {
      await setLanguage('de');
      await office.close();
    }
  });

  it('shows the profile, switches to English and remembers it, and fits a 320 px screen', async () => {
    await resize(page, { width: 320, height: 640 });
    await page.goto(`${server.url}/me/profile`);
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.locator('#me-profile').waitFor();
    assert.match(await page.locator('#me-profile').innerText(), /Ausweisnummer\s+DEMO-1/);
    await expectTitle('Profil');

    await page.locator('#me-lang-en').click();
    assert.match(await page.locator('#me-profile').innerText(), /Licence ID\s+DEMO-1/);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.locator('#me-nav-info').click();
    await page.locator('#me-credit').filter({ hasText: 'Credit' }).waitFor();
    await expectTitle('My credit');
    await page.reload();
    await page.locator('#me-credit').filter({ hasText: 'Credit' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 320, `no sideways scrolling at 320 px (content is ${width} px wide)`);
    await screenshot(page, 'me-info-en-320');
  });

  it('sends a back-office login on /me to /backoffice/vendorsummary', async () => {
    await page.goto(`${server.url}/me`);
    await logInAtProvider(page, 'office', 'office');
    await page.waitForURL(`${server.url}/backoffice/vendorsummary`);
    await page.locator('#backoffice-page-title').waitFor();
  });

  it('asks for the login on /dashboard, then shows the vendor their area and staff the back office', async () => {
    await page.goto(`${server.url}/dashboard`);
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.waitForURL(`${server.url}/me`);
    await page.locator('#me-credit-amount').waitFor();
    await page.context().clearCookies();
    await page.evaluate(() => {
      sessionStorage.clear();
      localStorage.clear();
    });
    await page.goto(`${server.url}/dashboard`);
    await logInAtProvider(page, 'office', 'office');
    await page.waitForURL(`${server.url}/backoffice/vendorsummary`);
  });

  it('logs the vendor out: the login page asks again', async () => {
    await page.goto(`${server.url}/me`);
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.locator('#me-logout').click();
    await page.waitForURL((current) => current.pathname.startsWith('/oidc/interaction/'));
    assert.equal(await page.getByLabel('Passwort').inputValue(), '');
  });
});
