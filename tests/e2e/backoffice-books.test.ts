import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, logInAtProvider, useBrowserTab } from './admin-login.ts';
import { phone, screenshot, resize } from './browser.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// a purchase made in the shop appears in sales, accounting and the vendor's
// credit; a payout through the confirmation step brings the credit to 0 and shows the receipt; the
// vendor sees it on /me; a reversal brings the credit back. The tests run in order on DEMO-1, the
// demo vendor with a login.
describe('e2e: credits, payouts, sales and accounting in the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/credits' });
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  before(() => ({ server, browser, page } = tab));

  const vendor = 'DEMO-1';
  const euros = (cents: number) =>
    new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(cents / 100);
  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.equal(response.status, 200, `${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const openCredit = () => api<{ vendor: { id: number }; balance: number }>(`/api/payments/forpayout?vendor=${vendor}`);

  /** A customer's purchase at the vendor; resolves with the vendor's credit once it is booked. */
  async function buy(quantity: number, tip: number): Promise<number> {
    const before = (await openCredit()).balance;
    const settings = await (await fetch(`${server.url}/api/settings`)).json();
    await buyInShop(server.url, { vendor, entries: [{ item: settings.mainItem.id, quantity }], tip });
    return eventually(async () => {
      const { balance } = await openCredit();
      return balance > before && balance;
    }, 'the purchase is booked to the vendor');
  }

  let vendorId: number;
  let credit: number;
  let itemName: string;

  it('shows a purchase made in the shop in sales, accounting and the vendor’s credit', async () => {
    vendorId = (await openCredit()).vendor.id;
    credit = await buy(3, 123);
    itemName = (await (await fetch(`${server.url}/api/settings`)).json()).mainItem.name;

    await page.goto(url('/credits'));
    const creditRow = page.locator('table tbody tr').filter({ hasText: vendor });
    await creditRow.getByText(euros(credit), { exact: true }).waitFor();
    await screenshot(page, 'backoffice-credits-1280');

    await page.goto(url(`/sales?filter=${encodeURIComponent(JSON.stringify({ vendor }))}`));
    await page.getByRole('button', { name: 'Heute' }).click();
    await page.waitForURL(/from/);
    const rows = page.locator('table').first().locator('tbody tr');
    await rows
      .filter({ hasText: 'Trinkgeld' })
      .filter({ hasText: euros(123) })
      .waitFor();
    await rows
      .filter({ hasText: itemName })
      .filter({ has: page.getByRole('cell', { name: '3', exact: true }) })
      .first()
      .waitFor();
    const totals = page.locator('#books-totals');
    await totals
      .filter({ hasText: new RegExp(`Trinkgeld\\s*${euros(123).replace(/\s/g, '\\s')}`) })
      .locator('.books-total[data-kind="tip"]')
      .waitFor();
    assert.doesNotMatch(await totals.innerText(), /Kartengebühr/, 'sales only: the fees are not sales');
    // A sum per kind of booking, and no sum of sales and tips together.
    assert.deepEqual(
      await totals.locator('.books-total').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kind'))),
      ['sale', 'tip'],
    );
    await screenshot(page, 'backoffice-sales-1280');
    // The sales file is named after what it holds, not like the books' file.
    const salesFile = page.waitForEvent('download');
    await page.locator('#books-csv').click();
    assert.match((await salesFile).suggestedFilename(), /^verkaeufe-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);

    await page.goto(url(`/payments?filter=${encodeURIComponent(JSON.stringify({ vendor }))}`));
    await page.getByRole('button', { name: 'Heute' }).click();
    await page.waitForURL(/from/);
    await page.locator('table').first().locator('tbody tr').filter({ hasText: itemName }).first().waitFor();
    await page.locator('#books-totals .books-total').first().waitFor();
    const download = page.waitForEvent('download');
    await page.locator('#books-csv').click();
    assert.match((await download).suggestedFilename(), /^buchungen-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const csv = fs.readFileSync(await (await download).path(), 'utf8');
    assert.match(csv, /^\uFEFF"Buchung";"Datum";"Art"/, csv.slice(0, 120));
    assert.match(csv, new RegExp(`"${itemName}";"?3"?;`), `the purchase is in the CSV: ${csv.slice(-400)}`);
    const accounts = page.waitForEvent('download');
    await page.locator('#books-csv-accounts').click();
    const statement = await accounts;
    assert.match(statement.suggestedFilename(), /^konten-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const statementCsv = fs.readFileSync(await statement.path(), 'utf8');
    assert.match(statementCsv, /^\uFEFF"Konto";"Kontoart";"Lizenz";"Anfangsbestand"/, statementCsv.slice(0, 120));
    assert.match(statementCsv, /DEMO-1/, 'the vendor’s account is in the statement');
    await screenshot(page, 'backoffice-accounting-1280');
  });

  it('asks again when the credit changed, then pays out after the confirmation and shows the receipt', async () => {
    await page.goto(url('/credits'));
    await page.locator('table tbody tr').filter({ hasText: vendor }).getByRole('link', { name: 'Auszahlen' }).click();
    await page.waitForURL(url(`/credits/payout/${vendorId}`));
    await page
      .locator('#payout-credit')
      .filter({ hasText: euros(credit) })
      .waitFor();
    assert.ok(
      (await page.locator('#payout-rows tbody tr').filter({ hasText: '+' }).count()) >= 2,
      'the open rows with their signs',
    );

    // Meanwhile another customer buys: the figure on screen is no longer the credit.
    credit = await buy(1, 0);
    await page.locator('#payout-button').click();
    let dialog = page.getByRole('dialog');
    await dialog.getByText(/in bar an DEMO-1/).waitFor();
    await dialog.getByRole('button', { name: 'Auszahlen' }).click();
    await page
      .locator('#payout-problem')
      .filter({ hasText: `Es beträgt jetzt ${euros(credit)}` })
      .waitFor();
    await page
      .locator('#payout-credit')
      .filter({ hasText: euros(credit) })
      .waitFor();
    assert.equal((await openCredit()).balance, credit, 'nothing was paid out');

    await page.locator('#payout-button').click();
    dialog = page.getByRole('dialog');
    assert.match(await dialog.innerText(), new RegExp(`${euros(credit).replace(/\s/g, '\\s')} auszahlen\\?`));
    // The dialog fades in: the picture waits until it is fully there.
    await page.waitForFunction(
      () =>
        document.querySelector('.MuiDialog-container') &&
        getComputedStyle(document.querySelector('.MuiDialog-container')!).opacity === '1',
    );
    await screenshot(page, 'backoffice-payout-confirm-1280');
    await dialog.getByRole('button', { name: 'Auszahlen' }).click();
    await page
      .locator('#payout-done')
      .filter({ hasText: `${euros(credit)} an DEMO-1` })
      .waitFor();
    const receipt = page.frameLocator('#payout-receipt');
    await receipt.getByText(euros(credit)).first().waitFor();
    await page.getByRole('button', { name: 'Drucken' }).waitFor();
    assert.equal((await openCredit()).balance, 0, 'the credit is 0');
    await screenshot(page, 'backoffice-payout-receipt-1280');
  });

  it('says "No credits to pay out" for a vendor without credit', async () => {
    await page.goto(url(`/credits/payout/${vendorId}`));
    await page.locator('#payout-nothing').filter({ hasText: 'Keine Guthaben zum Auszahlen' }).waitFor();
    assert.equal(await page.locator('#payout-button').count(), 0, 'no payout button');
    await page.goto(url('/credits'));
    await page.locator('table tbody tr, #credits-empty').first().waitFor();
    assert.equal(
      await page.locator('table tbody tr').filter({ hasText: vendor }).count(),
      0,
      'the vendor left the open credits',
    );
  });

  it('shows the vendor credit 0 and the payout on /me', async () => {
    const vendorContext = await browser.newContext({ viewport: phone, locale: 'de-AT' });
    const vendorPage = await vendorContext.newPage();
    await vendorPage.goto(`${server.url}/me`);
    await logInAtProvider(vendorPage, 'vendor', 'vendor');
    await vendorPage
      .locator('#me-credit-amount')
      .filter({ hasText: euros(0) })
      .waitFor();
    await vendorPage
      .locator('#me-last-payout')
      .filter({ hasText: euros(credit) })
      .waitFor();
    await screenshot(vendorPage, 'backoffice-books-me-after-payout-390');
    await vendorContext.close();
  });

  it('lists the payout with what it settled and a totals row, and reverses it with a reason', async () => {
    await page.goto(url('/payouts'));
    const row = page.locator('table tbody tr').filter({ hasText: vendor }).first();
    await row.getByText(euros(credit), { exact: true }).waitFor();
    assert.match(await row.innerText(), new RegExp(`${itemName} × 4`), 'what the payout settled per item');
    assert.match(await row.innerText(), /office/, 'the staff member who paid out');
    await screenshot(page, 'backoffice-payouts-1280');
    await page.locator('#payouts-totals').waitFor();
    await page
      .locator('#payouts-total')
      .waitFor({ timeout: 5_000 })
      .catch(async () => assert.fail(await page.locator('#payouts-totals').innerText()));
    const total = await page.locator('#payouts-total').innerText();
    assert.ok(/Auszahlung/.test(total) && total.includes(euros(credit)), `the totals row: ${JSON.stringify(total)}`);

    await row.getByRole('button', { name: 'Beleg' }).click();
    await page.frameLocator('#payout-receipt').getByText(euros(credit)).first().waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Schließen' }).click();

    await row.getByRole('button', { name: 'Stornieren' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${euros(credit)} gehen zurück auf das Guthaben von DEMO-1`, { exact: false }).waitFor();
    await dialog.locator('#payout-reverse-confirm').click();
    await dialog.getByText('Bitte einen Grund für das Storno angeben.').waitFor();
    assert.equal((await openCredit()).balance, 0, 'no reversal without a reason');
    await dialog.getByLabel(/^Grund/).fill('Doppelt ausgezahlt, Geld zurück in der Kasse');
    await dialog.locator('#payout-reverse-confirm').click();
    await row.locator('.payout-reversed').waitFor();
    assert.equal(
      await row.getByRole('button', { name: 'Stornieren' }).count(),
      0,
      'a reversed payout cannot be reversed again',
    );
    assert.equal((await openCredit()).balance, credit, 'the credit is back');
    await page.locator('#payouts-totals').filter({ hasText: 'davon storniert' }).waitFor();

    await page.goto(url('/credits'));
    await page
      .locator('table tbody tr')
      .filter({ hasText: vendor })
      .getByText(euros(credit), { exact: true })
      .waitFor();
  });

  it('shows the items sold on the vendor profile and links the vendor list to payout and account statement', async () => {
    await page.goto(url(`/userprofile/${vendorId}`));
    await page.locator('#vendor-items-sold').filter({ hasText: itemName }).waitFor();
    await page.goto(url('/vendorsummary'));
    const row = page.locator('table tbody tr').filter({ hasText: vendor }).first();
    await row.getByRole('link', { name: 'Kontoauszug' }).click();
    await page.waitForURL((current) => current.pathname === '/backoffice/payments');
    assert.equal(await page.getByLabel(/^Verkäufer·in \(Ausweisnummer\)/).inputValue(), vendor);
    await page.goBack();
    await page
      .locator('table tbody tr')
      .filter({ hasText: vendor })
      .first()
      .getByRole('link', { name: 'Auszahlen' })
      .click();
    await page.waitForURL(url(`/credits/payout/${vendorId}`));
    await page
      .locator('#payout-credit')
      .filter({ hasText: euros(credit) })
      .waitFor();
  });

  it('pays nothing twice: paid out at another counter meanwhile, the page says there is nothing left', async () => {
    await page.goto(url(`/credits/payout/${vendorId}`));
    await page
      .locator('#payout-credit')
      .filter({ hasText: euros(credit) })
      .waitFor();
    const elsewhere = await fetch(`${server.url}/api/payments/payout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ vendor, expectedAmount: credit }),
    });
    assert.equal(elsewhere.status, 201);
    await page.locator('#payout-button').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Auszahlen' }).click();
    await page.locator('#payout-nothing').filter({ hasText: 'Keine Guthaben zum Auszahlen' }).waitFor();
    assert.equal(await page.locator('#payout-done').count(), 0, 'no second receipt');
    assert.equal(
      (await api<unknown[]>(`/api/payouts?filter=${encodeURIComponent(JSON.stringify({ vendor }))}`)).length,
      2,
      'two payouts: the reversed one and the other counter’s',
    );
  });

  it('reads in English and fits a phone', async () => {
    await page.goto(url('/payouts'));
    await page.locator('#backoffice-language button[value="en"]').click();
    await page.getByRole('button', { name: 'This month' }).waitFor();
    await resize(page, phone);
    await page.reload();
    await page.getByRole('button', { name: 'This month' }).waitFor();
    await page
      .locator('#payouts-total')
      .filter({ hasText: /payouts?:/ })
      .waitFor();
    await screenshot(page, 'backoffice-payouts-en-390');
    await page.getByRole('button', { name: 'Receipt' }).first().click();
    await page.frameLocator('#payout-receipt').getByText('Payout receipt').waitFor();
    await screenshot(page, 'backoffice-payout-receipt-en-390');
    await page.keyboard.press('Escape');
    await page.goto(url('/payments'));
    await page.locator('#books-totals .books-total').filter({ hasText: 'Total: Sale' }).waitFor();
    await page.getByText('Zeitung × 3').first().waitFor();
    await screenshot(page, 'backoffice-accounting-en-390');
  });
});
