import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginWithPkce } from '../support/oidc-flow.ts';
import { screenshot } from './browser.ts';
import { freePort, type ServerOptions } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The newspaper's own website embeds the shop with one script tag. A second local
// server plays that website: as http://127.0.0.1:<port> it is listed in EMBED_ORIGINS, as
// http://localhost:<port> (another origin, same pages) it is not. The shop runs at
// http://localhost:<shop port>.

/** Written so that, if anything leaked into the widget, its look would change beyond doubt. */
const hostileCss = `
  body { font: 30px/3 "Times New Roman", serif; color: rgb(0, 128, 0); background: rgb(255, 255, 224); }
  * { letter-spacing: 3px !important; text-transform: uppercase !important; }
  h1, p, span, button, a, label { color: rgb(255, 0, 0) !important; background: rgb(0, 0, 255) !important; font-family: serif !important; }
  .shop-button, #shop-next { display: none !important; }
  street-paper-shop, div { border: 10px solid red; padding: 40px; font-size: 40px; }
`;

function embeddingPage(shop: string, { css = '', widget = true, vendor = 'DEMO-1' } = {}): string {
  return `<!doctype html>
<html lang="de">
  <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Die Zeitung im Netz</title>${css ? `<style>${css}</style>` : ''}</head>
  <body>
    <h1 id="page-title">Unsere Zeitung online kaufen</h1>
    <button id="page-button" class="shop-button shop-primary" type="button">A button of the newspaper's page</button>
    ${widget ? `<script src="${shop}/widget.js" data-vendor="${vendor}" async></script>` : ''}
    <p id="page-after">Text after the widget</p>
  </body>
</html>`;
}

/** The policy README.md asks the newspaper's page to allow, for the shop at `shop`. */
const readmePolicy = (shop: string) =>
  `default-src 'self'; script-src 'self' ${shop}; connect-src 'self' ${shop}; img-src 'self' ${shop}; style-src 'self' ${shop}`;

/**
 * The newspaper's website: /plain, /strict (the same under the README's Content-Security-Policy),
 * /hostile (aggressive CSS) and /no-widget (the same page without the script).
 */
async function startNewspaperSite(shopUrl: () => string) {
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    const pages: Record<string, string> = {
      '/plain': embeddingPage(shopUrl()),
      '/hostile': embeddingPage(shopUrl(), { css: hostileCss }),
      '/no-widget': embeddingPage(shopUrl(), { widget: false }),
    };
    pages['/strict'] = pages['/plain'];
    const body = pages[pathname];
    res.writeHead(body ? 200 : 404, {
      'Content-Type': 'text/html; charset=utf-8',
      ...(pathname === '/strict' ? { 'Content-Security-Policy': readmePolicy(shopUrl()) } : {}),
    });
    res.end(body ?? 'not found');
  });
  // Both loopback names must reach it: 127.0.0.1 is the listed origin, localhost the unlisted one.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    listed: `http://127.0.0.1:${port}`,
    unlisted: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Computed styles that make up an element's look. */
function lookOf(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const s = getComputedStyle(el);
      return [
        s.color,
        s.backgroundColor,
        s.fontFamily,
        s.fontSize,
        s.letterSpacing,
        s.textTransform,
        s.display,
        s.borderTopWidth,
        s.paddingTop,
      ].join(' | ');
    });
}

describe('e2e: the shop embedded on the newspaper’s website', function () {
  this.timeout(90_000);
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startNewspaperSite>>;
  let shop = '';
  const options: ServerOptions = {};

  // Runs before the shared hook starts the server, so the server starts with this site listed.
  before(async () => {
    const port = await freePort();
    shop = `http://localhost:${port}`;
    site = await startNewspaperSite(() => shop);
    Object.assign(options, { port, env: { PUBLIC_URL: shop, EMBED_ORIGINS: site.listed } });
  });
  const e2e = useServerAndBrowser(options);
  before(() => ({ browser } = e2e));
  after(() => site?.close());

  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const open = async (locale: string) => {
    context = await browser.newContext({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, locale });
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  };
  afterEach(async () => {
    await context?.close();
  });

  it('renders inside a shadow root after its script tag and pays through Stripe back to the page, with the receipt (de)', async () => {
    await open('de-AT');
    const violations: string[] = [];
    page.on('console', (entry) => /Content Security Policy/i.test(entry.text()) && violations.push(entry.text()));
    // The page allows what README.md lists, nothing more.
    await page.goto(`${site.listed}/strict`);
    await page.locator('#shop-next').waitFor();
    assert.equal((await page.locator('#shop-landing-title').textContent())?.trim(), 'Kaufe eine Zeitung bei Anna');
    const placement = await page.evaluate(() => {
      const host = document.querySelector('street-paper-shop');
      return {
        afterScript: host?.previousElementSibling?.tagName,
        beforeText: host?.nextElementSibling?.id,
        inShadow: Boolean(host?.shadowRoot?.querySelector('#shop-next')),
        inPage: Boolean(document.querySelector('#shop-next')),
        url: location.href,
      };
    });
    assert.deepEqual(placement, {
      afterScript: 'SCRIPT',
      beforeText: 'page-after',
      inShadow: true,
      inPage: false,
      url: `${site.listed}/strict`,
    });
    await screenshot(page, 'shop-embed-landing-de-375');

    // Four taps: Next, a tip, the terms, Pay; Stripe's page opens in the top window.
    await page.locator('#shop-next').click();
    await page.locator('#shop-tip-200').click();
    await page.locator('#shop-terms').check();
    await Promise.all([page.waitForURL(`${shop}/stripe-sandbox/**`), page.locator('#shop-pay').click()]);
    await page.locator('#card').fill('4242 4242 4242 4242');
    await Promise.all([page.waitForURL(`${site.listed}/strict?**`), page.locator('#sandbox-pay').click()]);

    // Back on the newspaper's page: the widget confirms the payment and shows the receipt.
    await page.locator('#shop-receipt-title').waitFor({ timeout: 30_000 });
    assert.equal((await page.locator('#shop-receipt-title').textContent())?.trim(), 'Bitte zeige diese Seite Anna');
    assert.equal((await page.locator('#shop-receipt-total-amount').textContent())?.replace(/\s/g, ' '), '5,00 €');
    assert.equal(
      await page.evaluate(() => location.href),
      `${site.listed}/strict`,
      'the order token left the address bar',
    );
    await screenshot(page, 'shop-embed-receipt-de-375');

    await page.reload();
    await page.locator('#shop-receipt-title').waitFor();
    assert.equal(
      (await page.locator('#shop-receipt-total-amount').textContent())?.replace(/\s/g, ' '),
      '5,00 €',
      'the receipt survives a reload',
    );
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(violations, [], "the README's policy is enough");
  });

  it('keeps the page’s CSS out of the widget and the widget’s CSS out of the page', async () => {
    await open('de-AT');
    const look = async (path: string) => {
      await page.goto(`${site.listed}${path}`);
      await page.locator('#page-after').waitFor();
      // Visible, also where the page hides every .shop-button and #shop-next it can reach.
      if (path !== '/no-widget') await page.locator('#shop-next').waitFor({ state: 'visible' });
      return {
        widget:
          path === '/no-widget'
            ? null
            : [
                await lookOf(page, '#shop-next'),
                await lookOf(page, '#shop-landing-title'),
                await lookOf(page, '#shop-app'),
              ],
        page: [await lookOf(page, '#page-button'), await lookOf(page, '#page-title'), await lookOf(page, 'body')],
        styleSheets: await page.evaluate(() => document.styleSheets.length),
      };
    };
    const plain = await look('/plain');
    const hostile = await look('/hostile');
    const without = await look('/no-widget');
    assert.deepEqual(hostile.widget, plain.widget, 'the widget looks the same on a page with aggressive CSS');
    assert.deepEqual(plain.page, without.page, 'the page looks the same with and without the widget');
    assert.equal(plain.styleSheets, without.styleSheets, 'the widget adds no style sheet to the page');
    assert.notDeepEqual(hostile.page, plain.page, 'the hostile CSS does change the page itself');
  });

  it('applies the newspaper’s custom CSS inside the widget, also under the README’s policy', async () => {
    // The shop's address is its PUBLIC_URL, where the login service issues tokens.
    const { access_token: token } = await loginWithPkce(shop, 'office', 'office');
    const saveCss = (css: string) =>
      fetch(`${shop}/api/settings/css/`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/css' },
        body: css,
      });
    assert.equal((await saveCss('#shop-landing-title { color: rgb(0, 128, 128); }')).status, 200);
    try {
      await open('de-AT');
      await page.goto(`${site.listed}/strict`);
      const title = page.locator('#shop-landing-title');
      await title.waitFor();
      await page.waitForFunction(() => {
        const el = document.querySelector('street-paper-shop')?.shadowRoot?.querySelector('#shop-landing-title');
        return el && getComputedStyle(el).color === 'rgb(0, 128, 128)';
      });
    } finally {
      assert.equal((await saveCss('')).status, 200);
    }
  });

  it('comes back to the page when the customer leaves Stripe, and "Try again" keeps the cart (en)', async () => {
    await open('en-GB');
    await page.goto(`${site.listed}/plain`);
    await page.locator('#shop-next').waitFor();
    assert.equal((await page.locator('#shop-landing-title').textContent())?.trim(), 'Buy a newspaper from Anna');
    assert.equal((await page.locator('#shop-next').textContent())?.trim(), 'Next');
    await screenshot(page, 'shop-embed-landing-en-375');

    await page.locator('#shop-next').click();
    await page.locator('#shop-tip-100').click();
    await page.locator('#shop-terms').check();
    const total = await page.locator('#shop-order-total-amount').textContent();
    await Promise.all([page.waitForURL(`${shop}/stripe-sandbox/**`), page.locator('#shop-pay').click()]);
    await Promise.all([page.waitForURL(`${site.listed}/plain?**`), page.locator('#sandbox-back').click()]);

    await page.locator('#shop-failure-title').waitFor();
    assert.equal((await page.locator('#shop-failure-title').textContent())?.trim(), 'Transaction failed');
    assert.equal(await page.evaluate(() => location.href), `${site.listed}/plain`);
    await page.locator('#shop-try-again').click();
    await page.locator('#shop-confirmation').waitFor();
    assert.equal(await page.locator('#shop-order-total-amount').textContent(), total, 'the same cart and tip');
    assert.deepEqual(pageErrors, []);
  });

  for (const { locale, message } of [
    { locale: 'de-AT', message: 'Der Shop kann auf dieser Seite nicht angezeigt werden.' },
    { locale: 'en-GB', message: 'The shop cannot be shown on this page.' },
  ]) {
    it(`refuses a website that is not listed: no shop, a clear message, its API calls blocked by CORS (${locale})`, async () => {
      await open(locale);
      const console: string[] = [];
      page.on('console', (entry) => entry.type() === 'error' && console.push(entry.text()));
      await page.goto(`${site.unlisted}/plain`);
      const note = page.locator('street-paper-shop .shop-embed-refused');
      await note.waitFor();
      assert.equal(await note.textContent(), message);
      assert.equal(await note.getAttribute('role'), 'alert');
      assert.equal(await page.locator('#shop-next').count(), 0, 'no shop');
      assert.ok(
        console.some((line) => line.includes('EMBED_ORIGINS')),
        `the console explains why: ${JSON.stringify(console)}`,
      );
      // No named functions in here: the test's compiler would wrap them in a helper the page lacks.
      const calls = await page.evaluate(
        (base) =>
          Promise.all(
            [
              ['/api/settings/', {}],
              ['/api/shop/boot/?vendor=DEMO-1', {}],
              ['/api/orders/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }],
            ].map(([path, init]) =>
              fetch(`${base}${path as string}`, init as RequestInit).then(
                (res) => `read ${res.status}`,
                () => 'blocked',
              ),
            ),
          ),
        shop,
      );
      assert.deepEqual(calls, ['blocked', 'blocked', 'blocked']);
      await screenshot(page, `shop-embed-refused-${locale}-375`);
    });
  }
});
