import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';
import { screenshot } from './browser.ts';
import { buyInShop, mainItemOrder } from './purchase.ts';
import { useServerAndBrowser } from './suite.ts';

// A paper outside the euro as its customers see it: a Swiss demo paper (CURRENCY=CHF COUNTRY=CH) read
// in Swiss German and a British one (GBP, GB) read in British English. Every amount on the shop's
// screens and its receipt is in the paper's currency, written as the reader's locale writes it, with no
// sign of the euro; each screen passes axe and is kept as a screenshot at phone and desktop width.

/** Every sign of the euro a reader could see. */
const euro = /€|\bEUR\b|\beur(o|os)?\b/i;

const papers = [
  { currency: 'CHF', country: 'CH', locale: 'de-CH', amount: /CHF\s\d+\.\d{2}/ },
  { currency: 'GBP', country: 'GB', locale: 'en-GB', amount: /£\d+\.\d{2}/ },
] as const;

for (const paper of papers) {
  describe(`e2e: the shop and its receipt in ${paper.currency} (${paper.locale})`, function () {
    this.timeout(300_000);
    const e2e = useServerAndBrowser({ env: { CURRENCY: paper.currency, COUNTRY: paper.country } });
    let paid: string;
    before(async function () {
      this.timeout(120_000);
      paid = await buyInShop(e2e.server.url, { ...(await mainItemOrder(e2e.server.url, 'DEMO-1', 100)), locale: 'de' });
    });

    /** The screen at `width` px in the paper's locale, its text as a reader sees it (no-break spaces as spaces). */
    async function visit(path: string, width: number, then?: (page: Page) => Promise<void>) {
      const context = await e2e.browser.newContext({ viewport: { width, height: 900 }, locale: paper.locale });
      const page = await context.newPage();
      await page.goto(`${e2e.server.url}${path}`);
      await page.locator('h1').waitFor();
      await then?.(page);
      await page.waitForLoadState('networkidle');
      const text = (await page.locator('body').innerText()).replace(/[\u00a0\u202f]/g, ' ');
      return { page, text, close: () => context.close() };
    }

    const screens: { name: string; path: () => string; then?: (page: Page) => Promise<void> }[] = [
      { name: 'shop', path: () => '/v/DEMO-1/shop' },
      { name: 'tipping', path: () => '/v/DEMO-1/tipping' },
      { name: 'confirmation', path: () => '/v/DEMO-1/confirmation' },
      { name: 'receipt', path: () => `/paymentconfirmation?order=${paid}` },
    ];

    for (const screen of screens)
      it(`shows ${screen.name} in ${paper.currency} with no sign of the euro, passes axe, at 390 and 1280 px`, async () => {
        for (const width of [390, 1280]) {
          const { page, text, close } = await visit(screen.path(), width, screen.then);
          try {
            assert.match(text, paper.amount, `${screen.name} at ${width} px names an amount in ${paper.currency}`);
            assert.doesNotMatch(text, euro, `${screen.name} at ${width} px`);
            await expectAccessible(page, `${screen.name} (${paper.locale}, ${width} px)`);
            await screenshot(page, `currency-${paper.currency}-${paper.locale}-${screen.name}-${width}`);
          } finally {
            await close();
          }
        }
      });

    it(`writes the receipt's total in ${paper.currency}: the paper's price and the tip`, async () => {
      const receipt = (await (await fetch(`${e2e.server.url}/api/orders/${paid}/`)).json()) as {
        total: number;
        currency: string;
      };
      const { text, close } = await visit(`/paymentconfirmation?order=${paid}`, 390);
      await close();
      assert.equal(receipt.currency.toUpperCase(), paper.currency, JSON.stringify(receipt));
      const total = new Intl.NumberFormat(paper.locale, { style: 'currency', currency: paper.currency })
        .format(receipt.total / 100)
        .replace(/[\u00a0\u202f]/g, ' ');
      assert.ok(text.includes(total), `${total} in:\n${text}`);
    });
  });
}
