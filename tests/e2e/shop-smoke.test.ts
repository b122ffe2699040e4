import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { screenshot } from './browser.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// Every public route of the specification as a customer opens it in Chromium: its screen in German
// and in English, at phone and desktop width, readable at 320 px and with 200 % text.

type Lang = 'de' | 'en';
const locales: Record<Lang, string> = { de: 'de-AT', en: 'en-GB' };

interface Expected {
  path: string;
  /** The screen's heading (h1), per language. */
  heading: Record<Lang, string | RegExp>;
  /** More text the screen shows, per language. */
  text?: Record<Lang, string>;
  /** Where the address ends up, when the shop moves on by itself. */
  finalPath?: string;
}

const routes = (calendar: number): Expected[] => [
  { path: '/', heading: { de: 'Bitte gehe zu einer Verkäuferin oder einem Verkäufer', en: 'Please go to a vendor' } },
  {
    path: '/go-to-vendor',
    heading: { de: 'Bitte gehe zu einer Verkäuferin oder einem Verkäufer', en: 'Please go to a vendor' },
  },
  {
    path: '/nowhere/at/all',
    heading: { de: 'Bitte gehe zu einer Verkäuferin oder einem Verkäufer', en: 'Please go to a vendor' },
  },
  {
    path: '/v/NOBODY-99/check-id',
    heading: { de: 'Die gescannte ID ist nicht gültig', en: 'This ID is invalid' },
    text: { de: 'Bitte gehe zu einer Verkäuferin oder einem Verkäufer', en: 'Please go to a vendor' },
  },
  // DEMO-OFF is deactivated: the same answer as an unknown id.
  { path: '/v/DEMO-OFF', heading: { de: 'Die gescannte ID ist nicht gültig', en: 'This ID is invalid' } },
  { path: '/v/DEMO-1', heading: { de: 'Kaufe eine Zeitung bei Anna', en: 'Buy a newspaper from Anna' } },
  {
    path: '/v/DEMO-1/check-id',
    heading: { de: 'Kaufe eine Zeitung bei Anna', en: 'Buy a newspaper from Anna' },
    finalPath: '/v/DEMO-1/landing-page',
  },
  { path: '/v/DEMO-1/landing-page', heading: { de: 'Kaufe eine Zeitung bei Anna', en: 'Buy a newspaper from Anna' } },
  // Item names as staff entered them in each language.
  {
    path: '/v/DEMO-1/shop',
    heading: { de: 'Produkte', en: 'Products' },
    text: { de: 'Kalender 2027', en: 'Calendar 2027' },
  },
  { path: '/v/DEMO-1/items', heading: { de: 'Produkte', en: 'Products' } },
  { path: '/v/DEMO-1/additionalproducts', heading: { de: 'Andere Produkte', en: 'Other products' } },
  {
    path: `/v/DEMO-1/item-available?item=${calendar}`,
    heading: { de: 'Kalender 2027', en: 'Calendar 2027' },
    text: {
      de: 'Frag deine Verkäuferin oder deinen Verkäufer, ob es dieses Produkt gerade gibt.',
      en: 'Ask your vendor if they have this product available',
    },
  },
  { path: '/v/DEMO-1/print-digital', heading: { de: 'Gedruckt oder digital?', en: 'Print or digital?' } },
  { path: '/v/DEMO-1/information', heading: { de: 'Gedruckt oder E-Paper', en: 'Print or e-paper' } },
  // The demo newspaper says donation (UseTipInsteadOfDonation is off).
  {
    path: '/v/DEMO-1/tipping',
    heading: { de: 'Möchtest du etwas spenden?', en: 'Would you like to make a donation?' },
  },
  {
    path: '/v/DEMO-1/custom-tip',
    heading: { de: 'Wie viel möchtest du geben?', en: 'How much would you like to give?' },
  },
  {
    path: '/v/DEMO-1/confirmation',
    heading: { de: 'Deine Bestellung', en: 'Your order' },
    text: { de: 'Mit diesem Kauf akzeptiere ich die AGB', en: 'With this purchase I accept the terms' },
  },
  {
    // Without a payment on its way in this browser it does not pretend to wait.
    path: '/v/DEMO-1/payment',
    heading: { de: 'Gerade ist keine Zahlung offen', en: 'No payment is in progress' },
  },
  {
    path: '/paymentconfirmation?order=not-a-token',
    heading: { de: 'Ungültige Zahlungsbestätigung', en: 'Invalid payment confirmation' },
  },
  {
    path: '/success?order=not-a-token&session_id=cs_nothing',
    heading: { de: 'Ungültige Zahlungsbestätigung', en: 'Invalid payment confirmation' },
  },
  {
    path: '/failure?order=not-a-token',
    heading: { de: 'Transaktion fehlgeschlagen', en: 'Transaction failed' },
    text: { de: 'Erneut versuchen', en: 'Try again' },
  },
  { path: '/404', heading: { de: 'Seite nicht gefunden', en: 'Page not found' } },
  {
    path: '/error',
    heading: { de: 'Fehler', en: 'Error' },
    text: {
      de: 'Upsi, es ist ein Fehler aufgetreten. Bitte versuche es erneut.',
      en: 'An error occurred. Please try again later.',
    },
  },
  {
    path: '/error-invalid-link',
    heading: { de: 'Ungültiger Link', en: 'Invalid link' },
    text: { de: 'Etwas ist schiefgelaufen', en: 'Something went wrong please try it again or contact the office.' },
  },
  {
    path: '/maintenance',
    heading: { de: 'Diese Seite wird gerade gewartet...', en: 'This page is currently under maintenance...' },
  },
  {
    path: '/pdf/abcdefghijklmnopqrstuvwxyz012345',
    heading: { de: 'Ungültiger Link', en: 'Invalid link' },
    text: {
      de: 'Der Link zum PDF ist ungültig oder abgelaufen. Bitte wende dich an das Büro.',
      en: 'The link to the pdf is invalid or expired. Please contact the office.',
    },
  },
];

describe('e2e: the shop widget’s screens in Chromium', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let browser: Browser;
  let calendar: number;
  const problems: string[] = [];

  const e2e = useServerAndBrowser();
  before(async () => {
    ({ server, browser } = e2e);
    const items = (await (await fetch(`${server.url}/api/items/`)).json()) as { id: number; name: string }[];
    calendar = items.find((item) => item.name === 'Kalender 2027')!.id;
  });
  after(() => assert.deepEqual(problems, [], 'no page threw an error'));

  async function open(
    lang: Lang,
    viewport = { width: 375, height: 740 },
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport, locale: locales[lang], deviceScaleFactor: 1 });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    return { context, page };
  }

  const heading = (page: Page) => page.locator('h1');

  async function expectScreen(page: Page, route: Expected, lang: Lang): Promise<void> {
    await page.goto(`${server.url}${route.path}`);
    const expected = route.heading[lang];
    await heading(page).filter({ hasText: expected }).waitFor();
    assert.equal((await heading(page).textContent())?.trim(), expected, route.path);
    if (route.text)
      assert.ok(
        (await page.locator('#shop-content').innerText()).includes(route.text[lang]),
        `${route.path}: ${route.text[lang]}`,
      );
    if (route.finalPath) await page.waitForURL(`${server.url}${route.finalPath}`);
    assert.equal(await page.getAttribute('html', 'lang'), lang);
  }

  for (const lang of ['de', 'en'] as const) {
    it(`renders every public route of the specification in ${lang === 'de' ? 'German' : 'English'}`, async () => {
      const { context, page } = await open(lang);
      try {
        for (const route of routes(calendar)) await expectScreen(page, route, lang);
      } finally {
        await context.close();
      }
    });
  }

  it('takes the newspaper’s name, colours and logo, and shows amounts as people there write them', async () => {
    const { context, page } = await open('de');
    await page.goto(`${server.url}/v/DEMO-1`);
    await page.locator('#shop-landing-title').waitFor();
    assert.equal(await page.title(), DEMO_NEWSPAPER_NAME);
    assert.equal(await page.locator('#shop-newspaper-name').textContent(), DEMO_NEWSPAPER_NAME);
    assert.equal(
      await page.locator('#shop-header').evaluate((el) => getComputedStyle(el).backgroundColor),
      'rgb(200, 16, 46)',
    );
    assert.equal(await page.locator('#shop-header').evaluate((el) => getComputedStyle(el).color), 'rgb(255, 255, 255)');
    await page.waitForFunction(() => {
      const logo = document.querySelector<HTMLImageElement>('#shop-logo');
      return logo?.complete && logo.naturalWidth > 0;
    });
    assert.equal(await page.locator('#shop-vendor-name').textContent(), 'Anna');
    assert.deepEqual(
      await page
        .locator('.shop-cart-line')
        .allInnerTexts()
        .then((lines) => lines.map((l) => l.replace(/\s+/g, ' '))),
      ['1 × Zeitung 3,00 €'],
    );
    // Anna (DEMO-1) has a verification link: an info button next to her name.
    const proof = page.getByRole('link', { name: 'Ausweis von Anna prüfen' });
    assert.equal(await proof.getAttribute('href'), 'https://demo.strassenzeitung.org/ausweis/demo-1');

    // The language switch, remembered on the device.
    await page.getByRole('button', { name: 'English' }).click();
    assert.equal(await page.locator('#shop-landing-title').textContent(), 'Buy a newspaper from Anna');
    assert.deepEqual(
      await page
        .locator('.shop-cart-line')
        .allInnerTexts()
        .then((lines) => lines.map((l) => l.replace(/\s+/g, ' '))),
      ['1 × Zeitung €3.00'],
    );
    assert.equal(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed'), 'true');
    await page.reload();
    assert.equal(await page.locator('#shop-landing-title').textContent(), 'Buy a newspaper from Anna');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.getByRole('button', { name: 'Deutsch' }).click();
    assert.equal(await page.locator('#shop-landing-title').textContent(), 'Kaufe eine Zeitung bei Anna');
    await context.close();
  });

  it('is usable at 320 px with 200 % text: nothing sticks out sideways, focus is visible', async () => {
    const { context, page } = await open('de', { width: 320, height: 640 });
    // How far the page scrolls sideways, or an element sticks out of the content column.
    const overflow = () =>
      page.evaluate(() => {
        const content = document.getElementById('shop-content')!;
        const right = content.getBoundingClientRect().right - parseFloat(getComputedStyle(content).paddingRight);
        const sticking = [...content.querySelectorAll('*')].map((el) => el.getBoundingClientRect().right - right);
        return Math.max(
          document.documentElement.scrollWidth - document.documentElement.clientWidth,
          ...sticking.map(Math.ceil),
          0,
        );
      });
    for (const path of ['/v/DEMO-1', '/v/DEMO-1/shop', '/v/DEMO-1/tipping', '/v/DEMO-1/confirmation', '/v/NOBODY-99']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('h1').waitFor();
      assert.equal(await overflow(), 0, `${path} at 320 px`);
      await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
      assert.equal(await overflow(), 0, `${path} at 320 px with 200 % text`);
      await screenshot(page, `shop-320-200pc${path.replace(/\//g, '-')}`);
    }
    // Keyboard: the first control gets a visible outline.
    await page.goto(`${server.url}/v/DEMO-1`);
    await page.locator('h1').waitFor();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { tag: el.tagName, style: style.outlineStyle, width: style.outlineWidth };
    });
    assert.notEqual(outline.tag, 'BODY', 'the keyboard reaches a control');
    assert.equal(outline.style, 'solid', JSON.stringify(outline));
    assert.equal(outline.width, '3px');
    await context.close();
  });

  for (const [name, viewport] of [
    ['375', { width: 375, height: 740 }],
    ['1280', { width: 1280, height: 800 }],
  ] as const) {
    it(`keeps screenshots of the main screens at ${name} px in both languages`, async () => {
      for (const lang of ['de', 'en'] as const) {
        const { context, page } = await open(lang, viewport);
        for (const [screen, path] of [
          ['landing', '/v/DEMO-1'],
          ['shop', '/v/DEMO-1/shop'],
          ['tipping', '/v/DEMO-1/tipping'],
          ['confirmation', '/v/DEMO-1/confirmation'],
          ['invalid-id', '/v/DEMO-OFF'],
        ]) {
          await page.goto(`${server.url}${path}`);
          await page.locator('h1').waitFor();
          assert.ok(
            await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
            `${path} fits ${name} px`,
          );
          await screenshot(page, `shop-${name}-${lang}-${screen}`);
        }
        await context.close();
      }
    });
  }
});
