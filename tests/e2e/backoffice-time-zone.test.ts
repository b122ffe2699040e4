import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, logInAtProvider, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { pdfPrinter } from '../support/pdf.ts';
import { wallClockFormat } from '../support/wall-clock.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// One time zone for people: the office computer is in New York, the newspaper (TIME_ZONE) in Berlin.
// A payout shows the same day and minute on the screen, on its receipt, in the payouts CSV, in the
// cash book and its CSV, on the vendor's /me; the customer's receipt in the shop shows Berlin's time too.

const browserZone = 'America/New_York';
const newspaperZone = 'Europe/Berlin';

/** A day and minute as "2026-11-21 06:04", from the ways the pages write them. */
interface Minute {
  day: string;
  time: string;
}

const two = (n: string) => n.padStart(2, '0');

/** The first "21.11.2026, 06:04", "21.11.26, 06:04" or "21.11.2026 06:04:00" in `text`. */
function germanMinute(text: string): Minute {
  const match = /(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4}),?\s+(\d{1,2}):(\d{2})/.exec(text);
  assert.ok(match, `a German date and time in ${JSON.stringify(text)}`);
  const [, day, month, year, hour, minute] = match;
  return { day: `${year.length === 2 ? `20${year}` : year}-${two(month)}-${two(day)}`, time: `${two(hour)}:${minute}` };
}

/** The first "21/11/2026, 06:04" or "21/11/26, 06:04" in `text`. */
function englishMinute(text: string): Minute {
  const match = /(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4}),?\s+(\d{1,2}):(\d{2})/.exec(text);
  assert.ok(match, `an English date and time in ${JSON.stringify(text)}`);
  const [, day, month, year, hour, minute] = match;
  return { day: `${year.length === 2 ? `20${year}` : year}-${two(month)}-${two(day)}`, time: `${two(hour)}:${minute}` };
}

/** An instant's day and minute in a zone. */
function minuteIn(iso: string, zone: string): Minute {
  const local = wallClockFormat('sv-SE', zone).format(new Date(iso));
  return { day: local.slice(0, 10), time: local.slice(11, 16) };
}

/** The text of the file a click on `selector` downloads. */
async function downloaded(page: Page, selector: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(selector).click()]);
  return fs.readFileSync(await download.path(), 'utf8');
}

describe('e2e: one time zone, the newspaper’s, on every screen, paper and CSV', function () {
  this.timeout(240_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/credits', contextOptions: { timezoneId: browserZone } });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const vendor = 'DEMO-1';
  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.equal(response.status, 200, `${path}: ${response.status}`);
    return (await response.json()) as T;
  };

  let order = '';
  let vendorId = 0;
  let payout: { id: number; createdAt: string };
  let voucher = '';
  /** The payout's day and minute as its receipt prints it: what every other place must show. */
  let printed: Minute;

  it('runs a browser in New York against a newspaper in Berlin', async () => {
    const settings = await (await fetch(`${server.url}/api/settings`)).json();
    assert.equal(settings.timeZone, newspaperZone, 'GET /api/settings names TIME_ZONE');
    assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), browserZone);
  });

  it('pays a vendor out and shows the receipt’s time on the payouts list and in its CSV', async () => {
    const { vendor: owner, balance: open } = await api<{ vendor: { id: number }; balance: number }>(
      `/api/payments/forpayout?vendor=${vendor}`,
    );
    const settings = await (await fetch(`${server.url}/api/settings`)).json();
    order = await buyInShop(server.url, { vendor, entries: [{ item: settings.mainItem.id, quantity: 2 }], tip: 50 });
    await eventually(
      async () => (await api<{ balance: number }>(`/api/payments/forpayout?vendor=${vendor}`)).balance > open,
      'the purchase is booked to the vendor',
    );

    vendorId = owner.id;
    await page.goto(url(`/credits/payout/${owner.id}`));
    await page.locator('#payout-button').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Auszahlen' }).click();
    await page.locator('#payout-done').waitFor();
    const receipt = page.frameLocator('#payout-receipt');
    printed = germanMinute(await receipt.locator('#receipt-date').innerText());
    voucher = (await receipt.locator('#receipt-number').innerText()).trim();

    const listed = await api<{ id: number; createdAt: string }[]>(
      `/api/payouts?filter=${encodeURIComponent(JSON.stringify({ vendor }))}`,
    );
    payout = listed[0];
    assert.deepEqual(printed, minuteIn(payout.createdAt, newspaperZone), 'the receipt prints Berlin’s time');
    assert.notDeepEqual(printed, minuteIn(payout.createdAt, browserZone), 'which is not New York’s');
    // The receipt's PDF is this page printed, on one A4 page.
    const html = await (
      await fetch(`${server.url}/api/payouts/${payout.id}/receipt`, {
        headers: { Authorization: `Bearer ${await accessToken(page)}` },
      })
    ).text();
    assert.deepEqual(germanMinute(/id="receipt-date">([^<]*)</.exec(html)![1]), printed);
    const printer = pdfPrinter();
    try {
      const pdf = await printer.print(html, 'time-zone-payout-receipt');
      assert.equal(pdf.pages, 1, 'one page');
      assert.deepEqual(germanMinute(pdf.text), printed, 'the printed receipt has the same day and minute');
    } finally {
      await printer.close();
    }

    await page.goto(url('/payouts'));
    const row = page.locator('table tbody tr').filter({ hasText: voucher });
    await row.waitFor();
    assert.deepEqual(germanMinute(await row.innerText()), printed, 'the payouts list shows the receipt’s time');
    await expectAccessible(page, 'the payouts list');
    await screenshot(page, 'time-zone-payouts-de-1280');

    const csv = await downloaded(page, '#payouts-csv');
    const line = csv.split('\r\n').find((l) => l.includes(voucher));
    assert.ok(line, `the payout is in the CSV: ${csv.slice(0, 400)}`);
    assert.deepEqual(germanMinute(line), printed, 'the payouts CSV has the receipt’s time');

    // In English, the same minute.
    await page.locator('#backoffice-language button[value="en"]').click();
    await page
      .locator('table tbody tr')
      .filter({ hasText: voucher })
      .getByText(/\d\d\/\d\d\/\d\d/)
      .waitFor();
    assert.deepEqual(englishMinute(await row.innerText()), printed, 'in English too');
    await screenshot(page, 'time-zone-payouts-en-1280');
    await resize(page, phone);
    await page
      .locator('text=' + voucher)
      .first()
      .waitFor();
    assert.deepEqual(
      englishMinute(await page.locator('li, .MuiListItem-root').filter({ hasText: voucher }).first().innerText()),
      printed,
      'on a phone too',
    );
    await expectAccessible(page, 'the payouts list on a phone');
    await screenshot(page, 'time-zone-payouts-en-390');
    await resize(page, { width: 1280, height: 900 });
    await page.locator('#backoffice-language button[value="de"]').click();
  });

  it('shows the same time in the cash book and its CSV', async () => {
    await page.goto(url('/tills'));
    const row = page.locator('#till-book tbody tr').filter({ hasText: voucher });
    await row.waitFor();
    assert.deepEqual(germanMinute(await row.innerText()), printed, 'the cash book shows the receipt’s time');
    await screenshot(page, 'time-zone-cash-book-de-1280');
    const csv = await downloaded(page, '#till-book-csv');
    const line = csv.split('\r\n').find((l) => l.includes(voucher));
    assert.ok(line, `the payout is in the cash book CSV: ${csv.slice(0, 400)}`);
    assert.deepEqual(germanMinute(line), printed, 'the cash book CSV has the receipt’s time');
  });

  it('shows the protocol at Berlin’s times, its day filter meaning Berlin’s day, and calendar days as themselves', async () => {
    const filter = (days: { from: string; to?: string }) =>
      url(`/protocol?filter=${encodeURIComponent(JSON.stringify(days))}`);
    await page.goto(filter({ from: printed.day, to: printed.day }));
    const entries = await api<{ id: number; at: string }[]>(
      `/api/protocol?filter=${encodeURIComponent(JSON.stringify({ from: printed.day, to: printed.day }))}&_sort=at&_order=DESC`,
    );
    assert.ok(entries.length > 0, 'the payout is in the protocol of its day');
    const from = page.getByLabel('Von', { exact: true });
    await from.waitFor();
    assert.equal(await from.inputValue(), printed.day.split('-').reverse().join('.'), 'a German day');
    const first = page.locator('table tbody tr').first();
    await first.waitFor();
    assert.deepEqual(germanMinute(await first.innerText()), minuteIn(entries[0].at, newspaperZone));
    await expectAccessible(page, 'the protocol with a day filter');
    await screenshot(page, 'time-zone-protocol-de-1280');

    // A vendor's registration day is a calendar day: New York shows it as Berlin does, not the day before.
    const { registrationDate } = await api<{ registrationDate: string }>(`/api/vendors/${vendorId}`);
    const [year, month, day] = registrationDate.split('-').map(Number);
    await page.goto(url(`/userprofile/${vendorId}`));
    await page.getByText(`${day}.${month}.${year}`, { exact: true }).first().waitFor();
    await screenshot(page, 'time-zone-vendor-de-1280');
  });

  it('shows the payout’s Berlin day on the vendor’s /me in New York', async () => {
    const vendorContext = await tab.browser.newContext({ viewport: phone, locale: 'de-AT', timezoneId: browserZone });
    try {
      const vendorPage = await vendorContext.newPage();
      await vendorPage.goto(`${server.url}/me`);
      await logInAtProvider(vendorPage, 'vendor', 'vendor');
      const shown = await vendorPage.locator('#me-last-payout p').innerText();
      const [, day, month, year] = /(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(shown) ?? [];
      assert.equal(`${year}-${two(month ?? '')}-${two(day ?? '')}`, printed.day, `the receipt’s day: ${shown}`);
      await expectAccessible(vendorPage, '/me');
      await screenshot(vendorPage, 'time-zone-me-de-390');
    } finally {
      await vendorContext.close();
    }
  });

  it('shows the customer the purchase at Berlin’s time in the shop, in German and English', async () => {
    const { paidAt } = (await (await fetch(`${server.url}/api/orders/${order}`)).json()) as { paidAt: string };
    const bought = minuteIn(paidAt, newspaperZone);
    for (const [locale, word] of [
      ['de-AT', /Gekauft am (\d\d)\.(\d\d)\.(\d{4}) um (\d\d:\d\d)/],
      ['en-GB', /Bought on the (\d\d)\/(\d\d)\/(\d{4}) at (\d\d:\d\d)/],
    ] as const) {
      const context = await tab.browser.newContext({ viewport: phone, locale, timezoneId: browserZone });
      try {
        const shopPage = await context.newPage();
        // The receipt's live clock ticks in Berlin's time too: the minute it shows lies between the
        // page's load and its reading (a clock drawn at 12:19:59 still says 12:19 a moment later).
        const before = minuteIn(new Date().toISOString(), newspaperZone).time;
        await shopPage.goto(`${server.url}/paymentconfirmation?order=${order}`);
        const text = await shopPage.locator('#shop-receipt-bought').innerText();
        const clock = (await shopPage.locator('#shop-receipt-clock').innerText()).slice(0, 5);
        const after = minuteIn(new Date().toISOString(), newspaperZone).time;
        assert.ok([before, after].includes(clock), `the clock ${clock} is Berlin's ${before}`);
        const [, day, month, year, time] = word.exec(text) ?? [];
        assert.deepEqual({ day: `${year}-${month}-${day}`, time }, bought, `Berlin’s time in ${locale}: ${text}`);
        await screenshot(shopPage, `time-zone-shop-receipt-${locale}-390`);
      } finally {
        await context.close();
      }
    }
  });
});
