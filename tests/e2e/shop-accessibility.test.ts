import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { screenshot, resize } from './browser.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// axe-core on every screen of the shop (each step, each page, the
// states a customer meets on them, and the sandbox's card page), in German and English, with no
// critical or serious violation and one h1 each; screenshots of each at 320 and 390 px.

type Lang = 'de' | 'en';
const locales: Record<Lang, string> = { de: 'de-AT', en: 'en-GB' };

interface ShopScreen {
  name: string;
  path: string;
  /** What the customer does on the screen before it is checked (its state: an error, a form). */
  then?: (page: Page) => Promise<void>;
}

describe('e2e: every shop screen is accessible in both languages', function () {
  this.timeout(600_000);
  let server: RunningServer;
  let browser: Browser;
  let screens: Record<Lang, ShopScreen[]>;
  const problems: string[] = [];

  const e2e = useServerAndBrowser();
  before(async function () {
    this.timeout(120_000);
    ({ server, browser } = e2e);
    const items = (await (await fetch(`${server.url}/api/items/`)).json()) as { id: number; name: string }[];
    const id = (name: string) => items.find((item) => item.name === name)!.id;
    const place = async (locale: Lang) => {
      const res = await fetch(`${server.url}/api/orders/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ vendor: 'DEMO-1', entries: [{ item: id('Zeitung'), quantity: 1 }], locale }),
      });
      assert.equal(res.status, 201, await res.clone().text());
      return (await res.json()) as { order: string; checkoutUrl: string };
    };
    const build = async (lang: Lang): Promise<ShopScreen[]> => {
      const pending = await place(lang);
      const paid = await buyInShop(server.url, {
        vendor: 'DEMO-1',
        entries: [
          { item: id('Zeitung'), quantity: 2 },
          { item: id('Digitale Ausgabe'), quantity: 1 },
        ],
        tip: 100,
        email: 'reader@example.org',
        locale: lang,
      });
      const receipt = (await (await fetch(`${server.url}/api/orders/${paid}/`)).json()) as {
        downloads: { id: string }[];
      };
      const sessionId = new URL(pending.checkoutUrl).pathname.split('/').pop()!;
      return [
        { name: 'landing', path: '/v/DEMO-1' },
        { name: 'shop', path: '/v/DEMO-1/shop' },
        {
          name: 'shop-empty',
          path: '/v/DEMO-1/shop',
          then: async (page) => {
            await page.locator('.shop-item[data-item] .shop-item-decrease').first().click();
            await page.locator('#shop-next').click();
            await page.locator('#shop-cart-problem').waitFor();
          },
        },
        { name: 'additional-products', path: '/v/DEMO-1/additionalproducts' },
        { name: 'item-available', path: `/v/DEMO-1/item-available?item=${id('Kalender 2027')}` },
        { name: 'print-digital', path: '/v/DEMO-1/print-digital' },
        { name: 'information', path: '/v/DEMO-1/information' },
        { name: 'tipping', path: '/v/DEMO-1/tipping' },
        {
          name: 'custom-tip-error',
          path: '/v/DEMO-1/custom-tip',
          then: async (page) => {
            await page.locator('#shop-custom-tip-amount').fill('abc');
            await page.locator('#shop-custom-tip-next').click();
            await page.locator('#shop-custom-tip-error').waitFor();
          },
        },
        { name: 'confirmation', path: '/v/DEMO-1/confirmation' },
        {
          name: 'email',
          path: '/v/DEMO-1/print-digital',
          then: async (page) => {
            await page.locator('#shop-choose-digital').click();
            await page.locator('#shop-landing').waitFor();
            await page.goto(`${server.url}/v/DEMO-1/confirmation`);
            await page.locator('#shop-email-form').waitFor();
          },
        },
        { name: 'payment', path: '/v/DEMO-1/payment' },
        { name: 'success-waiting', path: `/success?order=${pending.order}&session_id=${sessionId}` },
        {
          // The server does not answer (restarting): the page says so and keeps trying.
          name: 'success-interrupted',
          path: `/success?order=${pending.order}&session_id=${sessionId}`,
          then: async (page) => {
            await page.route('**/api/orders/**', (route) => route.abort('connectionrefused'));
            await page.reload();
            await page.locator('#shop-success-interrupted').waitFor();
          },
        },
        {
          // Stripe has the money and the booking has not landed yet (tests/api/verify-charged.test.ts).
          name: 'success-charged',
          path: `/success?order=${pending.order}&session_id=${sessionId}`,
          then: async (page) => {
            await page.route('**/api/orders/verify/**', async (route) => {
              const response = await route.fetch();
              await route.fulfill({ response, json: { ...(await response.json()), charged: true } });
            });
            await page.reload();
            await page
              .locator('#shop-success-title', { hasText: lang === 'de' ? 'Zahlung eingegangen' : 'Payment received' })
              .waitFor();
          },
        },
        { name: 'receipt-paid', path: `/paymentconfirmation?order=${paid}` },
        { name: 'receipt-pending', path: `/paymentconfirmation?order=${pending.order}` },
        { name: 'receipt-no-order', path: '/paymentconfirmation' },
        { name: 'receipt-invalid', path: '/paymentconfirmation?order=not-a-token' },
        { name: 'failure', path: `/failure?order=${pending.order}` },
        { name: 'go-to-vendor', path: '/' },
        { name: 'invalid-id', path: '/v/NOBODY-1' },
        { name: 'error', path: '/error' },
        { name: 'invalid-link', path: '/error-invalid-link' },
        { name: 'not-found', path: '/404' },
        { name: 'maintenance', path: '/maintenance' },
        { name: 'pdf', path: `/pdf/${receipt.downloads[0].id}` },
        { name: 'pdf-invalid', path: '/pdf/abcdefghijklmnopqrstuvwxyz012345' },
        { name: 'sandbox-card-page', path: new URL(pending.checkoutUrl).pathname },
      ];
    };
    screens = { de: await build('de'), en: await build('en') };
  });
  after(() => assert.deepEqual(problems, [], 'no page threw an error'));

  /** The screen in a browser that never saw the shop, in `lang`, `width` px wide. */
  async function show(screen: ShopScreen, lang: Lang, width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 800 }, locale: locales[lang] });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    await page.goto(`${server.url}${screen.path}`);
    await page.locator('h1').waitFor();
    await screen.then?.(page);
    // Headings that take the focus and fonts that load late must have settled before it is judged.
    await page.waitForLoadState('networkidle');
    return page;
  }

  /** The screen fits `width` px without sideways scrolling; its screenshot is kept. */
  async function fitsAndKeep(page: Page, screen: ShopScreen, lang: Lang, width: number): Promise<void> {
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `${screen.name} fits ${width} px`,
    );
    await screenshot(page, `shop-${width}-${lang}-${screen.name}`);
  }

  /**
   * Every link and button of the shop is at least 44 × 44 px (WCAG 2.5.5, Apple's and Android's
   * guidance), the inline ones in a sentence ("AGB", "ändern") too; a checkbox counts with its label.
   */
  async function bigEnoughToTap(page: Page, screen: ShopScreen): Promise<void> {
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('#shop-app a, #shop-app button, #shop-app input[type=checkbox]')]
        .map((element) => {
          const label = element instanceof HTMLInputElement ? element.labels?.[0] : undefined;
          const box = (label ?? element).getBoundingClientRect();
          return { name: element.id || element.className, width: box.width, height: box.height };
        })
        .filter((target) => target.width > 0 && (target.width < 44 || target.height < 44))
        .map((target) => `${target.name} ${Math.round(target.width)}×${Math.round(target.height)}`),
    );
    assert.deepEqual(small, [], `${screen.name}: targets under 44 px at 320 px`);
  }

  /** How many screens are checked at once: each visit mostly waits for the network to fall quiet. */
  const atOnce = 3;

  for (const lang of ['de', 'en'] as const) {
    // One visit per screen serves both widths: checked and kept at 390 px, then the same page narrowed
    // to 320 px as a smaller phone shows it. Each visit is a browser context of its own that waits for the
    // network to fall quiet, so a few run side by side.
    it(`finds no critical or serious violation and one h1 on every screen, fits 390 and 320 px and keeps its screenshots (${lang})`, async () => {
      const failures: string[] = [];
      const waiting = [...screens[lang]];
      const check = async (screen: ShopScreen) => {
        const page = await show(screen, lang, 390);
        try {
          assert.equal(await page.getAttribute('html', 'lang'), lang, screen.name);
          await expectAccessible(page, `${screen.name} (${lang})`);
          await fitsAndKeep(page, screen, lang, 390);
          await resize(page, { width: 320, height: 800 });
          await fitsAndKeep(page, screen, lang, 320);
          await bigEnoughToTap(page, screen);
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await page.context().close();
        }
      };
      await Promise.all(
        Array.from({ length: atOnce }, async () => {
          for (let screen = waiting.shift(); screen; screen = waiting.shift()) await check(screen);
        }),
      );
      assert.deepEqual(failures, []);
    });
  }
});
