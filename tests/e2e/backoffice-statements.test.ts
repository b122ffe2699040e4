import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, openLoggedIn, useBrowserTab } from './admin-login.ts';
import { expectAccessible, seriousViolations } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { printToPdf } from './print.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// Vendor statements: staff open a vendor's statement of this month from the profile (a
// month with sales, a digital edition's licence share, a tip, a card fee the vendor bears, a payout
// and its reversal), in German and English; each prints on one A4 page. Every vendor's statements
// of the year come as one document with a section per vendor; the vendor reads their own on /me.
describe('e2e: vendor statements in the back office and on /me', function () {
  this.timeout(300_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  let office = '';
  let vendorId = 0;
  let otherId = 0;
  before(() => ({ server, page } = tab));

  const api = async (path: string, init: RequestInit = {}, token = office) => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
    });
    return response;
  };
  const json = async <T>(path: string, init?: RequestInit) => {
    const response = await api(path, init);
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as T;
  };
  // This month where the newspaper is (the app's and the office's zone), not in this machine's UTC.
  const [year, monthNumber] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' })
    .format(new Date())
    .split('-')
    .map(Number);
  const month = `${year}-${String(monthNumber).padStart(2, '0')}`;
  const thisMonth = `from=${month}-01&to=${month}-${new Date(year, monthNumber, 0).getDate()}`;

  // Tips are "Trinkgeld" on a statement whatever the shop calls them.
  const tipWords = { de: 'Trinkgeld', en: 'Tip' };

  /**
   * The statement screens pass axe-core: the printable page on its own (as it is printed) in full,
   * and in the back office everything inside the dialog. The back office's layout around it has
   * findings of its own (no h1 yet, the sidebar menu), checked elsewhere; they are not counted here.
   */
  async function statementAccessible(html: string, label: string) {
    const alone = await page.context().newPage();
    try {
      await alone.setContent(html);
      await expectAccessible(alone, `${label}: the printable page`);
    } finally {
      await alone.close();
    }
    const inDialog = (await seriousViolations(page)).violations.filter((v) =>
      v.targets.some((target) => /MuiDialog|statement/.test(target)),
    );
    assert.deepEqual(inDialog, [], `${label}: the dialog`);
  }

  before(async () => {
    office = await accessToken(page);
    // The vendor bears the card fee this month: the newspaper stops covering it.
    const form = new FormData();
    form.set('orgaCoversTransactionCosts', 'false');
    assert.equal((await api('/api/settings/', { method: 'PUT', body: form })).status, 200);
    const items = await json<{ id: number; name: string }[]>('/api/items');
    const byName = (name: string) => items.find((item) => item.name === name)!.id;
    await buyInShop(server.url, {
      vendor: 'DEMO-1',
      entries: [
        { item: byName('Zeitung'), quantity: 2 },
        { item: byName('Digitale Ausgabe'), quantity: 1 },
      ],
      tip: 150,
      email: 'reader@example.org',
      locale: 'de',
    });
    await buyInShop(server.url, { vendor: 'DEMO-2', entries: [{ item: byName('Zeitung'), quantity: 1 }], tip: 0 });
    const vendors = await json<{ id: number; licenseId: string }[]>(
      `/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-"}')}&range=[0,50]`,
    );
    vendorId = vendors.find((v) => v.licenseId === 'DEMO-1')!.id;
    otherId = vendors.find((v) => v.licenseId === 'DEMO-2')!.id;
    // The fee arrives with the payment's balance transaction; the payout waits for it.
    const credit = await eventually(async () => {
      const answer = await json<{ rows: { kind: string }[]; closingCredit: number }>(
        `/api/vendors/${vendorId}/statement?${thisMonth}`,
      );
      return answer.rows.some((row) => row.kind === 'fees_borne') && answer.closingCredit;
    }, 'the sale and its fee are booked');
    const payout = await json<{ id: number }>('/api/payments/payout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ vendor: 'DEMO-1', expectedAmount: credit }),
    });
    await json(`/api/payments/payout/${payout.id}/reverse`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'Counted twice' }),
    });
  });

  /** Opens the statement dialog of DEMO-1 on this month. */
  async function openStatement(presetLabel: string) {
    await page.goto(`${server.url}/backoffice/userprofile/${vendorId}`);
    await page.locator('#vendor-statement-button').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#statement-page').waitFor();
    await dialog.locator('#statistics-period [role="combobox"]').first().click();
    await page.getByRole('option', { name: presetLabel }).click();
    return page.frameLocator('#statement-page');
  }

  it('shows the statement of this month from the vendor profile and prints it on one page, in German', async () => {
    const frame = await openStatement('Dieser Monat');
    await frame.getByRole('heading', { name: 'Abrechnung' }).waitFor();
    await frame.locator('.statement-licence').filter({ hasText: 'DEMO-1' }).waitFor();
    for (const text of ['Verkauf: Zeitung', tipWords.de, 'Lizenzanteil', 'Kartengebühren, selbst getragen']) {
      await frame.locator('td').filter({ hasText: text }).first().waitFor();
    }
    assert.equal(await frame.locator('tr.payout').count(), 1, 'the payout with its voucher');
    assert.equal(await frame.locator('tr.payout_reversal').count(), 1, 'and its reversal');
    await screenshot(page, 'backoffice-statement-de-1366');
    await resize(page, phone);
    await screenshot(page, 'backoffice-statement-de-390');
    await resize(page, { width: 1366, height: 900 });

    const html = await (await api(`/api/vendors/${vendorId}/statement?${thisMonth}&format=html&lang=de`)).text();
    await statementAccessible(html, 'the statement (de)');
    assert.equal(await printToPdf(page.context(), html, 'statement-de'), 1, 'one A4 page in German');
  });

  it('shows and prints it in English, the language the office chose for the page', async () => {
    await page.goto(`${server.url}/backoffice/userprofile/${vendorId}`);
    await page.locator('#backoffice-language button[value="en"]').click();
    await page
      .locator('#vendor-statement-button')
      .filter({ hasText: /statement/i })
      .waitFor();
    const frame = await openStatement('This month');
    await page.locator('#statement-language').click();
    await page.getByRole('option', { name: 'English' }).click();
    await frame.getByRole('heading', { name: 'Statement' }).waitFor();
    for (const text of ['Sale: Zeitung', tipWords.en, 'Licence share', 'Card fees borne', 'Payout reversed']) {
      await frame.locator('td').filter({ hasText: text }).first().waitFor();
    }
    await screenshot(page, 'backoffice-statement-en-1366');
    const html = await (await api(`/api/vendors/${vendorId}/statement?${thisMonth}&format=html&lang=en`)).text();
    await statementAccessible(html, 'the statement (en)');
    assert.equal(await printToPdf(page.context(), html, 'statement-en'), 1, 'one A4 page in English');
    await page.locator('#statement-close').click();
  });

  it("prints every vendor's statements of the year as one document, a page per vendor", async () => {
    await page.goto(`${server.url}/backoffice/vendorsummary`);
    await page.locator('#year-statements-button').click();
    await page.locator('#year-statements-year').fill(String(year));
    await page.locator('#year-statements-show').click();
    const frame = page.frameLocator('#year-statements-page');
    await frame.locator('section.sheet').first().waitFor();
    const batch = await json<{ statements: { vendor: { licenseId: string } }[] }>(`/api/statements?year=${year}`);
    assert.deepEqual(
      batch.statements.map((s) => s.vendor.licenseId),
      ['DEMO-1', 'DEMO-2'],
      'the two vendors who sold this year',
    );
    assert.equal(await frame.locator('section.sheet').count(), batch.statements.length, 'one section per vendor');
    await screenshot(page, 'backoffice-year-statements-en-1366');
    const html = await (await api(`/api/statements?year=${year}&format=html`)).text();
    await statementAccessible(html, 'the statements of a year (en)');
    assert.equal(
      await printToPdf(page.context(), html, 'statements-year'),
      batch.statements.length,
      'each vendor on a page of their own',
    );
    await page.locator('#year-statements-close').click();
    await page.locator('#backoffice-language button[value="de"]').click();
    await page.locator('#year-statements-button').click();
    await page.locator('#year-statements-year').fill(String(year));
    await page.locator('#year-statements-show').click();
    await page.frameLocator('#year-statements-page').locator('section.sheet').first().waitFor();
    await statementAccessible(html, 'the statements of a year (de)');
  });

  it('shows the vendor their own statement on /me, and refuses them another vendor’s', async () => {
    const context = await tab.browser.newContext({ viewport: phone, locale: 'de-AT' });
    try {
      const me = await context.newPage();
      await openLoggedIn(me, `${server.url}/me/statements`, 'vendor', 'vendor');
      await me.locator(`#me-statement-${month}`).click();
      const frame = me.frameLocator('#me-statement-page');
      await frame.locator('.statement-licence').filter({ hasText: 'DEMO-1' }).waitFor();
      await frame.getByRole('heading', { name: 'Abrechnung' }).waitFor();
      await expectAccessible(me, '/me statements (de)');
      await screenshot(me, 'me-statements-de-390');
      await me.locator('#me-lang-en').click();
      await me.frameLocator('#me-statement-page').getByRole('heading', { name: 'Statement' }).waitFor();
      await expectAccessible(me, '/me statements (en)');
      await screenshot(me, 'me-statements-en-390');

      const token = await accessToken(me);
      const own = await api(`/api/vendors/me/statement?${thisMonth}`, {}, token);
      assert.equal(own.status, 200);
      for (const id of [otherId, vendorId]) {
        const refused = await api(`/api/vendors/${id}/statement?${thisMonth}`, {}, token);
        assert.equal(refused.status, 403, 'a vendor reads no statement but their own');
      }
    } finally {
      await context.close();
    }
  });
});
