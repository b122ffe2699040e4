import assert from 'node:assert/strict';
import fs from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { exportFiles } from '../../api/src/privacy/export.ts';
import { eventually } from '../support/orders.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// Privacy in the back office: the data export and "Anonymisieren" on the vendor's profile,
// offered only once the credit is zero, with a confirmation that says it is irreversible. The tests
// run in order on one vendor.
describe('e2e: a vendor’s data export and anonymisation in the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const licenseId = 'E2E-17';
  let vendorId: number;

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  const anonymiseButton = () => page.locator('#vendor-anonymise');
  /** A screenshot at phone width, with the sidebar (open at desktop width) closed as a phone shows it. */
  const phoneShot = async (name: string) => {
    await resize(page, phone);
    await page.keyboard.press('Escape');
    await screenshot(page, name);
    await resize(page, { width: 1280, height: 900 });
  };
  const language = async (code: 'de' | 'en') => page.locator(`#backoffice-language button[value="${code}"]`).click();

  before(async () => {
    const created = await api('/api/vendors', {
      method: 'POST',
      body: { licenseId, firstName: 'Ottilie', lastName: 'Privatova', telephone: '+43 660 1717171' },
    });
    assert.equal(created.status, 201, await created.clone().text());
    vendorId = ((await created.json()) as { id: number }).id;
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as { mainItem: { id: number } };
    await buyInShop(server.url, { vendor: licenseId, entries: [{ item: settings.mainItem.id, quantity: 1 }], tip: 0 });
    // The sandbox books the card fee a moment after the payment: the credit is final once it is known.
    await eventually(async () => {
      const orders = (await (await api('/api/orders')).json()) as { vendorId: number; fee: number | null }[];
      return orders.some((order) => order.vendorId === vendorId && order.fee !== null);
    }, 'the card fee is booked');
  });
  /** Waits until nothing loads any more: a language switch reloads the screen's data. */
  const settled = () =>
    eventually(async () => (await page.locator('.MuiCircularProgress-root').count()) === 0, 'the screen has loaded');

  it('with credit open, anonymising is not offered and the profile says why, in German and English', async () => {
    await page.goto(url(`/userprofile/${vendorId}`));
    await page.locator('#vendor-privacy').waitFor();
    assert.equal(await anonymiseButton().isDisabled(), true);
    assert.match(
      await page.locator('#vendor-anonymise-hint').innerText(),
      /erst möglich, wenn das Guthaben null beträgt/,
    );
    await expectAccessible(page, 'the vendor profile with its privacy panel (German)');
    await screenshot(page, 'backoffice-vendor-privacy-blocked-de-1280');
    await language('en');
    await page.locator('#vendor-anonymise-hint').filter({ hasText: 'possible only once the credit is' }).waitFor();
    await settled();
    await expectAccessible(page, 'the vendor profile with its privacy panel (English)');
    await phoneShot('backoffice-vendor-privacy-blocked-en-390');
    await language('de');
  });

  it('downloads the data export as a ZIP with the listed files', async () => {
    const download = page.waitForEvent('download');
    await page.locator('#vendor-export').click();
    const file = await download;
    assert.match(file.suggestedFilename(), /^datenauskunft-E2E-17-\d{4}-\d\d-\d\d\.zip$/);
    const files = unzipSync(new Uint8Array(fs.readFileSync(await file.path())));
    assert.deepEqual(Object.keys(files).sort(), [...exportFiles].sort());
    assert.equal(JSON.parse(strFromU8(files['profile.json'])).lastName, 'Privatova');
  });

  it('after the payout, anonymises with a confirmation that says it cannot be undone', async () => {
    const open = (await (await api(`/api/vendors/${vendorId}`)).json()) as { credit: number };
    const paid = await api('/api/payments/payout/', {
      method: 'POST',
      body: { vendor: licenseId, expectedAmount: open.credit },
    });
    assert.equal(paid.status, 201, await paid.clone().text());
    await page.reload();
    await page.locator('#vendor-anonymise-hint').filter({ hasText: 'Anonymisieren löscht' }).waitFor();
    assert.equal(await anonymiseButton().isDisabled(), false);
    await anonymiseButton().click();
    const dialog = page.getByRole('dialog');
    await dialog.filter({ hasText: 'kann nicht rückgängig gemacht werden' }).waitFor();
    await expectAccessible(page, 'the confirmation of anonymising (German)');
    await screenshot(page, 'backoffice-vendor-anonymise-confirm-de-1280');
    await dialog.getByRole('button', { name: 'Anonymisieren' }).click();
    await page.waitForURL(url('/vendorsummary'));
    await page
      .locator('.MuiSnackbar-root')
      .filter({ hasText: `Gelöscht #${vendorId}` })
      .waitFor();
    assert.equal((await api(`/api/vendors/${vendorId}`)).status, 404, 'the vendor is gone from the back office');
    const again = await api(`/api/vendors/${vendorId}/anonymise`, { method: 'POST' });
    assert.equal(again.status, 409);
  });

  it('shows the confirmation in English too', async () => {
    const created = await api('/api/vendors', { method: 'POST', body: { licenseId: 'E2E-17B', firstName: 'Ada' } });
    const { id } = (await created.json()) as { id: number };
    await page.goto(url(`/userprofile/${id}`));
    await language('en');
    await anonymiseButton().click();
    const dialog = page.getByRole('dialog');
    await dialog.filter({ hasText: 'This cannot be undone' }).waitFor();
    await settled();
    assert.match(await dialog.innerText(), new RegExp(`named "Deleted #${id}"`));
    await expectAccessible(page, 'the confirmation of anonymising (English)');
    await screenshot(page, 'backoffice-vendor-anonymise-confirm-en-1280');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await language('de');
  });
});
