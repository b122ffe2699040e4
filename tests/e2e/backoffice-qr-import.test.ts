import assert from 'node:assert/strict';
import fs from 'node:fs';
import { unzipSync } from 'fflate';
import type { Download, Locator, Page } from 'playwright-core';
import { pngBytes } from '../support/fixtures.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { phone, screenshot, resize } from './browser.ts';
import type { RunningServer } from './server.ts';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

// QR codes (styling with a live preview, one vendor's code, the badge sheet, the ZIP), the
// custom CSS's live preview of the shop, and the CSV import of vendors with per-row errors.
describe('e2e: QR codes, CSS preview and vendor import in the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/settings/qrcode' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async (path: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${await accessToken(page)}` } });
  const field = (label: RegExp | string) => page.getByLabel(label, { exact: typeof label === 'string' });
  const notification = () => page.locator('.MuiSnackbar-root');
  const downloaded = async (download: Download) => fs.readFileSync(await download.path());
  const openVendorQr = async (licenseId: string) => {
    await page.goto(url('/vendorsummary'));
    const row = page
      .locator('table tbody tr')
      .filter({ has: page.locator('td', { hasText: new RegExp(`^${licenseId}$`) }) });
    await row.locator('.vendor-qr').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#vendor-qr-code svg').waitFor();
    return dialog;
  };
  /** The next download; if none comes, the failure says whether the dialog was still open and what the notices said. */
  const downloadOrWhyNot = (dialog: Locator) =>
    page.waitForEvent('download').catch(async (error: Error) => {
      const notices = await notification().allInnerTexts();
      throw new Error(
        `${error.message}; dialog open: ${await dialog.isVisible()}; notices: ${JSON.stringify(notices)}`,
      );
    });

  interface Vendor {
    id: number;
    licenseId: string;
    firstName: string;
    lastName: string;
  }
  const activeVendors = async () =>
    (await (await api('/api/vendors?filter={"isDisabled":false}&range=[0,999]')).json()) as Vendor[];

  it('changes a QR option: the preview follows before saving, and saving stores it', async () => {
    const preview = page.locator('#qr-preview svg');
    await preview.waitFor();
    const before = await preview.innerHTML();
    assert.match(before, /#c8102e/i, 'drawn in the demo’s dot colour');

    await field('Farbe der Punkte').fill('#1565c0');
    await page.waitForFunction(() => /#1565c0/i.test(document.querySelector('#qr-preview svg')?.innerHTML ?? ''));
    const squares = await preview.innerHTML();
    await field('Form der Punkte').click();
    await page.getByRole('option', { name: 'Punkte', exact: true }).click();
    await page.waitForFunction((old) => document.querySelector('#qr-preview svg')?.innerHTML !== old, squares);
    assert.doesNotMatch(await preview.innerHTML(), /#c8102e/i, 'the old colour is gone from the preview');
    assert.doesNotMatch(await preview.innerHTML(), /<image/, 'no logo yet');
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes([0, 0, 0], 16) });
    await field('Logo in der Mitte zeigen').check();
    await page.waitForFunction(() => /<image/.test(document.querySelector('#qr-preview svg')?.innerHTML ?? ''));
    await screenshot(page, 'backoffice-qrcodes-1280');

    await page.getByRole('button', { name: 'Speichern', exact: true }).click();
    await notification().filter({ hasText: 'QR-Code-Einstellungen gespeichert' }).waitFor();
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as {
      qrCodeSettings: Record<string, string>;
      qrCodeEnableLogo: boolean;
      qrCodeLogoImgUrl: string | null;
    };
    assert.deepEqual(
      [settings.qrCodeSettings.dotColor, settings.qrCodeSettings.dotType, settings.qrCodeSettings.errorCorrectionLevel],
      ['#1565c0', 'dots', 'Q'],
    );
    assert.equal(settings.qrCodeEnableLogo, true);
    assert.match(settings.qrCodeLogoImgUrl ?? '', /^\/files\//, 'the logo was uploaded');
    await resize(page, phone);
    await screenshot(page, 'backoffice-qrcodes-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('downloads one vendor’s code from the vendor list as a real PNG', async () => {
    const dialog = await openVendorQr('DEMO-1');
    assert.match(await dialog.innerText(), /\/v\/DEMO-1/);
    await screenshot(page, 'backoffice-vendor-qr-1280');
    const [download] = await Promise.all([
      downloadOrWhyNot(dialog),
      dialog.getByRole('button', { name: 'PNG' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'qr-DEMO-1.png');
    const png = await downloaded(download);
    assert.deepEqual(png.subarray(0, 8), pngSignature, 'a PNG file');
    // Large enough to print a badge (at least 1,000 px).
    assert.deepEqual(pngSize(png), [1200, 1200]);
    // The uploaded logo (black) sits in the middle of the file, as in the preview.
    const middle = await page.evaluate(async (base64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      return [...context.getImageData(bitmap.width / 2, bitmap.height / 2, 1, 1).data];
    }, png.toString('base64'));
    assert.deepEqual(middle, [0, 0, 0, 255], 'the logo in the middle');
    await dialog.getByRole('button', { name: 'Schließen' }).click();
    assert.equal(new URL(page.url()).pathname, '/backoffice/vendorsummary', 'the dialog did not open the profile');
  });

  it('says why a code cannot be made when its logo does not load, instead of waiting in silence', async () => {
    const dialog = await openVendorQr('DEMO-2');
    await page.route('**/files/**', (route) => route.abort('connectionfailed'));
    try {
      await dialog.getByRole('button', { name: 'PNG' }).click();
      await notification()
        .filter({ hasText: 'Der QR-Code konnte nicht erstellt werden: das Logo ist nicht abrufbar' })
        .waitFor({ timeout: 15_000 });
    } finally {
      await page.unroute('**/files/**');
    }
    await dialog.getByRole('button', { name: 'Schließen' }).click();
  });

  it('prints a badge sheet of every active vendor and zips all their codes', async () => {
    const vendors = await activeVendors();
    assert.ok(vendors.length >= 30, `the demo's vendors: ${vendors.length}`);
    await page.goto(url('/settings/qrcode'));
    await page.locator('#qr-badges').click();
    await page.waitForURL(url('/settings/qrcode/badges'));
    const badges = page.locator('.badge');
    await page.waitForFunction((count) => document.querySelectorAll('.badge svg').length === count, vendors.length);
    assert.deepEqual(
      (await badges.evaluateAll((all) => all.map((badge) => badge.getAttribute('data-licence-id')))).sort(),
      vendors.map((v) => v.licenseId).sort(),
    );
    const first = badges.filter({ has: page.locator('.badge-licence', { hasText: /DEMO-1$/ }) });
    assert.match(await first.innerText(), /Straßenblatt Demo/);
    assert.match(await first.innerText(), new RegExp(`${vendors.find((v) => v.licenseId === 'DEMO-1')!.firstName}`));
    assert.equal(await page.locator('nav, .RaSidebar-root').count(), 0, 'a page of its own, without the sidebar');
    await screenshot(page, 'backoffice-badge-sheet-1280');
    await resize(page, phone);
    await screenshot(page, 'backoffice-badge-sheet-390');
    await resize(page, { width: 1280, height: 900 });

    await page.goto(url('/settings/qrcode'));
    await page.locator('#qr-zip:not([disabled])').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.locator('#qr-zip').click(),
    ]);
    assert.equal(download.suggestedFilename(), 'qr-codes.zip');
    const files = unzipSync(new Uint8Array(await downloaded(download)));
    assert.deepEqual(Object.keys(files).sort(), vendors.map((v) => `qr-${v.licenseId}.png`).sort());
    assert.ok(
      Object.values(files).every((png) => Buffer.from(png.subarray(0, 8)).equals(pngSignature)),
      'every entry is a PNG',
    );
  });

  it('shows the edited CSS in the shop preview before saving; saving moves the revision on', async () => {
    await page.goto(url('/settings/update'));
    await page.locator('#settings-css-revision').filter({ hasText: 'Revision 0' }).waitFor();
    const frame = page.frameLocator('#settings-css-preview iframe');
    const title = frame.locator('#shop-landing-title');
    await title.waitFor();
    const colour = () => title.evaluate((element) => getComputedStyle(element).color);
    assert.notEqual(await colour(), 'rgb(0, 128, 0)');
    await page.locator('#settings-css-text').fill('#shop-landing-title { color: rgb(0, 128, 0); }');
    await page.waitForFunction(() => {
      const frameDocument = document.querySelector<HTMLIFrameElement>('#settings-css-preview iframe')?.contentDocument;
      const heading = frameDocument?.getElementById('shop-landing-title');
      return heading && getComputedStyle(heading).color === 'rgb(0, 128, 0)';
    });
    assert.equal(await colour(), 'rgb(0, 128, 0)');
    assert.equal(await (await fetch(`${server.url}/public/style.css`)).text(), '', 'nothing saved yet');
    await page.locator('#settings-css-preview').scrollIntoViewIfNeeded();
    await screenshot(page, 'backoffice-css-preview-1280');

    await page.locator('#settings-css-save').click();
    await page.locator('#settings-css-revision').filter({ hasText: 'Revision 1' }).waitFor();
    assert.equal(
      await (await fetch(`${server.url}/public/style.css?rev=1`)).text(),
      '#shop-landing-title { color: rgb(0, 128, 0); }',
    );
    await resize(page, phone);
    await screenshot(page, 'backoffice-css-preview-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('imports a CSV of three vendors: two created with their passwords, the bad row shows its error', async () => {
    await page.goto(url('/vendorsummary'));
    await page.locator('#vendor-import').click();
    await page.waitForURL(url('/vendorsummary/import'));
    // Semicolons, a BOM and German spreadsheet habits (dd.mm.yyyy, "ja"); row 3 has a broken e-mail.
    const csv = [
      'licenceId;firstName;lastName;email;registrationDate;hasSmartphone',
      'IMP-1;Anna;Berger;;01.03.2024;ja',
      'IMP-2;Bora;Cetin;not-an-email;;nein',
      'IMP-3;"Chris ""CJ""";Dorn;imp3@example.org;2025-01-15;',
    ].join('\r\n');
    await page
      .locator('#import-file')
      .setInputFiles({ name: 'verkaeufer.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`, 'utf8') });
    await page.locator('#import-file-summary').filter({ hasText: 'verkaeufer.csv, 3 Zeilen' }).waitFor();
    assert.equal(await page.locator('#import-preview tbody tr').count(), 3);
    assert.match(await page.locator('#import-preview tbody tr[data-line="4"]').innerText(), /Chris "CJ"/);
    await screenshot(page, 'backoffice-import-preview-1280');

    await page.locator('#import-start').click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Bestätigen/ })
      .click();
    await page.locator('#import-progress').filter({ hasText: '2 angelegt, 1 mit Fehlern' }).waitFor();
    assert.equal(await page.locator('#import-preview tbody tr.import-created').count(), 2);
    const bad = page.locator('#import-preview tbody tr[data-line="3"]');
    assert.match((await bad.getAttribute('class')) ?? '', /import-failed/);
    assert.match(await bad.locator('.import-error').innerText(), /Bitte eine gültige E-Mail-Adresse eingeben\./);

    const logins = page.locator('#import-passwords .import-login');
    assert.equal(await logins.count(), 2);
    assert.match(await logins.nth(0).innerText(), /IMP-1/);
    assert.match(await logins.nth(1).innerText(), /IMP-3/);
    await screenshot(page, 'backoffice-import-done-1280');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#import-download').click()]);
    const file = (await downloaded(download)).toString('utf8');
    assert.match(file, /IMP-1/);
    assert.equal(file.trim().split('\r\n').length, 3, 'a header and the two new logins');

    const stored = (await (await api('/api/vendors?filter={"q":"IMP-"}')).json()) as (Vendor & {
      registrationDate: string;
      hasSmartphone: boolean;
    })[];
    assert.deepEqual(stored.map((v) => v.licenseId).sort(), ['IMP-1', 'IMP-3']);
    const anna = stored.find((v) => v.licenseId === 'IMP-1')!;
    assert.deepEqual([anna.registrationDate, anna.hasSmartphone], ['2024-03-01', true]);
    assert.equal(stored.find((v) => v.licenseId === 'IMP-3')!.firstName, 'Chris "CJ"');
    await resize(page, phone);
    await screenshot(page, 'backoffice-import-done-390');
  });
});
