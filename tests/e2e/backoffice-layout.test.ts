import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { animationsDone, screenshot, resize } from './browser.ts';
import type { RunningServer } from './server.ts';

// The office's screens on a tablet (768 px) and a laptop (1366 px), the tills on a phone (390 px),
// German and English: the page
// never scrolls sideways (a wide table scrolls in its own box, which the keyboard reaches), the
// sidebar folds to its icons on the tablet, the buttons of a selection leave the vendor search its
// room, and no menu entry is cut off.

type Language = 'de' | 'en';

describe('e2e: the back office at 768 and 1366 px', function () {
  this.timeout(240_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  before(async () => {
    const headers = { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/json' };
    const { tills } = (await (await fetch(`${server.url}/api/tills`, { headers })).json()) as {
      tills: { id: number }[];
    };
    // A movement of today with a reason as long as staff write them: the cash book has a row to show.
    const response = await fetch(`${server.url}/api/tills/${tills[0].id}/movements`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ kind: 'expense', amount: 1250, reason: 'Druckerpapier und Toner für den Verkaufsraum' }),
    });
    assert.equal(response.status, 201);
  });

  const open = async (path: string, language: Language, ready: string) => {
    await page.evaluate((chosen) => localStorage.setItem('street-paper.locale', chosen), language);
    await page.goto(`${server.url}/backoffice${path}`);
    await page.locator(ready).first().waitFor();
    await page.locator('.MuiLinearProgress-root').waitFor({ state: 'detached' });
    await animationsDone(page);
  };

  /** How far the page itself scrolls sideways: 0 when it fits the window. */
  const sideways = () =>
    page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);

  const selectVendors = async () => {
    for (const box of (await page.locator('.vendor-select input').all()).slice(0, 3)) await box.check();
    await page.locator('#vendors-deactivate').waitFor();
    await animationsDone(page);
  };

  /** The width of the vendor search's field, in px. */
  const searchWidth = async () => (await page.locator('input[name="q"]').boundingBox())!.width;

  /**
   * The region named `name` is in the tab order, its table is wider than it, and the arrow keys
   * scroll it until its last column shows within the window.
   */
  const scrollsByKeyboard = async (name: string, table: string) => {
    const region = page.getByRole('region', { name, exact: true });
    assert.equal(await region.getAttribute('tabindex'), '0', `${name} is in the tab order`);
    assert.ok(await region.evaluate((box) => box.scrollWidth > box.clientWidth), `${name} scrolls inside itself`);
    await region.focus();
    const lastColumn = page.locator(`${table} thead th`).last();
    const inView = async () => {
      const box = (await lastColumn.boundingBox())!;
      return box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
    };
    for (let step = 0; step < 40 && !(await inView()); step++) {
      const before = await region.evaluate((box) => box.scrollLeft);
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction((left) => document.activeElement!.scrollLeft > left, before);
    }
    assert.ok(await inView(), `${name}: the last column comes into view`);
  };

  it('fits 768 px: the vendor list with vendors selected, the cash book, the counter and the accounting; tables scroll inside', async () => {
    await resize(page, { width: 768, height: 1000 });
    try {
      for (const language of ['de', 'en'] as const) {
        const problems: string[] = [];
        const fits = async (name: string) => {
          await screenshot(page, `backoffice-layout-${name}-${language}-768`);
          const extra = await sideways();
          if (extra > 0) problems.push(`${name} (${language}) scrolls ${extra} px sideways`);
        };

        await open('/vendorsummary', language, '.vendor-select');
        assert.equal(await page.locator('.RaSidebar-closed').count(), 1, 'the sidebar is folded');
        await selectVendors();
        await fits('vendors-selected');
        assert.ok((await searchWidth()) >= 200, `the search keeps its room (${await searchWidth()} px)`);
        for (const control of ['#vendors-deactivate', '#year-statements-button', '.MuiTablePagination-root']) {
          const box = (await page.locator(control).first().boundingBox())!;
          assert.ok(box.x >= 0 && box.x + box.width <= 768, `${control} lies within the window`);
        }

        await open('/tills', language, '#till-book tbody tr');
        await fits('tills');
        await scrollsByKeyboard(language === 'de' ? 'Kassenbuch' : 'Cash book', '#till-book');

        await open('/counter/DEMO-1', language, '#counter-items');
        await fits('counter');

        await open('/payments', language, '.RaList-content');
        await fits('accounting');

        assert.deepEqual(problems, []);
      }
      // Their scrolling boxes reach axe's rules too (scrollable-region-focusable).
      await open('/tills', 'de', '#till-book tbody tr');
      await expectAccessible(page, '/tills (768)', { moderate: true });
      await open('/counter/DEMO-1', 'de', '#counter-items');
      await expectAccessible(page, '/counter/DEMO-1 (768)', { moderate: true });
    } finally {
      await resize(page, { width: 1280, height: 900 });
    }
  });

  it('fits 1366 px: with vendors selected the search keeps its room; every menu entry shows in full', async () => {
    await resize(page, { width: 1366, height: 900 });
    try {
      for (const language of ['de', 'en'] as const) {
        await open('/vendorsummary', language, '.vendor-select');
        assert.equal(await page.locator('.RaSidebar-open').count(), 1, 'the sidebar shows its labels');
        await selectVendors();
        await screenshot(page, `backoffice-layout-vendors-selected-${language}-1366`);
        assert.equal(await sideways(), 0, `the vendor list (${language}) does not scroll sideways`);
        assert.ok((await searchWidth()) >= 200, `the search keeps its room (${await searchWidth()} px)`);
        const cut = await page
          .locator('.RaMenuItemLink-root .MuiTypography-root')
          .evaluateAll((labels) =>
            labels.filter((label) => label.scrollWidth > label.clientWidth).map((label) => label.textContent),
          );
        assert.deepEqual(cut, [], `menu entries cut off (${language})`);
      }
    } finally {
      await resize(page, { width: 1280, height: 900 });
      await page.evaluate(() => localStorage.setItem('street-paper.locale', 'de'));
    }
  });

  it('fits 390 px: the tills page with its closes, in German and English; the closes scroll inside, by keyboard too', async () => {
    const headers = { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/json' };
    const { tills } = (await (await fetch(`${server.url}/api/tills`, { headers })).json()) as {
      tills: { id: number; balance: number }[];
    };
    // The day closed as counted: the closes' table, with its report buttons, is on the page.
    const closed = await fetch(`${server.url}/api/tills/${tills[0].id}/closes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ counted: tills[0].balance, expected: tills[0].balance }),
    });
    assert.equal(closed.status, 201, await closed.clone().text());
    await resize(page, { width: 390, height: 844 });
    try {
      const problems: string[] = [];
      for (const language of ['de', 'en'] as const) {
        await open('/tills', language, '#till-closes tbody tr');
        await screenshot(page, `backoffice-layout-tills-${language}-390`);
        const closedUntil = await page.getByText(language === 'de' ? 'Abgeschlossen bis' : 'Closed until').innerText();
        assert.doesNotMatch(
          closedUntil,
          /\d{4}-\d{2}-\d{2}/,
          `the day of the last close in the reader's format: ${closedUntil}`,
        );
        const extra = await sideways();
        if (extra > 0) problems.push(`/tills (${language}) scrolls ${extra} px sideways`);
        // Each close's report button is in the last column: the keyboard reaches it.
        await scrollsByKeyboard(language === 'de' ? 'Abschlüsse' : 'Closes', '#till-closes');
      }
      assert.deepEqual(problems, []);
      // On a phone react-admin slides the app bar (with the page's h1) away while the page is scrolled
      // down, as it is after the closes; axe judges the page as it opens, from the top.
      await page.evaluate(() => window.scrollTo(0, 0));
      await animationsDone(page);
      await expectAccessible(page, '/tills (390)', { moderate: true });
    } finally {
      await resize(page, { width: 1280, height: 900 });
    }
  });
});
