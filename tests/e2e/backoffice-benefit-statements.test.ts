import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { amountToInput, formatAmount } from '../../admin/src/shared/money.ts';
import { eventually } from '../support/orders.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { expectAccessible, seriousViolations } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// The statement of earnings for the job centre in the vendor's statement dialog: this month of a
// vendor who sold, the month table as the API answers it, the gauge, the printable page; German and
// English, axe-checked in the dialog and as the page prints, at 1280 and 390 px; the office sets the
// scheme's limits and the gauge follows.
describe('e2e: statements of earnings for the job centre in the back office', function () {
  this.timeout(300_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  let office = '';
  let vendorId = 0;
  before(() => ({ server, page } = tab));

  const api = (path: string) => fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${office}` } });
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date()).slice(0, 7);

  before(async () => {
    office = await accessToken(page);
    const items = (await (await api('/api/items')).json()) as { id: number; name: string }[];
    await buyInShop(server.url, {
      vendor: 'DEMO-1',
      entries: [{ item: items.find((item) => item.name === 'Zeitung')!.id, quantity: 2 }],
      tip: 100,
    });
    const vendors = (await (
      await api(`/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-1"}')}&range=[0,10]`)
    ).json()) as { id: number; licenseId: string }[];
    vendorId = vendors.find((v) => v.licenseId === 'DEMO-1')!.id;
    await eventually(async () => {
      const answer = (await (
        await api(`/api/vendors/${vendorId}/benefit-statement?from=${month}&to=${month}`)
      ).json()) as {
        months: { sales: number }[];
      };
      return answer.months[0].sales > 0;
    }, 'the sale is booked');
  });

  async function dialogAccessible(label: string) {
    const inDialog = (await seriousViolations(page)).violations.filter((v) =>
      v.targets.some((target) => /MuiDialog|benefit|statement/.test(target)),
    );
    assert.deepEqual(inDialog, [], label);
  }

  /** Opens DEMO-1's statement dialog on the tab for the job centre, this month, with the office reading `lang`. */
  async function openBenefit(lang: 'de' | 'en') {
    await resize(page, { width: 1280, height: 900 });
    await page.goto(`${server.url}/backoffice/userprofile/${vendorId}`);
    await page.locator(`#backoffice-language button[value="${lang}"]`).click();
    await page
      .locator('#vendor-statement-button')
      .filter({ hasText: lang === 'de' ? 'Abrechnung' : 'Statement' })
      .click();
    await page
      .locator('#statement-tab-benefit')
      .filter({ hasText: lang === 'de' ? 'Jobcenter' : 'job centre' })
      .waitFor();
    await page.locator('#statement-tab-benefit').click();
    await shown(6);
    await choose('#benefit-span', lang === 'de' ? 'Monat' : 'Month');
    await shown(1);
    const monthName = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', {
      timeZone: 'UTC',
      month: 'long',
      year: 'numeric',
    }).format(new Date(`${month}-15T12:00:00Z`));
    await choose('#benefit-start', monthName);
  }

  /**
   * Waits until the dialog shows its answer of `months` months: a select opened while the answer is
   * drawn can be drawn again closed.
   */
  const shown = (months: number) =>
    page.waitForFunction(
      (count) => document.querySelectorAll('#benefit-months tr[data-month]').length === count,
      months,
    );

  /** Opens the select `id` and takes its option `name`. */
  async function choose(id: string, name: string) {
    await page.locator(id).click();
    await page.getByRole('option', { name, exact: true }).click();
  }

  for (const lang of ['de', 'en'] as const) {
    it(`shows this month's earnings with the gauge and prints the page (${lang})`, async () => {
      await openBenefit(lang);

      const answer = (await (
        await api(`/api/vendors/${vendorId}/benefit-statement?from=${month}&to=${month}`)
      ).json()) as {
        months: { net: number; tips: number; gauge: { level: string } }[];
      };
      const row = page.locator(`#benefit-months tr[data-month="${month}"]`);
      await row.filter({ hasText: formatAmount(answer.months[0].net, 'EUR', lang) }).waitFor();
      assert.equal(await row.getAttribute('data-gauge'), answer.months[0].gauge.level);
      await row.filter({ hasText: formatAmount(answer.months[0].tips, 'EUR', lang) }).waitFor();
      const frame = page.frameLocator('#benefit-page');
      // The page speaks the vendor's language, whichever the office reads.
      await frame
        .locator('h1')
        .filter({ hasText: /Nachweis der Einnahmen|Statement of earnings/ })
        .waitFor();
      await frame.locator('.benefit-licence').filter({ hasText: 'DEMO-1' }).waitFor();
      await dialogAccessible(`the dialog (${lang})`);
      await screenshot(page, `backoffice-benefit-${lang}-1280`);
      await resize(page, phone);
      await dialogAccessible(`the dialog at 390 px (${lang})`);
      await screenshot(page, `backoffice-benefit-${lang}-390`);

      const html = await (
        await api(`/api/vendors/${vendorId}/benefit-statement?from=${month}&to=${month}&format=html&lang=${lang}`)
      ).text();
      const alone = await page.context().newPage();
      try {
        await alone.setContent(html);
        await expectAccessible(alone, `the printable page (${lang})`);
      } finally {
        await alone.close();
      }
      await page.keyboard.press('Escape');
    });
  }
  it('lets the office set the limits of the benefit scheme, and the gauge follows', async () => {
    await openBenefit('de');
    const answer = (await (
      await api(`/api/vendors/${vendorId}/benefit-statement?from=${month}&to=${month}`)
    ).json()) as { months: { net: number }[] };
    const net = answer.months[0].net;
    const row = page.locator(`#benefit-months tr[data-month="${month}"]`);
    await row.filter({ hasText: formatAmount(net, 'EUR', 'de') }).waitFor();
    await page.locator('#benefit-scheme-button').click();
    await page.locator('#benefit-scheme-key').click();
    await page.getByRole('option', { name: 'Eigene Grenzen' }).click();
    await page.locator('#benefit-band-add').click();
    // A limit at this month's net earnings: the month is at its edge.
    await page.locator('#benefit-band-0-upto').fill(amountToInput(net, 'EUR', 'de'));
    await page.locator('#benefit-band-0-percent').fill('100');
    await dialogAccessible('the benefit scheme dialog');
    await screenshot(page, 'backoffice-benefit-scheme-de-1280');
    await page.locator('#benefit-scheme-save').click();
    await page.locator(`#benefit-months tr[data-month="${month}"][data-gauge="near"]`).waitFor();
    await page.locator('#benefit-warning').waitFor();

    await page.locator('#benefit-scheme-button').click();
    await page.locator('#benefit-scheme-key').click();
    await page.getByRole('option', { name: 'Bürgergeld (Deutschland)' }).click();
    await page.locator('#benefit-scheme-save').click();
    await page.locator('#benefit-scheme-key').waitFor({ state: 'detached' });
    const scheme = (await (await api('/api/settings/benefit-scheme')).json()) as { scheme: string; bands: unknown[] };
    assert.equal(scheme.scheme, 'de-buergergeld');
    assert.equal(scheme.bands.length, 4);
  });
});
