import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { DEMO_VENDOR_EMAIL_POSTFIX } from '../../seeds/demo.ts';
import { eventually } from '../support/orders.ts';
import { accessToken, logInAtProvider, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { animationsDone, coveredWhileTabbing, phone, reachableAtEnd, screenshot, resize } from './browser.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// vendors in the back office, as office staff use them — create (with the new login's
// one-time password), edit with a refusal shown at the field, deactivate, locations
// with the map, comments, delete with confirmation. The tests run in order on one vendor.
describe('e2e: vendors in the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  before(() => ({ server, browser, page } = tab));

  const licenseId = 'E2E-7';
  let vendorId: number;
  let oneTimePassword: string;

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async (path: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${await accessToken(page)}` } });
  const field = (label: RegExp | string) => page.getByLabel(label, { exact: typeof label === 'string' });
  /** The message under a field (react-admin puts the server's there). */
  const fieldMessage = (label: RegExp | string) =>
    page
      .locator('.MuiFormControl-root')
      .filter({ has: field(label) })
      .locator('.MuiFormHelperText-root');
  const notification = () => page.locator('.MuiSnackbar-root');
  const save = () => page.getByRole('button', { name: 'Speichern' }).click();

  it('creates a vendor: the e-mail follows the licence ID, a taken licence ID is refused at the field', async () => {
    await page.goto(url('/newvendor'));
    await field(/^Ausweisnummer/).fill('DEMO-2');
    await eventually(
      async () => (await field('E-Mail').inputValue()) === `DEMO-2${DEMO_VENDOR_EMAIL_POSTFIX}`,
      'the e-mail is made from the licence ID',
    );
    await field(/^Vorname/).fill('Erika');
    await field('Nachname').fill('Muster');
    await save();
    await fieldMessage(/^Ausweisnummer/)
      .filter({ hasText: 'Diese Ausweisnummer ist bereits vergeben.' })
      .waitFor();
    assert.match(
      await notification().innerText(),
      /bereits an eine andere Verkäuferin oder einen anderen Verkäufer vergeben/,
    );
    assert.equal(await page.getByRole('dialog').count(), 0, 'no login was made');
    assert.equal(new URL(page.url()).pathname, '/backoffice/newvendor');

    await field(/^Ausweisnummer/).fill(licenseId);
    // The e-mail follows in the next frame (an effect of the form), not in the same event.
    await eventually(
      async () => (await field('E-Mail').inputValue()) === `${licenseId}${DEMO_VENDOR_EMAIL_POSTFIX}`,
      'the e-mail follows the licence ID',
    );
    await save();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    assert.equal(await dialog.locator('#vendor-login-username').textContent(), licenseId);
    oneTimePassword = (await dialog.locator('#vendor-login-password').textContent()) ?? '';
    assert.ok(oneTimePassword.length >= 8, 'a one-time password is shown');
    // The dialog fades in: the picture is of it once it is fully there.
    await animationsDone(page);
    await screenshot(page, 'backoffice-vendor-created-1280');
    await dialog.getByRole('button', { name: 'Notiert, weiter' }).click();
    await page.waitForURL(/\/backoffice\/userprofile\/\d+$/);
    vendorId = Number(/userprofile\/(\d+)/.exec(page.url())![1]);
    await page
      .locator('#vendor-profile-name')
      .filter({ hasText: `${licenseId} · Erika Muster` })
      .waitFor();

    await page.reload();
    await page.locator('#vendor-profile-name').waitFor();
    assert.equal(await page.locator('#vendor-login-password').count(), 0, 'the password is never shown again');
  });

  it('gives the new vendor a login that opens /me with the one-time password', async () => {
    const vendorContext = await browser.newContext({ viewport: phone, locale: 'de-AT' });
    const vendorPage = await vendorContext.newPage();
    await vendorPage.goto(`${server.url}/me`);
    await logInAtProvider(vendorPage, licenseId, oneTimePassword);
    await vendorPage.locator('#me-credit-amount').waitFor();
    assert.match(await vendorPage.locator('#me-title').innerText(), /Erika/);
    await vendorContext.close();
  });

  it('edits the vendor: a refusal shows at the field and never as saved, then the change is saved', async () => {
    await page.goto(url(`/userprofile/${vendorId}/update`));
    await field(/^Ausweisnummer/).fill('DEMO-2');
    await save();
    await fieldMessage(/^Ausweisnummer/)
      .filter({ hasText: 'Diese Ausweisnummer ist bereits vergeben.' })
      .waitFor();
    assert.doesNotMatch(await notification().innerText(), /aktualisiert/, 'no success notice');
    assert.equal(new URL(page.url()).pathname, `/backoffice/userprofile/${vendorId}/update`);
    await screenshot(page, 'backoffice-vendor-edit-refused-1280');

    await field(/^Ausweisnummer/).fill(licenseId);
    await field('Nachname').fill('Musterfrau');
    await save();
    await page.waitForURL(url(`/userprofile/${vendorId}`));
    await page.locator('#vendor-profile-name').filter({ hasText: 'Erika Musterfrau' }).waitFor();
    // The refusal's notice may still be showing; the success notice follows it.
    await notification().filter({ hasText: 'Element wurde aktualisiert' }).waitFor();
    const stored = (await (await api(`/api/vendors/${vendorId}`)).json()) as { lastName: string; licenseId: string };
    assert.deepEqual([stored.licenseId, stored.lastName], [licenseId, 'Musterfrau']);
  });

  it('lists, searches and exports the vendors, the new one included', async () => {
    await page.goto(url('/vendorsummary'));
    await page.getByPlaceholder('Suchen').fill('Musterfrau');
    await page.getByRole('cell', { name: licenseId, exact: true }).waitFor();
    assert.equal(await page.locator('table tbody tr').count(), 1, 'the search finds only her');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportieren' }).click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8');
    const [header, ...rows] = csv.trimEnd().split('\r\n');
    assert.equal(header, '\uFEFF"Lizenznummer";"Vorname";"Nachname";"E-Mail";"Telefon";"Guthaben";"Deaktiviert"');
    assert.equal(rows.length, 1, 'only the vendors the search finds');
    assert.match(rows[0], /^"E2E-7";"Erika";"Musterfrau";"E2E-7@demo\.strassenzeitung\.org";"[^"]*";"0,00";"nein"$/);
  });

  it('deactivates the vendor: marked and greyed in the list, unknown to the shop', async () => {
    await page.goto(url(`/userprofile/${vendorId}/update`));
    await page.getByLabel('Deaktiviert').check();
    await save();
    await page.waitForURL(url(`/userprofile/${vendorId}`));
    await page.goto(url('/vendorsummary'));
    await page.getByPlaceholder('Suchen').fill(licenseId);
    const row = page.locator('table tbody tr').filter({ hasText: licenseId });
    await row.locator('.vendor-deactivated').waitFor();
    assert.ok(Number(await row.evaluate((tr) => getComputedStyle(tr).opacity)) < 1, 'greyed out');
    assert.equal(
      (await fetch(`${server.url}/api/vendors/check/${licenseId}`)).status,
      404,
      'the shop no longer knows the ID',
    );
    await screenshot(page, 'backoffice-vendor-deactivated-1280');
  });

  it('adds a location on the map (click, then drag the marker) and changes its working time', async () => {
    await page.goto(url(`/userprofile/${vendorId}/update`));
    await page.locator('#vendor-no-locations').filter({ hasText: 'Noch keine Standorte' }).waitFor();
    await page.locator('#location-add').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Name/).fill('Karlsplatz');
    await dialog.getByLabel('Adresse').fill('Karlsplatz 1');
    await dialog.getByLabel('Vormittags').check();
    const map = dialog.locator('#location-map');
    await map.locator('.leaflet-marker-icon').waitFor();
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.25, box.y + box.height * 0.5);
    await page.waitForFunction(
      () => (document.querySelector('input[name="latitude"]') as HTMLInputElement).value !== '',
    );
    const clicked = Number(await dialog.getByLabel('Längengrad').inputValue());
    assert.ok(Number.isFinite(clicked) && clicked !== 0, 'a click on the map sets the position');

    const marker = (await map.locator('.leaflet-marker-icon').boundingBox())!;
    await page.mouse.move(marker.x + marker.width / 2, marker.y + marker.height - 4);
    await page.mouse.down();
    await page.mouse.move(marker.x + marker.width / 2 + 60, marker.y + marker.height - 4, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(
      (before) => Number((document.querySelector('input[name="longitude"]') as HTMLInputElement).value) !== before,
      clicked,
    );
    const dragged = Number(await dialog.getByLabel('Längengrad').inputValue());
    assert.ok(dragged > clicked, 'dragging the marker east raises the longitude');
    await screenshot(page, 'backoffice-location-map-1280');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.waitFor({ state: 'detached' });

    const item = page.locator('.vendor-location').filter({ hasText: 'Karlsplatz' });
    await item.filter({ hasText: 'Vormittags' }).waitFor();
    const [location] = (await (await api(`/api/vendors/${vendorId}/locations`)).json()) as {
      id: number;
      longitude: number;
      latitude: number;
      workingTime: unknown;
    }[];
    assert.equal(location.longitude, dragged);
    assert.ok(location.latitude > 40 && location.latitude < 60);
    assert.deepEqual(location.workingTime, { kind: 'mornings' });

    await item.getByRole('button', { name: 'Bearbeiten' }).click();
    await page.getByRole('dialog').getByLabel('Nachmittags').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Speichern' }).click();
    await item.filter({ hasText: 'Nachmittags' }).waitFor();
  });

  it('edits a location’s weekly times: weekday, from and to per row; an end before the start is refused at the field', async () => {
    await page.goto(url(`/userprofile/${vendorId}/update`));
    const item = page.locator('.vendor-location').filter({ hasText: 'Karlsplatz' });
    await item.getByRole('button', { name: 'Bearbeiten' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Wochenzeiten').check();
    const rows = dialog.locator('.RaSimpleFormIterator-line');
    await rows.first().waitFor();
    await rows.nth(0).getByLabel('Von').fill('08:00');
    await rows.nth(0).getByLabel('Bis').fill('12:00');
    await dialog.getByRole('button', { name: 'Zeit hinzufügen' }).click();
    await rows.nth(1).getByRole('combobox', { name: 'Wochentag' }).click();
    await page.getByRole('option', { name: 'Mi' }).click();
    await rows.nth(1).getByLabel('Von').fill('14:00');
    await rows.nth(1).getByLabel('Bis').fill('13:00');
    // A row too many goes again with its own button, which a keyboard reaches without a mouse over it.
    await dialog.getByRole('button', { name: 'Zeit hinzufügen' }).click();
    await rows.nth(2).waitFor();
    const removeThird = rows.nth(2).getByRole('button', { name: 'Entfernen' });
    assert.ok(await removeThird.isVisible(), 'the remove button shows without hovering');
    await removeThird.click();
    await rows.nth(2).waitFor({ state: 'detached' });
    await expectAccessible(page, 'the location dialog with weekly times');
    await resize(page, phone);
    await screenshot(page, 'backoffice-location-weekly-390');
    await resize(page, { width: 1280, height: 900 });
    await screenshot(page, 'backoffice-location-weekly-1280');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog
      .locator('.MuiFormHelperText-root')
      .filter({ hasText: /Ende muss nach dem Beginn/ })
      .waitFor();
    await rows.nth(1).getByLabel('Bis').fill('18:00');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await dialog.waitFor({ state: 'detached' });
    await item.filter({ hasText: 'Mo 08:00–12:00, Mi 14:00–18:00' }).waitFor();
    const [location] = (await (await api(`/api/vendors/${vendorId}/locations`)).json()) as { workingTime: unknown }[];
    assert.deepEqual(location.workingTime, {
      kind: 'weekly',
      ranges: [
        { day: 'mon', from: '08:00', to: '12:00' },
        { day: 'wed', from: '14:00', to: '18:00' },
      ],
    });
  });

  it('adds a comment with a warning and resolves it, reached through the list\u2019s quick action', async () => {
    await page.goto(url('/vendorsummary'));
    await page.getByPlaceholder('Suchen').fill('Musterfrau');
    await page.getByRole('row').filter({ hasText: licenseId }).getByRole('link', { name: 'Kommentare' }).click();
    await page.locator('#vendor-no-comments').filter({ hasText: 'Keine Kommentare' }).waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('name')),
      'comment',
      'the comment field is ready to type',
    );
    await page.getByLabel(/^Neuer Kommentar/).fill('Ausweis verloren – neuer ist beantragt.');
    await page.locator('#vendor-comments').getByLabel('Warnung').check();
    await page.locator('#comment-add').click();
    const comment = page.locator('.vendor-comment').filter({ hasText: 'Ausweis verloren' });
    await comment.waitFor();
    assert.match((await comment.getAttribute('class')) ?? '', /vendor-comment-warning/);
    assert.equal(await page.getByLabel(/^Neuer Kommentar/).inputValue(), '', 'the form is empty for the next one');
    await screenshot(page, 'backoffice-vendor-locations-comments-1280');

    await comment.getByRole('button', { name: 'Erledigt' }).click();
    await comment.filter({ hasText: 'Erledigt am' }).waitFor();
    assert.doesNotMatch(
      (await comment.getAttribute('class')) ?? '',
      /vendor-comment-warning/,
      'a resolved warning no longer stands out',
    );
    const [stored] = (await (await api(`/api/vendors/${vendorId}/comments`)).json()) as {
      warning: boolean;
      resolvedAt: string | null;
    }[];
    assert.equal(stored.warning, true);
    assert.ok(stored.resolvedAt);
  });

  it('asks before deleting a warning comment and says it is deleted; comments and locations say who added them when', async () => {
    await page.goto(url(`/userprofile/${vendorId}/update`));
    await page.getByLabel(/^Neuer Kommentar/).fill('Hat Hausverbot bis Ende Mai.');
    await page.locator('#vendor-comments').getByLabel('Warnung').check();
    await page.locator('#comment-add').click();
    const comment = page.locator('.vendor-comment').filter({ hasText: 'Hat Hausverbot' });
    await comment.waitFor();
    // The author as the protocol recorded the comment and the location: the office's login.
    await comment.filter({ hasText: /\d{2}:\d{2} von office/ }).waitFor();
    await page
      .locator('.vendor-location')
      .filter({ hasText: /Angelegt am .+ von office/ })
      .waitFor();

    await comment.getByRole('button', { name: 'Löschen' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.filter({ hasText: 'Warnung löschen?' }).filter({ hasText: 'Hat Hausverbot' }).waitFor();
    await expectAccessible(page, 'the confirmation of deleting a warning comment');
    await confirm.getByRole('button', { name: 'Abbrechen' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal(await comment.count(), 1, 'cancelled: the comment stays');

    await resize(page, phone);
    await comment.getByRole('button', { name: 'Löschen' }).click();
    await confirm.filter({ hasText: 'Warnung löschen?' }).waitFor();
    await screenshot(page, 'backoffice-vendor-comment-delete-390');
    await resize(page, { width: 1280, height: 900 });
    await screenshot(page, 'backoffice-vendor-comment-delete-1280');
    await confirm.getByRole('button', { name: 'Bestätigen' }).click();
    await notification().filter({ hasText: 'Kommentar gelöscht' }).waitFor();
    await comment.waitFor({ state: 'detached' });
    const stored = (await (await api(`/api/vendors/${vendorId}/comments`)).json()) as { comment: string }[];
    assert.ok(!stored.some((each) => each.comment.includes('Hausverbot')), 'deleted on the server');
    await expectAccessible(page, 'the vendor edit page after deleting a comment');
  });

  it('marks vendors with an open warning comment in the list, until the warning is resolved', async () => {
    const token = await accessToken(page);
    const call = (path: string, method: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const demo3 = (
      (await (await api(`/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-3"}')}`)).json()) as {
        id: number;
        licenseId: string;
      }[]
    ).find((vendor) => vendor.licenseId === 'DEMO-3')!;
    const warning = (await (
      await call(`/api/vendors/${demo3.id}/comments`, 'POST', { comment: 'Hat Ausweis verliehen', warning: true })
    ).json()) as { id: number };
    await call(`/api/vendors/${demo3.id}/comments`, 'POST', { comment: 'Nur eine Notiz', warning: false });
    await page.goto(url('/vendorsummary'));
    await page.getByPlaceholder('Suchen').fill('DEMO-3');
    const row = page.locator('table tbody tr').filter({ has: page.getByRole('cell', { name: /DEMO-3$/ }) });
    await row.getByRole('img', { name: '1 offene Warnung' }).waitFor();
    assert.equal(
      await page.locator('table tbody tr').filter({ hasText: 'DEMO-30' }).locator('.vendor-warning').count(),
      0,
      'only the warned vendor is marked',
    );
    await call(`/api/vendors/${demo3.id}/comments/${warning.id}`, 'PATCH', { resolved: true });
    await page.reload();
    await page.locator('table tbody tr').filter({ hasText: 'DEMO-30' }).waitFor();
    assert.equal(await row.locator('.vendor-warning').count(), 0, 'a resolved warning is no longer marked');
  });

  it('deactivates the selected vendors at once, and prints the badges of the selected ones', async () => {
    await page.goto(url(`/vendorsummary?filter=${encodeURIComponent('{"q":"DEMO-2"}')}`));
    const row = (id: string) =>
      page.locator('table tbody tr').filter({ has: page.getByRole('cell', { name: new RegExp(`(^| )${id}$`) }) });
    // DEMO-26 is on the second page until the search applies.
    await row('DEMO-26').waitFor();
    await row('DEMO-25').getByRole('checkbox').check();
    await row('DEMO-26').getByRole('checkbox').check();
    await page.locator('#vendors-badges').click();
    await page.waitForURL(/\/settings\/qrcode\/badges\?ids=/);
    await page.locator('.badge').nth(1).waitFor();
    assert.deepEqual(
      await page
        .locator('.badge')
        .evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-licence-id'))),
      ['DEMO-25', 'DEMO-26'],
    );
    await page.goBack();
    await row('DEMO-26').waitFor();
    if (!(await row('DEMO-25').getByRole('checkbox').isChecked())) {
      await row('DEMO-25').getByRole('checkbox').check();
      await row('DEMO-26').getByRole('checkbox').check();
    }
    await page.locator('#vendors-deactivate').click();
    await notification().filter({ hasText: '2 Verkäuferinnen und Verkäufer deaktiviert' }).waitFor();
    await row('DEMO-25').locator('.vendor-deactivated').waitFor();
    await row('DEMO-26').locator('.vendor-deactivated').waitFor();
    assert.equal(await row('DEMO-24').locator('.vendor-deactivated').count(), 0, 'only the selected ones');
    for (const id of ['DEMO-25', 'DEMO-26'])
      assert.equal((await fetch(`${server.url}/api/vendors/check/${id}`)).status, 404, `${id} is unknown to the shop`);
    assert.equal((await fetch(`${server.url}/api/vendors/check/DEMO-24`)).status, 200);
  });

  it('shows the profile on a phone', async () => {
    await resize(page, phone);
    await page.goto(url(`/userprofile/${vendorId}`));
    await page.locator('#vendor-profile-name').waitFor();
    await screenshot(page, 'backoffice-vendor-profile-390');
    // Editing: the form's save bar stays with the form and never lies over the comments that end the page.
    await page.goto(url(`/userprofile/${vendorId}/update`));
    await page.locator('#vendor-delete').waitFor();
    await page.locator('#comment-add').waitFor();
    await reachableAtEnd(page, '#comment-add');
    // A keyboard user going down the form sees every field the focus reaches, none behind the bar.
    assert.deepEqual(await coveredWhileTabbing(page, 'form'), []);
    // …and follows the last field closely, without the empty band react-admin leaves for a fixed bar.
    const gap = await page.evaluate(() => {
      // At the end of the page the bar is where the form ends, not stuck to the screen.
      const from = window.scrollY;
      window.scrollTo(0, document.documentElement.scrollHeight);
      const bar = document.querySelector('form .RaToolbar-mobileToolbar')!;
      const fields = bar.closest('form')!.querySelectorAll('.ra-input');
      const below = bar.getBoundingClientRect().top - fields[fields.length - 1].getBoundingClientRect().bottom;
      window.scrollTo(0, from);
      return below;
    });
    assert.ok(gap < 48, `the save bar is ${Math.round(gap)} px below the last field`);
    // A location's address and hours end before its edit and delete buttons begin.
    const overlaps = await page.locator('.vendor-location').evaluateAll((items) =>
      items.map((item) => {
        const text = item.querySelector('.MuiListItemText-root')!.getBoundingClientRect();
        const button = item.querySelector('button')!.getBoundingClientRect();
        return Math.round(text.right - button.left);
      }),
    );
    assert.ok(overlaps.length > 0, 'the vendor has a location');
    for (const overlap of overlaps) assert.ok(overlap <= 0, `a location's text runs ${overlap} px under its buttons`);
    await screenshot(page, 'backoffice-vendor-edit-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('deletes the vendor only after confirmation, and does not offer it while the credit is not zero', async () => {
    await page.goto(url(`/userprofile/${vendorId}/update`));
    await page.locator('#vendor-delete').click();
    const confirm = page.getByRole('dialog');
    await confirm.filter({ hasText: new RegExp(`${licenseId}.* löschen\\?`) }).waitFor();
    await confirm.getByRole('button', { name: 'Abbrechen' }).click();
    assert.equal((await api(`/api/vendors/${vendorId}`)).status, 200, 'cancelled: still there');

    // The API refuses while a vendor has credit: DEMO-2 earns some in the shop, and the screen says
    // why before anyone asks, instead of "delete?" and then a refusal.
    const items = (await (await fetch(`${server.url}/api/items`)).json()) as { id: number; name: string }[];
    await buyInShop(server.url, {
      vendor: 'DEMO-2',
      entries: [{ item: items.find((item) => item.name === 'Zeitung')!.id, quantity: 1 }],
      tip: 50,
    });
    const credited = await eventually(async () => {
      const found = (await (await api(`/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-2"}')}`)).json()) as {
        id: number;
        licenseId: string;
        credit: number;
      }[];
      return found.find((vendor) => vendor.licenseId === 'DEMO-2' && vendor.credit > 0);
    }, 'the purchase is booked to DEMO-2');
    await page.goto(url(`/userprofile/${credited.id}/update`));
    const amount = (credited.credit / 100).toFixed(2).replace('.', ',');
    await page
      .locator('#vendor-delete-blocked')
      .filter({ hasText: `solange das Guthaben ${amount}\u00a0€ beträgt` })
      .waitFor();
    assert.equal(await page.locator('#vendor-delete').isDisabled(), true, 'deleting is not offered');
    assert.equal(await page.locator('#vendor-delete').getAttribute('aria-describedby'), 'vendor-delete-blocked');
    assert.equal((await api(`/api/vendors/${credited.id}`)).status, 200, 'refused: DEMO-2 is still there');

    await page.goto(url(`/userprofile/${vendorId}/update`));
    await page.locator('#vendor-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Bestätigen' }).click();
    await page.waitForURL(url('/vendorsummary'));
    await notification().filter({ hasText: 'Element wurde gelöscht' }).waitFor();
    assert.equal((await api(`/api/vendors/${vendorId}`)).status, 404);
  });
});
