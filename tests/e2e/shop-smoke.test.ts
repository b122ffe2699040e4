import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { phone, screenshot } from './browser.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The built shop widget and back office, served by the real server, in Chromium at phone width.
describe('e2e: shop placeholder in Chromium', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[];

  const e2e = useServerAndBrowser();
  before(() => ({ server, browser } = e2e));


  beforeEach(async () => {
    page = await browser.newPage({ viewport: phone, deviceScaleFactor: 2, locale: 'de-AT' });
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterEach(async () => {
    await page.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  });

  it("greets the customer with the vendor's name on /v/DEMO-1", async () => {
    const check = await fetch(`${server.url}/api/vendors/check/DEMO-1/`);
    assert.equal(check.status, 200);
    const { displayName } = (await check.json()) as { displayName: string };
    assert.ok(displayName, 'the API names the vendor');

    await page.goto(`${server.url}/v/DEMO-1`);
    const title = page.locator('#shop-landing-title');
    await title.waitFor();
    assert.equal((await title.textContent())?.trim(), `Kaufe eine Zeitung bei ${displayName}`);
    assert.equal(await page.locator('#shop-newspaper-name').textContent(), DEMO_NEWSPAPER_NAME);
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    await page.waitForFunction(() => {
      const logo = document.querySelector<HTMLImageElement>('#shop-logo');
      return logo?.complete && logo.naturalWidth > 0;
    });
    assert.equal(await page.title(), DEMO_NEWSPAPER_NAME);
    await screenshot(page, 'shop-landing-DEMO-1');
  });

  it('says that a deactivated vendor’s ID is invalid on /v/DEMO-OFF', async () => {
    await page.goto(`${server.url}/v/DEMO-OFF`);
    await page.locator('#shop-invalid-id').waitFor();
    assert.equal(await page.locator('#shop-invalid-id').textContent(), 'Die gescannte ID ist nicht gültig');
    assert.equal(await page.locator('#shop-go-to-vendor-text').textContent(), 'Bitte gehe zu einem Verkäufer');
    assert.equal(await page.locator('#shop-landing-title').count(), 0);
    await screenshot(page, 'shop-invalid-DEMO-OFF');
  });

  it('sends a visitor without a vendor to a vendor on /', async () => {
    await page.goto(`${server.url}/`);
    await page.locator('#shop-go-to-vendor-text').waitFor();
    assert.equal(await page.locator('#shop-go-to-vendor-text').textContent(), 'Bitte gehe zu einem Verkäufer');
    assert.equal(await page.locator('#shop-invalid-id').count(), 0);
  });

  it('serves the back-office placeholder at /backoffice and the default logo at /img/logo.png', async () => {
    await page.goto(`${server.url}/backoffice`);
    await page.locator('#backoffice-title').waitFor();
    assert.equal(await page.locator('#backoffice-title').textContent(), 'Backoffice');
    assert.equal(await page.locator('#backoffice-login-pending').textContent(), 'Login folgt');
    await screenshot(page, 'backoffice-placeholder');

    const logo = await fetch(`${server.url}/img/logo.png`);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await logo.arrayBuffer());
    assert.equal(bytes.subarray(1, 4).toString('ascii'), 'PNG');
  });
});
