import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { screenshot } from './browser.ts';
import { buyInShop, mainItemOrder } from './purchase.ts';
import { useServerAndBrowser } from './suite.ts';

// A paper outside the euro as its staff and vendors see it: a Swiss demo paper (CURRENCY=CHF
// COUNTRY=CH) read in German and a British one (GBP, GB) read in English. The counter and the vendor's
// page /me write every amount in the paper's currency as the reader's language writes it, the amount
// field carries the currency's sign, and no sign of the euro shows; each screen passes axe and is kept
// as a screenshot at phone and desktop width.

/** Every sign of the euro a reader could see. */
const euro = /€|\bEUR\b|\beur(o|os)?\b/i;

const papers = [
  { currency: 'CHF', country: 'CH', language: 'de', locale: 'de-CH', sign: 'CHF', amount: /CHF\s\d+\.\d{2}/ },
  { currency: 'GBP', country: 'GB', language: 'en', locale: 'en-GB', sign: '£', amount: /£\d+\.\d{2}/ },
] as const;

for (const paper of papers) {
  describe(`e2e: the counter and /me in ${paper.currency} (${paper.locale})`, function () {
    this.timeout(300_000);
    const e2e = useServerAndBrowser({ env: { CURRENCY: paper.currency, COUNTRY: paper.country } });
    before(async function () {
      this.timeout(120_000);
      // A sale at DEMO-1 (the demo's vendor login): credit at the counter and a line on /me.
      await buyInShop(e2e.server.url, await mainItemOrder(e2e.server.url, 'DEMO-1', 100));
    });

    /**
     * Logs in at `path` in a tab `width` px wide whose device chose the paper's language, waits for
     * `ready`, and hands over the page and its text as a reader sees it (no-break spaces as spaces).
     */
    async function visit(
      path: string,
      user: 'office' | 'vendor',
      width: number,
      ready: (page: Page) => Promise<void>,
    ): Promise<{ page: Page; text: () => Promise<string>; close: () => Promise<void> }> {
      const context = await e2e.browser.newContext({ viewport: { width, height: 900 }, locale: paper.locale });
      await context.addInitScript((language) => localStorage.setItem('street-paper.locale', language), paper.language);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await openLoggedIn(page, `${e2e.server.url}${path}`, user, user);
      await ready(page);
      await page.waitForLoadState('networkidle');
      return {
        page,
        text: async () => (await page.locator('body').innerText()).replace(/[\u00a0\u202f]/g, ' '),
        close: async () => {
          await context.close();
          assert.deepEqual(errors, [], 'the page threw no errors');
        },
      };
    }

    it(`shows the counter in ${paper.currency}: prices, credit, sums and the cash field's sign; no euro; axe at 390 and 1280 px`, async () => {
      for (const width of [390, 1280]) {
        const { page, text, close } = await visit('/backoffice/counter/DEMO-1', 'office', width, async (page) => {
          await page.locator('#counter-credit').filter({ hasText: paper.amount }).waitFor();
          await page.locator('#counter-items input').first().fill('2');
          await page.locator('#counter-cash').fill('1.50');
          await page.locator('#counter-summary').filter({ hasText: paper.amount }).waitFor();
        });
        try {
          const shown = await text();
          assert.match(shown, paper.amount, `the counter at ${width} px names amounts in ${paper.currency}`);
          assert.doesNotMatch(shown, euro, `the counter at ${width} px`);
          const field = page.locator('.MuiInputBase-root').filter({ has: page.locator('#counter-cash') });
          assert.equal((await field.locator('.MuiInputAdornment-root').innerText()).trim(), paper.sign);
          // What the cash handed over reads as: 1.50 in the paper's currency, shown back with its sign.
          const summary = (await page.locator('#counter-summary').innerText()).replace(/[\u00a0\u202f]/g, ' ');
          assert.ok(summary.includes(paper.currency === 'CHF' ? 'CHF 1.50' : '£1.50'), summary);
          await expectAccessible(page, `counter (${paper.locale}, ${width} px)`);
          await screenshot(page, `currency-${paper.currency}-${paper.locale}-counter-${width}`);
        } finally {
          await close();
        }
      }
    });

    it(`shows /me in ${paper.currency}: the credit and each line; no euro; axe at 390 and 1280 px`, async () => {
      for (const width of [390, 1280]) {
        const { page, text, close } = await visit('/me', 'vendor', width, async (page) => {
          await page.locator('#me-credit-amount').filter({ hasText: paper.amount }).waitFor();
          await page.locator('#me-transactions li').first().waitFor();
        });
        try {
          const shown = await text();
          assert.match(
            (await page.locator('#me-credit-amount').innerText()).replace(/[\u00a0\u202f]/g, ' '),
            new RegExp(`^-?${paper.amount.source}$`),
          );
          assert.match(await page.locator('#me-transactions li').first().innerText(), paper.amount);
          assert.doesNotMatch(shown, euro, `/me at ${width} px`);
          await expectAccessible(page, `/me (${paper.locale}, ${width} px)`);
          await screenshot(page, `currency-${paper.currency}-${paper.locale}-me-${width}`);
        } finally {
          await close();
        }
      }
    });
  });
}
