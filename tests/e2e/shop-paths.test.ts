import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginWithPkce } from '../support/oidc-flow.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// every shop screen, opened by its address in a fresh browser (in-app QR
// scanners have no Back button and no history), offers a way forward; each problem is reported at the
// step where it arises, with the API's limits; ten quick taps on "Pay" make one order.

type Lang = 'de' | 'en';
const locales: Record<Lang, string> = { de: 'de-AT', en: 'en-GB' };
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describe('e2e: the shop without dead ends', function () {
  this.timeout(180_000);
  let server: RunningServer;
  let browser: Browser;
  let office: string;
  let items: { id: number; name: string; isDigital: boolean }[];
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];

  const e2e = useServerAndBrowser();
  before(async () => {
    ({ server, browser } = e2e);
    office = (await loginWithPkce(server.url, 'office', 'office')).access_token;
    items = (await (await fetch(`${server.url}/api/items/`)).json()) as typeof items;
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    assert.deepEqual(problems.splice(0), [], 'no page threw an error');
  });

  /** A browser that never saw the shop: its own storage, no history. */
  async function fresh(lang: Lang = 'de'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: locales[lang] });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    return page;
  }

  const text = async (page: Page, selector: string) => plain(await page.locator(selector).first().textContent());
  const itemId = (name: string) => items.find((item) => item.name === name)!.id;

  /** Orders in the database, as the back office counts them. */
  async function orderCount(): Promise<number> {
    const res = await fetch(`${server.url}/api/orders/?range=[0,0]`, {
      headers: { Authorization: `Bearer ${office}` },
    });
    assert.equal(res.status, 200, await res.clone().text());
    return Number(res.headers.get('content-range')!.split('/')[1]);
  }

  /** A pending order placed through the API, as another browser would have. */
  async function placeOrder(): Promise<{ order: string; checkoutUrl: string }> {
    const res = await fetch(`${server.url}/api/orders/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item: itemId('Zeitung'), quantity: 1 }] }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { order: string; checkoutUrl: string };
  }

  /**
   * The way forward on the screen as it is: the control `selector` is visible, and following it
   * leads to a screen that is not this one (or, for a link out of the shop, has a web address).
   */
  async function expectWayForward(page: Page, path: string, selector: string): Promise<void> {
    await page.goto(`${server.url}${path}`);
    await page.locator('h1').waitFor();
    const control = page.locator(selector);
    await control.waitFor({ state: 'visible' });
    const href = await control.getAttribute('href');
    if (href && /^https?:/.test(href) && (await control.getAttribute('target')) === '_blank') {
      assert.ok(!href.startsWith(server.url), `${path}: ${selector} leaves the shop for ${href}`);
      return;
    }
    const before = `${page.url()} ${await text(page, 'h1')}`;
    await control.click();
    await page.waitForFunction((was) => {
      const h1 = document.querySelector('h1');
      return h1 !== null && `${location.href} ${h1.textContent?.replace(/\s+/g, ' ').trim()}` !== was;
    }, before);
    assert.equal(await page.locator('h1').count(), 1, `${path}: ${selector} leads to a screen`);
  }

  it('offers a way forward on every screen opened by its address in a fresh browser', async () => {
    const pending = await placeOrder();
    const screens: [path: string, way: string][] = [
      ['/', '#shop-vendor-help'],
      ['/v/DEMO-1', '#shop-next'],
      ['/v/DEMO-1/check-id', '#shop-next'],
      ['/v/NOBODY-1', '#shop-vendor-help'],
      ['/v/DEMO-1/shop', '#shop-next'],
      ['/v/DEMO-1/items', '#shop-next'],
      ['/v/DEMO-1/additionalproducts', '#shop-next'],
      [`/v/DEMO-1/item-available?item=${itemId('Kalender 2027')}`, '#shop-back'],
      ['/v/DEMO-1/item-available', '#shop-back'],
      ['/v/DEMO-1/print-digital', '#shop-choose-print'],
      ['/v/DEMO-1/information', '#shop-back'],
      ['/v/DEMO-1/tipping', '#shop-tip-none'],
      ['/v/DEMO-1/custom-tip', '#shop-back'],
      ['/v/DEMO-1/confirmation', '#shop-change-products'],
      ['/v/DEMO-1/payment', '#shop-back-to-order'],
      [`/v/DEMO-1/payment?order=${pending.order}`, '#shop-payment-receipt'],
      ['/paymentconfirmation', '#shop-vendor-help'],
      ['/paymentconfirmation?order=not-a-token', '#shop-vendor-help'],
      [`/paymentconfirmation?order=${pending.order}`, '#shop-way-on'],
      ['/success?order=not-a-token&session_id=cs_x', '#shop-vendor-help'],
      [`/failure?order=${pending.order}`, '#shop-try-again'],
      ['/failure?order=not-a-token', '#shop-try-again'],
      ['/error', '#shop-vendor-help'],
      ['/error-invalid-link', '#shop-vendor-help'],
      ['/404', '#shop-vendor-help'],
      ['/maintenance', '#shop-maintenance-help'],
      ['/pdf/abcdefghijklmnopqrstuvwxyz012345', '#shop-vendor-help'],
    ];
    for (const [path, way] of screens) await expectWayForward(await fresh(), path, way);
    // An item page without its item says so instead of showing a heading alone.
    const noItem = await fresh();
    await noItem.goto(`${server.url}/v/DEMO-1/item-available`);
    assert.equal(await text(noItem, 'h1'), 'Dieses Produkt gibt es hier nicht.');
  });

  it('leads the error pages back to the vendor whose shop was open in this browser', async () => {
    const page = await fresh('en');
    await page.goto(`${server.url}/v/DEMO-2`);
    await page.locator('#shop-next').waitFor();
    // The button is the server's; the shop remembers its vendor once its script has taken the page over.
    await page.waitForFunction(() => sessionStorage.getItem('shop.vendor') === '"DEMO-2"');
    for (const path of [
      '/404',
      '/error',
      '/error-invalid-link',
      '/paymentconfirmation',
      '/pdf/abcdefghijklmnopqrstuvwxyz012345',
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.locator('#shop-way-on').click();
      await page.waitForURL(`${server.url}/v/DEMO-2/landing-page`);
      assert.equal(await text(page, 'h1'), 'Buy a newspaper from Johann');
    }
  });

  it('/paymentconfirmation without an order asks no staff-only list and says how to go on', async () => {
    const page = await fresh('de');
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/orders')) asked.push(request.url());
    });
    await page.goto(`${server.url}/paymentconfirmation`);
    assert.equal(await text(page, 'h1'), 'Keine Bestellung angegeben');
    assert.ok(!(await page.locator('#shop-content').innerText()).includes('Please log in'));
    assert.equal(
      await text(page, '#shop-how-to-go-on'),
      'Scanne den QR-Code auf dem Ausweis einer Verkäuferin oder eines Verkäufers, um dort einzukaufen.',
    );
    assert.deepEqual(asked, []);
  });

  it('"Try again" on a failure page opened in another browser finds the vendor by the order', async () => {
    const { order } = await placeOrder();
    const page = await fresh('de');
    await page.goto(`${server.url}/failure?order=${order}`);
    assert.equal(await text(page, '#shop-failure-nothing-charged'), 'Es wurde nichts abgebucht.');
    await page.locator('#shop-try-again').click();
    await page.waitForURL(`${server.url}/v/DEMO-1/confirmation`);
    assert.equal(await text(page, '#shop-order-vendor'), 'Du kaufst bei Anna');
  });

  it('gives the e-mail step of a digital item a way back and a way to buy without it', async () => {
    const page = await fresh('de');
    await page.goto(`${server.url}/v/DEMO-1/print-digital`);
    await page.locator('#shop-choose-digital').click();
    await page.goto(`${server.url}/v/DEMO-1/confirmation`);
    assert.equal(await text(page, 'h1'), 'Dein Produkt Digitale Ausgabe braucht eine E-Mail-Adresse');
    await page.locator('#shop-back').click();
    await page.waitForURL(`${server.url}/v/DEMO-1/tipping`);

    await page.goto(`${server.url}/v/DEMO-1/confirmation`);
    await page.getByRole('button', { name: 'Digitale Ausgabe entfernen' }).click();
    await page.locator('#shop-confirmation').waitFor();
    // Only the digital edition was in the cart: the confirmation says so and leads to the products.
    assert.equal(await text(page, '#shop-order-problem'), 'Dein Warenkorb ist leer.');
    await page.locator('#shop-change-products').click();
    await page.waitForURL(`${server.url}/v/DEMO-1/shop`);
  });

  it('stops "+" at the limit the API enforces and says so on the step', async () => {
    const page = await fresh('en');
    await page.goto(`${server.url}/v/DEMO-1/shop`);
    const more = page.getByRole('button', { name: 'One Newspaper more' });
    for (let i = 1; i < 20; i++) await more.click();
    assert.equal(await text(page, '.shop-item[data-item] .shop-item-quantity'), '20');
    assert.equal(await more.isDisabled(), true);
    assert.equal(await text(page, '.shop-quantity-limit'), 'At most 20 × Newspaper per order.');
    // The API refuses one more: the shop and the server share the limit (api/src/orders/limits.ts).
    const res = await fetch(`${server.url}/api/orders/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item: itemId('Zeitung'), quantity: 21 }] }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { message: string }).message, 'You can order at most 20 × "Zeitung".');
  });

  it('makes one order of ten quick taps on "Pay", and of "Pay" again after coming back from the card page', async () => {
    const before = await orderCount();
    const page = await fresh('de');
    await page.goto(`${server.url}/v/DEMO-1/confirmation`);
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();
    await page.locator('#shop-pay').evaluate((button: HTMLButtonElement) => {
      for (let tap = 0; tap < 10; tap++) button.click();
    });
    await page.waitForURL(/\/stripe-sandbox\/pay\//);
    const first = new URL((await page.locator('#sandbox-back').getAttribute('href'))!).searchParams.get('order');
    assert.equal(await orderCount(), before + 1);

    // Back from the card page to the order, and "Pay" again: the same order and the same card page.
    await page.goBack();
    await page.goto(`${server.url}/v/DEMO-1/confirmation`);
    await page.locator('#shop-pay').click();
    await page.waitForURL(/\/stripe-sandbox\/pay\//);
    const again = new URL((await page.locator('#sandbox-back').getAttribute('href'))!).searchParams.get('order');
    assert.equal(again, first);
    assert.equal(await orderCount(), before + 1);
  });
});
