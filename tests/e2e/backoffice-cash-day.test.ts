import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { printToPdf } from './print.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The cash day as staff meet it in Chromium. The demo with its history (SEED_HISTORY): the till paid
// vendors on earlier days and was never closed: "Heute" names those days instead of calling yesterday closed, the close dialog lists
// them, and the Kassenbericht gives each its own totals with the opening balance apart. After the
// close, the manual movement, the counter visit and the payout say before confirming that the cash
// goes into the next close, and are booked. German and English, desktop and phone, checked with axe.

interface OpenDay {
  day: string;
  movements: number;
}

describe('e2e: the cash day in the back office (closes cover what moved since the last one)', function () {
  this.timeout(240_000);
  const e2e = useServerAndBrowser({ env: { SEED_HISTORY: 'true' }, readyTimeoutMs: 150_000 });
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  before(async () => {
    server = e2e.server;
    context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-AT' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await openLoggedIn(page, `${server.url}/backoffice/today`, 'office', 'office');
  });
  after(async () => {
    await context?.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  });

  const url = (p: string) => `${server.url}/backoffice${p}`;
  const api = async <T>(p: string): Promise<T> => {
    const response = await fetch(`${server.url}${p}`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.equal(response.status, 200, `${p}: ${response.status}`);
    return (await response.json()) as T;
  };
  const till = async () =>
    (
      await api<{ tills: { id: number; balance: number; closedToday: boolean; openDays: OpenDay[] }[]; today: string }>(
        '/api/tills',
      )
    ).tills[0];
  const germanDay = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;
  const language = async (lang: 'de' | 'en') => {
    await page.locator(`#backoffice-language button[value="${lang}"]`).click();
  };
  /** Looks at the page as it is now, desktop and phone: axe, then a screenshot of each. */
  const lookAt = async (name: string) => {
    await expectAccessible(page, `${name} (1280)`);
    await screenshot(page, `${name}-1280`);
    await resize(page, phone);
    await expectAccessible(page, `${name} (390)`);
    await screenshot(page, `${name}-390`);
    await resize(page, { width: 1280, height: 900 });
  };

  let earlier: OpenDay[] = [];

  it('"Heute" names the earlier days whose cash no close has counted, not "yesterday is closed"', async () => {
    const { tills, day } = await api<{ tills: { unclosedDays: OpenDay[] }[]; day: string }>('/api/office/today');
    earlier = tills[0].unclosedDays;
    assert.ok(earlier.length >= 2, `the demo paid vendors on earlier days: ${JSON.stringify(earlier)}`);
    assert.ok(
      earlier.every((d) => d.day < day),
      'only days before today',
    );
    const list = page.locator('#today-unclosed-days-1 li');
    await list.first().waitFor();
    assert.equal(await list.count(), earlier.length);
    assert.equal(
      await list.first().innerText(),
      `${germanDay(earlier[0].day)}: ${earlier[0].movements} ${earlier[0].movements === 1 ? 'Bewegung' : 'Bewegungen'}`,
    );
    assert.match(
      await page.locator('#today-tills').innerText(),
      /Nie abgeschlossen: .*noch kein Abschluss gezählt hat/,
    );
    assert.doesNotMatch(await page.locator('#today-tills').innerText(), /Gestern ist abgeschlossen/);
    await lookAt('backoffice-cash-day-today-de');
    await language('en');
    await page.locator('#today-tills').filter({ hasText: 'Never closed' }).waitFor();
    await lookAt('backoffice-cash-day-today-en');
    await language('de');
  });

  it('lists those days in the close dialog, and the Kassenbericht gives each day its own totals', async () => {
    const before = await till();
    await page.goto(url('/tills'));
    const days = page.locator('#till-open-days li');
    await days.first().waitFor();
    assert.equal(await days.count(), before.openDays.length);
    assert.match(await page.locator('#till-open-days').innerText(), /(nie abgeschlossen|never closed)/);
    await page.locator('#till-by-pieces').uncheck();
    await page.locator('#till-counted').fill((before.balance / 100).toFixed(2).replace('.', ','));
    await page.locator('#till-difference').filter({ hasText: '0,00' }).waitFor();
    await page.locator('#till-close').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#till-close-confirm-days li').first().waitFor();
    assert.equal(await dialog.locator('#till-close-confirm-days li').count(), before.openDays.length);
    await lookAt('backoffice-cash-day-close-dialog-de');
    await dialog.getByRole('button', { name: 'Tag abschließen' }).click();

    const report = page.frameLocator('#till-report');
    await report.locator('#report-period').filter({ hasText: 'Tage mit Bewegungen' }).waitFor();
    assert.equal(await report.locator('tbody.day').count(), before.openDays.length, 'one block per day');
    for (const d of before.openDays) {
      const block = report.locator(`#report-day-${d.day}`);
      assert.equal(
        await block.locator('tr:not(.subtotal) td:first-child').count(),
        (await block.locator('tr').count()) - 2,
      );
      assert.match(await block.locator('tr.subtotal').innerText(), /Summe des Tages\s+\d+/);
    }
    // The opening balance stands in the balance column, not under Ausgaben.
    const opening = report.locator('#report-opening td');
    assert.equal(await opening.nth(3).innerText(), '', 'nothing under Ausgaben');
    assert.match(await opening.nth(4).innerText(), /€/);
    await screenshot(page, 'backoffice-cash-day-report-de-1280');

    const closes = await api<{ closes: { id: number }[] }>(`/api/tills/${before.id}/closes`);
    const html = await (
      await fetch(`${server.url}/api/closes/${closes.closes[0].id}/report`, {
        headers: { Authorization: `Bearer ${await accessToken(page)}` },
      })
    ).text();
    const pages = await printToPdf(page.context(), html, 'kassenbericht-first-close');
    assert.ok(pages >= 1);
    const after = await till();
    assert.equal(after.closedToday, true);
    assert.deepEqual(after.openDays, []);
  });

  /** A demo vendor with credit to pay out (a purchase in the shop when none has any left). */
  async function vendorWithCredit(except: string[] = []): Promise<{ licenseId: string; id: number }> {
    for (let n = 1; n <= 12; n++) {
      const licenseId = `DEMO-${n}`;
      if (except.includes(licenseId)) continue;
      const response = await fetch(`${server.url}/api/counter/vendor?vendor=${licenseId}`, {
        headers: { Authorization: `Bearer ${await accessToken(page)}` },
      });
      if (response.status !== 200) continue;
      const body = (await response.json()) as { credit: number; vendor: { id: number } };
      if (body.credit > 0) return { licenseId, id: body.vendor.id };
    }
    const licenseId = except.includes('DEMO-2') ? 'DEMO-3' : 'DEMO-2';
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as { mainItem: { id: number } };
    await buyInShop(server.url, {
      vendor: licenseId,
      entries: [{ item: settings.mainItem.id, quantity: 2 }],
      tip: 100,
    });
    return vendorWithCredit(except);
  }

  it('after the close, says before confirming that the cash goes into the next close, and books it', async () => {
    // A movement by hand.
    await page.goto(url('/tills'));
    await page.locator('#till-closed').filter({ hasText: 'Der Tag ist abgeschlossen' }).waitFor();
    await page.locator('#till-movement-after-close').filter({ hasText: 'zählt zum nächsten Abschluss' }).waitFor();
    await page.locator('#till-movement-kind').click();
    await page.getByRole('option', { name: 'Sonstige Einnahme' }).click();
    await page.locator('#till-movement-kind').filter({ hasText: 'Sonstige Einnahme' }).waitFor();
    await page.locator('#till-movement-amount').fill('5,00');
    await page.locator('#till-movement-reason').fill('Spende nach dem Abschluss');
    await lookAt('backoffice-cash-day-movement-de');
    await page.locator('#till-movement-book').click();
    // Whatever the answer, its words: a refusal fails here with the API's own message.
    const booked = page.locator('#till-movement-message');
    await booked.waitFor();
    assert.match(await booked.innerText(), /Gebucht als Beleg/);

    // A counter visit that pays out: the notice beside the button and in the confirmation.
    const visitor = await vendorWithCredit();
    await page.goto(url(`/counter/${visitor.licenseId}`));
    await page.locator('#counter-after-close').filter({ hasText: 'zählt zum nächsten Abschluss' }).waitFor();
    await page.locator('#counter-confirm').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#counter-confirm-after-close').waitFor();
    await lookAt('backoffice-cash-day-counter-confirm-de');
    await dialog.getByRole('button', { name: 'Besuch buchen' }).click();
    await page.locator('#counter-done').waitFor();

    // A payout from the credits, in English this time.
    const paid = await vendorWithCredit([visitor.licenseId]);
    await language('en');
    await page.goto(url(`/credits/payout/${paid.id}`));
    await page
      .locator('#payout-after-close')
      .filter({ hasText: 'goes into the next close, on the next day' })
      .waitFor();
    await page.locator('#payout-button').click();
    await page.getByRole('dialog').locator('#payout-confirm-after-close').waitFor();
    await lookAt('backoffice-cash-day-payout-confirm-en');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Pay out/ })
      .click();
    await page.locator('#payout-done').waitFor();

    const now = await till();
    assert.equal(now.openDays.length, 1, 'all three wait for the next close');
    assert.equal(now.openDays[0].movements, 3);
    await page.goto(url('/tills'));
    await page.locator('#till-open-days').filter({ hasText: 'today: 3 movements' }).waitFor();
    await lookAt('backoffice-cash-day-tills-en');
    await language('de');
    await page.goto(url('/today'));
    await page.locator('#today-tills').filter({ hasText: 'Heute ist abgeschlossen.' }).waitFor();
    await page
      .locator('#today-tills')
      .filter({ hasText: 'Alle früheren Tage mit Bargeld sind abgeschlossen.' })
      .waitFor();
    await screenshot(page, 'backoffice-cash-day-today-after-de-1280');
  });
});
