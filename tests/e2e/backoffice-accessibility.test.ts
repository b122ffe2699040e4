import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { accessToken, logInAtProvider, openLoggedIn, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { animationsDone, screenshot, screenshotsWanted, resize } from './browser.ts';
import { eventually } from '../support/orders.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// axe-core finds no critical and no serious violation, and exactly one h1, on every screen of the back
// office (each menu entry, list, show, edit and create of each resource, the payout page, the badge
// sheet) and of /me, in German and in English; on the screens of the office's day (Heute, counter,
// tills, vendor edit, settings) no moderate one either. At 768 px the statistics and the badge sheet
// do not scroll sideways; screenshots at 768 and 1366 px.

type Language = 'de' | 'en';
const languages: Language[] = ['de', 'en'];

/** Sets the interface language the way the switches do: remembered on the device, read on load. */
async function useLanguage(page: Page, language: Language): Promise<void> {
  await page.evaluate((chosen) => localStorage.setItem('street-paper.locale', chosen), language);
}

/** Waits until the screen has drawn: its title set, no spinner left, the table or form in place. */
async function settled(page: Page): Promise<void> {
  await page
    .locator('h1:not(:empty)')
    .first()
    .waitFor({ timeout: 20_000 })
    .catch(() => {});
  await page.waitForFunction(() => document.title.includes(' | '), undefined, { timeout: 15_000 }).catch(() => {});
  await page
    .locator('[role="progressbar"], .MuiLinearProgress-root')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
  // react-admin fades lists and forms in; axe and the screenshots must see the final colours.
  await animationsDone(page);
}

describe('e2e: accessibility of the back office and /me (axe-core)', function () {
  this.timeout(900_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  let vendorId: number;
  let productId: number;
  before(async () => {
    const headers = { Authorization: `Bearer ${await accessToken(page)}` };
    const [demo1] = (await (
      await fetch(`${server.url}/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-1@"}')}`, { headers })
    ).json()) as { id: number }[];
    vendorId = demo1.id;
    const [item] = (await (await fetch(`${server.url}/api/items`)).json()) as { id: number }[];
    productId = item.id;
    // Something for the protocol, the warning marker and the deactivated look to show.
    const change = (path: string, method: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    await change(`/api/vendors/${vendorId}/comments`, 'POST', { comment: 'Ausweis abgelaufen', warning: true });
    const [demo29] = (await (
      await fetch(`${server.url}/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-29"}')}`, { headers })
    ).json()) as { id: number }[];
    assert.equal((await change(`/api/vendors/${demo29.id}`, 'PATCH', { isDisabled: true })).status, 200);
  });

  const screens = () => [
    '/today',
    '/vendorsummary',
    '/newvendor',
    `/userprofile/${vendorId}`,
    `/userprofile/${vendorId}/update`,
    '/vendorsummary/import',
    '/credits',
    `/credits/payout/${vendorId}`,
    '/payouts',
    '/counter',
    '/counter/DEMO-1',
    '/tills',
    '/sales',
    '/payments',
    '/trial-balance',
    '/productsettings',
    '/newproduct',
    `/productsettings/update/${productId}`,
    '/settings/update',
    '/settings/qrcode',
    '/settings/qrcode/badges',
    '/map',
    '/statistics',
    '/orders',
    '/protocol',
    '/outbox',
    '/login-locks',
  ];

  /** The screens staff spend their day on: not even a moderate violation (heading order and the like). */
  const daily = () =>
    new Set(['/today', '/counter', '/counter/DEMO-1', '/tills', `/userprofile/${vendorId}/update`, '/settings/update']);

  for (const language of languages) {
    it(`finds no serious violation (on the daily screens no moderate one) and one h1 on every back-office screen in ${language === 'de' ? 'German' : 'English'}`, async () => {
      await useLanguage(page, language);
      const problems: string[] = [];
      for (const screen of screens()) {
        await page.goto(`${server.url}/backoffice${screen}`);
        await settled(page);
        assert.equal(await page.getAttribute('html', 'lang'), language, screen);
        if (!(await page.locator('h1').first().innerText()).trim()) problems.push(`${screen} (${language}): no title`);
        await expectAccessible(page, `${screen} (${language})`, { moderate: daily().has(screen) }).catch(
          (error: Error) => problems.push(error.message),
        );
      }
      assert.equal(problems.length, 0, problems.join('\n'));
    });
  }

  it('names the spinner shown while a screen loads its data, in German and English', async () => {
    const held = '**/api/payouts?**';
    for (const [language, name] of [
      ['de', 'Die Seite wird geladen.'],
      ['en', 'Loading'],
    ] as const) {
      await useLanguage(page, language);
      // The list's data is held back until the spinner has been found by the name a screen reader reads.
      let release = () => {};
      const answered = new Promise<void>((resolve) => (release = resolve));
      await page.route(held, async (route) => {
        await answered;
        await route.continue();
      });
      await page.goto(`${server.url}/backoffice/payouts`);
      await page.getByRole('progressbar', { name, exact: true }).waitFor();
      release();
      await page.unroute(held);
      await settled(page);
    }
  });

  it('shows the protocol in words: the field’s label, before → after, a link to the record', async () => {
    for (const [language, text] of [
      ['de', /Deaktiviert: Nein → Ja/],
      ['en', /Deactivated: No → Yes/],
    ] as const) {
      await useLanguage(page, language);
      await page.goto(`${server.url}/backoffice/protocol`);
      const entry = page.locator('table tbody tr').filter({ hasText: text });
      await entry.waitFor();
      const link = entry.locator('a.protocol-link');
      assert.match(await link.innerText(), /^.+ \(DEMO-29\)$/, 'the vendor by name and licence ID');
      assert.match((await link.getAttribute('href')) ?? '', /\/backoffice\/userprofile\/\d+$/);
      assert.doesNotMatch(await page.locator('table tbody').innerText(), /isDisabled|[{}]/, 'no raw names or JSON');
    }
    await useLanguage(page, 'de');
  });

  it('reads an item’s price change, a vendor’s deletion and a payout as sentences with euros and names', async () => {
    const headers = { Authorization: `Bearer ${await accessToken(page)}` };
    const send = async (path: string, method: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
      return (await res.json()) as Record<string, unknown> & { id: number };
    };
    const form = async (path: string, method: string, fields: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      const res = await fetch(`${server.url}${path}`, { method, headers, body });
      assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
      return (await res.json()) as { id: number };
    };
    const item = await form('/api/items', 'POST', { name: 'Wandkalender', price: '300' });
    await form(`/api/items/${item.id}`, 'PUT', { price: '350' });
    const gone = await send('/api/vendors', 'POST', { licenseId: 'E2E-33', firstName: 'Maria', lastName: 'Muster' });
    assert.ok((await fetch(`${server.url}/api/vendors/${gone.id}`, { method: 'DELETE', headers })).ok);
    // A sale in the shop gives a vendor credit to pay out, final once the card fee is booked.
    const payee = await send('/api/vendors', 'POST', { licenseId: 'E2E-3', firstName: 'Paula', lastName: 'Payee' });
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as { mainItem: { id: number } };
    await buyInShop(server.url, { vendor: 'E2E-3', entries: [{ item: settings.mainItem.id, quantity: 1 }], tip: 0 });
    await eventually(async () => {
      const orders = (await (await fetch(`${server.url}/api/orders`, { headers })).json()) as {
        vendorId: number;
        fee: number | null;
      }[];
      return orders.some((order) => order.vendorId === payee.id && order.fee !== null);
    }, 'the card fee is booked');
    const withCredit = (await (await fetch(`${server.url}/api/vendors/${payee.id}`, { headers })).json()) as {
      licenseId: string;
      credit: number;
    };
    await send('/api/payments/payout/', 'POST', { vendor: withCredit.licenseId, expectedAmount: withCredit.credit });
    const euros = (cents: number, language: 'de' | 'en') =>
      new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-IE', { style: 'currency', currency: 'EUR' })
        .format(cents / 100)
        .replace(/\s/g, ' ');

    for (const language of languages) {
      const de = language === 'de';
      await useLanguage(page, language);
      await page.goto(`${server.url}/backoffice/protocol`);
      const rows = page.locator('table tbody tr');
      const sentences = [
        de ? 'Preis von Wandkalender: 3,00 € → 3,50 €' : 'Price of Wandkalender: €3.00 → €3.50',
        de ? 'Gelöscht: Maria Muster (E2E-33)' : 'Deleted: Maria Muster (E2E-33)',
        `${de ? 'Ausgezahlt' : 'Paid out'}: ${euros(withCredit.credit, language)} ${de ? 'an' : 'to'} Paula Payee (E2E-3)`,
      ];
      for (const sentence of sentences) await rows.filter({ hasText: sentence }).first().waitFor();
      const text = (await page.locator('table tbody').innerText()).replace(/\s/g, ' ');
      for (const sentence of sentences) assert.ok(text.includes(sentence), `${sentence} in ${text.slice(0, 2000)}`);
      assert.doesNotMatch(text, /\b(Vendor|Verkäufer) \d+\b/, 'no vendor by number');
      assert.doesNotMatch(text, /(Preis|Price)[^:\n]*: 350\b|Unit price|Einzelpreis: \d+$/m, 'no raw cents');
      await expectAccessible(page, `the protocol with sentences (${language})`);
      // The widths are for the screenshots alone: without them there is nothing to resize for.
      if (!screenshotsWanted) continue;
      for (const width of [390, 1280]) {
        await resize(page, { width, height: 900 });
        await animationsDone(page);
        await screenshot(page, `backoffice-protocol-sentences-${language}-${width}`);
      }
      await resize(page, { width: 1280, height: 900 });
    }
    await useLanguage(page, 'de');
  });

  for (const width of [768, 1366]) {
    it(`fits ${width} px: the statistics and the badge sheet do not scroll sideways; screenshots in both languages`, async () => {
      await resize(page, { width, height: 1000 });
      try {
        for (const language of languages) {
          await useLanguage(page, language);
          for (const [screen, name] of [
            ['/statistics', 'statistics'],
            ['/settings/qrcode/badges', 'badges'],
          ] as const) {
            await page.goto(`${server.url}/backoffice${screen}`);
            await settled(page);
            const { scrollWidth, clientWidth } = await page.evaluate(() => ({
              scrollWidth: document.scrollingElement!.scrollWidth,
              clientWidth: document.scrollingElement!.clientWidth,
            }));
            await screenshot(page, `backoffice-${name}-${language}-${width}`);
            assert.ok(scrollWidth <= clientWidth, `${screen} at ${width} px is ${scrollWidth} px wide`);
          }
          // These screens are opened for their screenshots alone (E2E_SCREENSHOTS=0 takes none).
          if (!screenshotsWanted) continue;
          for (const [screen, name] of [
            ['/vendorsummary', 'vendors'],
            [`/userprofile/${vendorId}`, 'vendor-profile'],
            ['/payments', 'accounting'],
            ['/protocol', 'protocol'],
            ['/productsettings', 'products'],
          ] as const) {
            await page.goto(`${server.url}/backoffice${screen}`);
            await settled(page);
            await screenshot(page, `backoffice-${name}-${language}-${width}`);
          }
        }
      } finally {
        await resize(page, { width: 1280, height: 900 });
        await useLanguage(page, 'de');
      }
    });
  }

  for (const language of languages) {
    it(`finds no serious violation and one h1 on every page of /me in ${language === 'de' ? 'German' : 'English'}`, async () => {
      const context = await page
        .context()
        .browser()!
        .newContext({ viewport: { width: 390, height: 844 } });
      const vendor = await context.newPage();
      try {
        await openLoggedIn(vendor, `${server.url}/me`, 'vendor', 'vendor').catch(async () => {
          await logInAtProvider(vendor, 'vendor', 'vendor');
        });
        await vendor.locator('#me-credit-amount').waitFor();
        await vendor.locator(`#me-lang-${language}`).click();
        const problems: string[] = [];
        for (const path of ['/me', '/me/qrcode', '/me/profile']) {
          await vendor.goto(`${server.url}${path}`);
          await vendor.locator('.me-card, #me-credit').first().waitFor();
          if (path === '/me/qrcode') await vendor.locator('#me-qr-code svg').waitFor();
          await animationsDone(vendor);
          assert.equal(await vendor.getAttribute('html', 'lang'), language);
          await expectAccessible(vendor, `${path} (${language})`).catch((error: Error) => problems.push(error.message));
        }
        assert.equal(problems.length, 0, problems.join('\n'));
      } finally {
        await context.close();
      }
    });
  }
});
