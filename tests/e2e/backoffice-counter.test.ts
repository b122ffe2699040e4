import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { screenshot } from './browser.ts';
import { printToPdf as printHtmlToPdf } from './print.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// Staff in Chromium serve a vendor at the counter (copies from the credit, the rest paid out), print
// the receipt (one A4 page, as PDF), serve another in English (copies in cash) and in German (more
// cash handed over than the copies cost: change), close the day with a difference and print its
// Kassenbericht, in German and English.
describe('e2e: the counter, the cash book and the daily close in the back office', function () {
  this.timeout(240_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/counter' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const euros = (cents: number, locale = 'de-DE') =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100);
  const url = (p: string) => `${server.url}/backoffice${p}`;
  const get = async (p: string) => {
    const response = await fetch(`${server.url}${p}`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.equal(response.status, 200, `${p}: ${response.status}`);
    return response;
  };
  const atCounter = async (vendor: string) =>
    (await (await get(`/api/counter/vendor?vendor=${vendor}`)).json()) as { credit: number };
  const tillBalance = async () =>
    ((await (await get('/api/tills')).json()) as { tills: { balance: number }[] }).tills[0].balance;

  /** Prints a page of the API to PDF in Chromium, as the print button does; answers the number of pages. */
  const printToPdf = async (apiPath: string, name: string) =>
    printHtmlToPdf(page.context(), await (await get(apiPath)).text(), name);

  let vendor = '';
  let credit = 0;
  let zeitung = 0;

  it('opens the visit from the vendor list, sells 2 copies from the credit, pays out the rest and shows the receipt (German)', async () => {
    // A customer buys two papers at DEMO-2 in the shop (paid in the sandbox): that is the credit.
    vendor = 'DEMO-2';
    const open = (await atCounter(vendor)).credit;
    const settings = await (await fetch(`${server.url}/api/settings`)).json();
    await buyInShop(server.url, { vendor, entries: [{ item: settings.mainItem.id, quantity: 2 }], tip: 100 });
    credit = await eventually(async () => {
      const now = (await atCounter(vendor)).credit;
      return now > open && now;
    }, 'the purchase is booked to the vendor');
    const before = await tillBalance();
    // From the vendor list: the counter button in the vendor's row.
    await page.goto(url('/vendorsummary'));
    await page
      .locator('table tbody tr')
      .filter({ hasText: vendor })
      .first()
      .getByRole('link', { name: 'Besuch an der Theke' })
      .click();
    await page.waitForURL(url(`/counter/${vendor}`));
    await page
      .locator('#counter-credit')
      .filter({ hasText: euros(credit) })
      .waitFor();
    await page.locator('#counter-open-rows tbody tr').filter({ hasText: 'Zeitung' }).first().waitFor();
    zeitung = Number(
      (await page.locator('#counter-items input').first().getAttribute('id'))!.replace('counter-qty-', ''),
    );
    await page.locator(`#counter-qty-${zeitung}`).fill('2');
    await page
      .locator('#counter-from-credit')
      .filter({ hasText: euros(300) })
      .waitFor();
    await page
      .locator('#counter-payout-amount')
      .filter({ hasText: euros(credit - 300) })
      .waitFor();
    await page.locator('#counter-confirm').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Auszahlung ${euros(credit - 300)}`).waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector('.MuiDialog-container') &&
        getComputedStyle(document.querySelector('.MuiDialog-container')!).opacity === '1',
    );
    await screenshot(page, 'backoffice-counter-confirm-1280');
    await dialog.getByRole('button', { name: 'Besuch buchen' }).click();
    await page.locator('#counter-done').waitFor();
    const receipt = page.frameLocator('#counter-receipt');
    await receipt.getByText('Kauf- und Auszahlungsbeleg').waitFor();
    await receipt.getByText(/2 × Zeitung à 1,50/).waitFor();
    await receipt
      .locator('#receipt-payout')
      .filter({ hasText: euros(credit - 300) })
      .waitFor();
    await screenshot(page, 'backoffice-counter-receipt-1280');
    assert.equal((await atCounter(vendor)).credit, 0, 'the credit is 0');
    assert.equal(await tillBalance(), before - (credit - 300), 'the till paid out the rest');
  });

  it('prints the visit receipt on one A4 page', async () => {
    const id = await lastVisitId();
    assert.equal(await printToPdf(`/api/counter/visits/${id}/receipt`, 'counter-receipt-de'), 1, 'one page');
    assert.equal(
      await printToPdf(`/api/counter/visits/${id}/receipt?lang=en`, 'counter-receipt-en'),
      1,
      'one page in English too',
    );
  });

  async function lastVisitId(): Promise<string> {
    const visits = (await (await get(`/api/counter/visits?vendor=${vendor}`)).json()) as { id: string }[];
    assert.equal(visits.length, 1, 'the visit is listed');
    return visits[0].id;
  }

  it('finds the vendor by the licence ID search and sells a calendar paid entirely in cash, in English', async () => {
    // From the counter's search, as a badge scanner types the licence ID and Enter.
    await page.locator('#counter-next').click();
    await page.waitForURL(url('/counter'));
    await page.locator('#backoffice-language button[value="en"]').click();
    await page.getByLabel('Licence ID or badge').fill(vendor);
    await page.getByLabel('Licence ID or badge').press('Enter');
    await page
      .locator('#counter-credit')
      .filter({ hasText: euros(0, 'en-IE') })
      .waitFor();
    const before = await tillBalance();
    const kalender = (await page.locator('#counter-items input').nth(1).getAttribute('id'))!;
    await page.locator(`#${kalender}`).fill('1');
    await page.locator('#counter-invalid').filter({ hasText: 'take at least' }).waitFor();
    await page.getByRole('button', { name: 'All in cash' }).click();
    await page
      .locator('#counter-cash-in')
      .filter({ hasText: euros(500, 'en-IE') })
      .waitFor();
    await page.locator('#counter-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm visit' }).click();
    const receipt = page.frameLocator('#counter-receipt');
    await receipt.getByText('Purchase receipt').waitFor();
    await receipt.locator('#receipt-cash').filter({ hasText: '€5.00' }).waitFor();
    assert.equal(await tillBalance(), before + 500, 'the cash went into the till');
    await screenshot(page, 'backoffice-counter-cash-en-1280');
  });

  it('gives change: 50,00 € handed over for 30,00 € of copies keeps 30,00 € and prints 20,00 € change; reads "1.000,50" (German)', async () => {
    await page.locator('#backoffice-language button[value="de"]').click();
    await page.goto(url(`/counter/${vendor}`));
    await page
      .locator('#counter-credit')
      .filter({ hasText: euros(0) })
      .waitFor();
    const before = await tillBalance();
    const kalender = (await page.locator('#counter-items input').nth(1).getAttribute('id'))!;
    await page.locator(`#${kalender}`).fill('6');
    await page.locator('#counter-cash').fill('1.000,50');
    await page
      .locator('#counter-change')
      .filter({ hasText: euros(97050) })
      .waitFor();
    assert.equal(await page.locator('#counter-invalid').count(), 0, 'German thousands are read, not refused');
    await page.locator('#counter-cash').fill('50');
    await page
      .locator('#counter-change')
      .filter({ hasText: euros(2000) })
      .waitFor();
    await page
      .locator('#counter-cash-in')
      .filter({ hasText: euros(3000) })
      .waitFor();
    await page.locator('#counter-confirm').click();
    const dialog = page.getByRole('dialog');
    await dialog
      .locator('#counter-confirm-change')
      .filter({ hasText: euros(2000) })
      .waitFor();
    await dialog.getByRole('button', { name: 'Besuch buchen' }).click();
    const receipt = page.frameLocator('#counter-receipt');
    await receipt
      .locator('#receipt-change')
      .filter({ hasText: 'Rückgeld' })
      .filter({ hasText: euros(2000) })
      .waitFor();
    assert.equal(await tillBalance(), before + 3000, 'the till keeps the price of the copies');
    await screenshot(page, 'backoffice-counter-change-de-1280');
    await page.locator('#backoffice-language button[value="en"]').click();
  });

  it('closes the day with a counted difference and prints the cash report on one page, in English and German', async () => {
    await page.goto(url('/tills'));
    const expected = await tillBalance();
    await page
      .locator('#till-expected')
      .filter({ hasText: euros(expected, 'en-IE') })
      .waitFor();
    await page.locator('#till-book tbody tr').first().waitFor();
    await page.locator('#till-by-pieces').uncheck();
    const counted = expected - 100;
    await page.locator('#till-counted').fill((counted / 100).toFixed(2));
    await page
      .locator('#till-difference')
      .filter({ hasText: euros(-100, 'en-IE') })
      .waitFor();
    await page.locator('#till-close-reason').fill('Change given wrongly');
    await page.locator('#till-close').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close today' }).click();
    const report = page.frameLocator('#till-report');
    await report.getByText('Cash report').first().waitFor();
    await report
      .locator('#report-difference')
      .filter({ hasText: euros(-100, 'en-GB') })
      .waitFor();
    await screenshot(page, 'backoffice-till-close-en-1280');
    assert.equal(await tillBalance(), counted, 'the difference is booked');

    await page.locator('#backoffice-language button[value="de"]').click();
    await page.goto(url('/tills'));
    await page.locator('#till-closed').filter({ hasText: 'Der Tag ist abgeschlossen' }).waitFor();
    // The list of closes names the day as German readers write it (2.12.2026), not as ISO.
    const closedDay = (await (await get('/api/tills/1/closes')).json()).closes[0].day as string;
    const [y, m, d] = closedDay.split('-').map(Number);
    await page
      .getByRole('row')
      .filter({ has: page.locator('.till-report-open') })
      .first()
      .getByText(`${d}.${m}.${y}`, { exact: true })
      .waitFor();
    await page.locator('.till-report-open').first().click();
    const german = page.frameLocator('#till-report');
    await german.getByText('Kassenbericht').first().waitFor();
    await german.getByText('Change given wrongly').waitFor();
    await screenshot(page, 'backoffice-till-report-de-1280');
    const closes = (await (await get('/api/tills/1/closes')).json()) as { closes: { id: number }[] };
    const id = closes.closes[0].id;
    assert.equal(await printToPdf(`/api/closes/${id}/report`, 'kassenbericht-de'), 1, 'one page');
    assert.equal(await printToPdf(`/api/closes/${id}/report?lang=en`, 'cash-report-en'), 1, 'one page in English');

    // The office's start screen has the day's counter and till.
    await page.goto(url('/today'));
    await page.locator('#today-copies').filter({ hasText: '2 × Zeitung' }).waitFor();
    await page.locator('#today-copies').filter({ hasText: '7 × Kalender 2027' }).waitFor();
    await page
      .locator('#today-tills')
      .filter({ hasText: euros(counted) })
      .waitFor();
    await screenshot(page, 'backoffice-today-de-1280');
  });

  /**
   * Runs `look` while the tills' signing state fails: its first answer is an error and each retry is
   * held unanswered, as a server that stopped answering.
   */
  async function signingStateFailing(look: () => Promise<void>): Promise<void> {
    const held: Route[] = [];
    let asked = 0;
    const handler = async (route: Route) => {
      asked++;
      if (asked > 1) return void held.push(route);
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Nicht erreichbar."}' });
    };
    await page.route('**/api/fiscal', handler);
    try {
      await look();
    } finally {
      await page.unroute('**/api/fiscal', handler);
      await Promise.all(held.map((route) => route.abort()));
    }
  }

  it('draws the visit once the tills’ signing state has failed to load, without waiting for its retries', async () => {
    await signingStateFailing(async () => {
      await page.goto(url('/counter/DEMO-1'));
      await page.locator('#counter-confirm').waitFor();
      assert.equal(await page.locator('#counter-fiscal-off').count(), 0, 'no notice without the signing state');
    });
  });

  it('draws a till’s forms with its signing state, which stands above them, and without it once its first try has failed', async () => {
    // The signing state held back: the screen says it is loading and draws none of the forms whose
    // buttons the signing state, arriving, would push from under the pointer.
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const held = new Promise<void>((resolve) => (asked = resolve));
    const hold = async (route: Route) => {
      asked();
      await answered;
      await route.continue();
    };
    await page.route('**/api/fiscal', hold);
    try {
      const tills = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/tills');
      await page.goto(url('/tills'));
      await Promise.all([held, tills]);
      await page.locator('#tills-loading').waitFor();
      assert.equal(await page.locator('#till-location-save').count(), 0, 'no form before the signing state');
      release();
      await page.locator('#till-fiscal-mode').waitFor();
      await page.locator('#till-location-save').waitFor();
      assert.equal(await page.locator('#tills-loading').count(), 0);
    } finally {
      release();
      await page.unroute('**/api/fiscal', hold);
    }

    // The signing state failing: the forms draw, without it.
    await signingStateFailing(async () => {
      await page.goto(url('/tills'));
      await page.locator('#till-location-save').waitFor();
      assert.equal(await page.locator('#till-fiscal-mode').count(), 0, 'no signing section without the signing state');
    });
  });
});
