import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page, Response } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { accessToken, backofficeTitle, useBrowserTab } from './admin-login.ts';
import { phone, screenshot, resize } from './browser.ts';
import { librariesIn } from './libraries.ts';
import { buyInShop } from './purchase.ts';
import type { RunningServer } from './server.ts';

// the back office's overview screens in Chromium — statistics show a purchase made in the
// shop, the map shows the demo vendors, orders can be checked with Stripe and
// refunded, the protocol shows a vendor change, the outbox the digital edition's mail; and the first
// screen loads none of the map or chart code. The tests run in order on one purchase.
describe('e2e: overview screens of the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${await accessToken(page)}`,
        'Content-Type': 'application/json',
        ...init.headers,
      },
    });
  const title = (pageName: string) => `${DEMO_NEWSPAPER_NAME} | ${pageName}`;
  const open = async (path: string, pageName: string) => {
    await page.goto(url(path));
    await page.locator('#backoffice-page-title').filter({ hasText: pageName }).waitFor();
    assert.equal(await backofficeTitle(page, title(pageName)), title(pageName), path);
  };

  /** Phone width, freshly loaded: the sidebar, open at desktop width, would otherwise stay over the screen. */
  const toPhone = async () => {
    await resize(page, phone);
    await page.reload();
  };

  /** A customer's purchase in the shop: two digital editions (mailed as PDF links) and a tip, paid in the sandbox. */
  let order: { token: string; id: number; amount: number };
  async function buyDigitalEditions() {
    const items = (await (await fetch(`${server.url}/api/items`)).json()) as { id: number; name: string }[];
    const digital = items.find((item) => item.name === 'Digitale Ausgabe')!;
    const token = await buyInShop(server.url, {
      vendor: 'DEMO-3',
      entries: [{ item: digital.id, quantity: 2 }],
      tip: 150,
      email: 'reader@example.org',
      locale: 'de',
    });
    const [paid] = (await (
      await api(`/api/orders?filter=${encodeURIComponent('{"status":"paid"}')}&range=[0,0]`)
    ).json()) as { id: number; status: string; amountTotal: number }[];
    assert.equal(paid?.amountTotal, 750, 'the purchase is paid: 2 × 3,00 € and 1,50 € tip');
    order = { token, id: paid.id, amount: paid.amountTotal };
  }

  it('loads no map and no chart code on the first screen, and each only on its own screen', async () => {
    const scripts: Response[] = [];
    const collect = (response: Response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    };
    page.on('response', collect);
    await page.reload();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Verkäufer' }).waitFor();
    await page.locator('table tbody tr').first().waitFor();
    const firstScreen = await Promise.all(
      scripts.map(async (response) => ({ url: response.url(), body: (await response.body()).toString() })),
    );
    assert.ok(firstScreen.length >= 1, 'the back office’s scripts were seen');
    const heavy = (body: string) => {
      const libraries = librariesIn(body);
      return {
        map: libraries.includes('leaflet') || libraries.includes('leaflet.markercluster'),
        chart: libraries.includes('chart'),
      };
    };
    for (const script of firstScreen) assert.deepEqual(heavy(script.body), { map: false, chart: false }, script.url);

    // The markers above are real: the same check finds the code once its screen is open.
    scripts.length = 0;
    await page.getByRole('menuitem', { name: 'Statistik' }).click();
    await page.locator('#statistics-vendors').waitFor();
    await page.getByRole('menuitem', { name: 'Karte' }).click();
    await page.locator('#vendor-map .leaflet-marker-icon').first().waitFor();
    page.off('response', collect);
    const later = await Promise.all(scripts.map(async (response) => heavy((await response.body()).toString())));
    assert.ok(
      later.some((script) => script.chart),
      'the chart code came with the statistics',
    );
    assert.ok(
      later.some((script) => script.map),
      'leaflet and its clusters came with the map',
    );
  });

  it('shows a purchase made in the shop in the statistics, with vendor activity and a CSV', async () => {
    await open('/statistics', 'Statistik');
    await page.locator('#statistics-vendors').waitFor();
    const before = await page.locator('#statistics-vendors').innerText();
    assert.match(
      before,
      /^0 von \d+ Verkäuferinnen und Verkäufern haben in diesem Zeitraum verkauft \(0 %\)$/,
      'the fresh demo has no sales yet',
    );
    assert.equal(
      await page.locator('#statistics-period input').first().inputValue(),
      'last30',
      'the last 30 days by default',
    );
    assert.equal(await page.locator('#statistics-empty').innerText(), 'In diesem Zeitraum wurde nichts verkauft.');

    await buyDigitalEditions();
    await page.reload();
    await page.locator('#statistics-items').waitFor();
    const rows = await page.locator('#statistics-items tbody tr').allInnerTexts();
    const cells = rows.map((row) => row.split('\t').map((cell) => cell.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(cells, [
      ['Digitale Ausgabe', '2', '6,00 €'],
      ['Trinkgeld und Spenden', '', '1,50 €'],
      ['Summe', '', '7,50 €'],
    ]);
    assert.match(
      await page.locator('#statistics-vendors').innerText(),
      /^1 von (\d+) Verkäuferinnen und Verkäufern haben in diesem Zeitraum verkauft \(\d+(,\d)? %\)$/,
    );
    assert.equal(await page.locator('.chart-items rect').count(), 2, 'one bar per row');
    // The day fields show the app's German days (dd.mm.yyyy), whatever the browser's language.
    const [from, to] = await Promise.all(['#period-from', '#period-to'].map((id) => page.locator(id).inputValue()));
    const isoOf = (day: string) => day.replace(/^(\d{2})\.(\d{2})\.(\d{4})$/, '$3-$2-$1');
    const days = (Date.parse(isoOf(to)) - Date.parse(isoOf(from))) / 86_400_000 + 1;
    assert.equal(days, 30, `the last 30 days: ${from} to ${to}`);
    assert.equal(await page.locator('.chart-series rect').count(), days, `one column per day from ${from} to ${to}`);
    assert.equal(await page.locator('.chart-series rect[height="0"]').count(), days - 1, 'only today has sales');

    const download = page.waitForEvent('download');
    await page.locator('#statistics-csv').click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8');
    assert.ok(csv.includes('"Digitale Ausgabe";"2";"6,00"'), csv);
    await screenshot(page, 'backoffice-statistics-1280');

    // A period without the purchase: last month.
    await page.locator('#statistics-period [role="combobox"]').click();
    await page.getByRole('option', { name: 'Letzter Monat' }).click();
    await page.locator('#statistics-empty').waitFor();
    await toPhone();
    await page.locator('#statistics-items').waitFor();
    await screenshot(page, 'backoffice-statistics-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('shows the demo vendors on the map in clusters, with a popup that links to the profile and zoom buttons in German', async () => {
    const map = (await (await api('/api/map')).json()) as {
      vendors: { id: number; licenseId: string; locations: unknown[] }[];
    };
    const locations = map.vendors.reduce((sum, vendor) => sum + vendor.locations.length, 0);
    assert.ok(locations > 10, `the demo has vendors with locations (${locations})`);
    await open('/map', 'Karte');
    await page.locator('#vendor-map .leaflet-marker-icon').first().waitFor();
    assert.match(await page.locator('#map-summary').innerText(), new RegExp(`an ${locations} Standorten$`));
    // Leaflet's own zoom buttons speak English; ours are named in the screen's language.
    await page.getByRole('button', { name: 'Vergrößern' }).waitFor();
    await page.getByRole('button', { name: 'Verkleinern' }).waitFor();
    // Without internet no tile loads (Chromium here is offline); the markers are drawn all the same.
    const shown = await page.evaluate(() => {
      const clusters = [...document.querySelectorAll('#vendor-map .marker-cluster')].map((icon) =>
        Number(icon.textContent),
      );
      const single = document.querySelectorAll('#vendor-map .leaflet-marker-icon:not(.marker-cluster)').length;
      return { clusters, single };
    });
    assert.ok(shown.clusters.length > 0, 'vendors at the same corner are clustered');
    assert.equal(
      shown.clusters.reduce((sum, n) => sum + n, 0) + shown.single,
      locations,
      'every location is on the map',
    );
    await screenshot(page, 'backoffice-map-1280');

    // A marker clicked while the map still changes can be replaced or moved, its popup with it: under
    // CI's load the popup did not show. At rest means no animation (Leaflet and its cluster layer mark
    // the map pane while they zoom or spread a cluster out) and no marker added, removed or moved for
    // half a second.
    await page.evaluate(() => {
      const markers = document.querySelector('#vendor-map .leaflet-marker-pane')!;
      const map = window as unknown as { markersChangedAt: number };
      map.markersChangedAt = performance.now();
      new MutationObserver(() => (map.markersChangedAt = performance.now())).observe(markers, {
        childList: true,
        subtree: true,
        attributes: true,
      });
    });
    const mapAtRest = () =>
      page.waitForFunction(() => {
        const pane = document.querySelector('#vendor-map .leaflet-map-pane');
        const { markersChangedAt } = window as unknown as { markersChangedAt: number };
        return (
          pane !== null &&
          !/leaflet-(zoom|cluster)-anim/.test(pane.className) &&
          performance.now() - markersChangedAt > 500
        );
      });
    // Open clusters until a single vendor's marker shows, then its popup.
    const single = page.locator('#vendor-map .leaflet-marker-icon:not(.marker-cluster)');
    for (let tries = 0; tries < 8 && (await single.count()) === 0; tries++) {
      const icons = await page.locator('#vendor-map .leaflet-marker-icon').count();
      await page.locator('#vendor-map .marker-cluster').first().click();
      // Zoomed in or spread out: the icons on the map change.
      await page.waitForFunction(
        (before) => document.querySelectorAll('#vendor-map .leaflet-marker-icon').length !== before,
        icons,
      );
      await mapAtRest();
    }
    await mapAtRest();
    const marker = single.first();
    const markerTitle = (await marker.getAttribute('title'))!;
    await marker.click();
    const link = page.locator('.leaflet-popup .map-vendor-link');
    await link.waitFor();
    assert.equal(await link.innerText(), 'Zum Profil');
    assert.ok(
      (await page.locator('.leaflet-popup').innerText()).includes(`(${markerTitle.split(' ')[0]})`),
      'the popup names the vendor',
    );
    await link.click();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Profil (Verkäufer·in)' }).waitFor();
    const vendor = map.vendors.find((v) => v.licenseId === markerTitle.split(' ')[0])!;
    assert.equal(new URL(page.url()).pathname, `/backoffice/userprofile/${vendor.id}`);

    await resize(page, phone);
    await open('/map', 'Karte');
    await page.locator('#vendor-map .leaflet-marker-icon').first().waitFor();
    await screenshot(page, 'backoffice-map-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('lists open orders and checks one with Stripe; refunds a paid one after a confirmation', async () => {
    const items = (await (await fetch(`${server.url}/api/items`)).json()) as { id: number; name: string }[];
    const placed = await fetch(`${server.url}/api/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        vendor: 'DEMO-5',
        entries: [{ item: items.find((item) => item.name === 'Zeitung')!.id, quantity: 1 }],
        tip: 0,
        locale: 'de',
      }),
    });
    assert.equal(placed.status, 201);
    const [pending] = (await (
      await api(`/api/orders?filter=${encodeURIComponent('{"status":"pending"}')}&range=[0,0]`)
    ).json()) as { id: number }[];

    await open('/orders', 'Bestellungen');
    const row = page
      .locator('table tbody tr')
      .filter({ has: page.locator('td', { hasText: new RegExp(`^${pending.id}$`) }) });
    await row.waitFor();
    assert.equal(
      await page.locator('table tbody tr').count(),
      1,
      'the paid order is not among the open and flagged ones',
    );
    assert.equal(await row.locator('.order-status-pending').innerText(), 'Offen');
    assert.ok((await row.innerText()).includes('DEMO-5'), 'the vendor is named');
    await screenshot(page, 'backoffice-orders-1280');
    await row.getByRole('button', { name: 'Jetzt bei Stripe prüfen' }).click();
    // Not paid at Stripe: still open, and the answer says so.
    await page
      .locator('.MuiSnackbar-root')
      .filter({ hasText: `Bestellung ${pending.id} ist jetzt: Offen` })
      .waitFor();

    // The paid purchase: shown with the "paid" filter, refunded only after the confirmation.
    await page.goto(url(`/orders?filter=${encodeURIComponent('{"status":["paid"]}')}`));
    const paidRow = page.locator('table tbody tr').filter({ has: page.locator('.order-status-paid') });
    await paidRow.waitFor();
    await paidRow.getByRole('button', { name: 'Erstatten' }).click();
    const dialog = page.getByRole('dialog');
    assert.match(
      await dialog.innerText(),
      new RegExp(`Bestellung ${order.id} erstatten\\?[\\s\\S]*7,50\\s€ gehen über Stripe`),
    );
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    assert.equal(
      (await (await fetch(`${server.url}/api/orders/${order.token}`)).json()).status,
      'paid',
      'cancelled: nothing happened',
    );
    await paidRow.getByRole('button', { name: 'Erstatten' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Erstatten' }).click();
    await page
      .locator('.MuiSnackbar-root')
      .filter({ hasText: `Bestellung ${order.id} wurde erstattet` })
      .waitFor();
    assert.equal((await (await fetch(`${server.url}/api/orders/${order.token}`)).json()).status, 'refunded');

    await resize(page, phone);
    await open(`/orders?filter=${encodeURIComponent('{}')}`, 'Bestellungen');
    await page.locator('table tbody tr').first().waitFor();
    await screenshot(page, 'backoffice-orders-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('shows a vendor change in the protocol: who, which record, the field before → after', async () => {
    const [vendor] = (await (
      await api(`/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-7"}')}&range=[0,0]`)
    ).json()) as { id: number; firstName: string; lastName: string; telephone: string | null }[];
    const changed = await api(`/api/vendors/${vendor.id}`, {
      method: 'PUT',
      body: JSON.stringify({ ...vendor, telephone: '+43 660 1234567' }),
    });
    assert.equal(changed.status, 200, await changed.clone().text());

    await open('/protocol', 'Protokoll');
    const entry = page.locator('table tbody tr').first();
    await entry.locator('.protocol-changes').waitFor();
    const text = await entry.innerText();
    assert.ok(text.includes('office'), text);
    // In words: what was done to whom (the vendor's name and licence ID), the field's label, before → after.
    assert.ok(text.includes(`Geändert: ${vendor.firstName} ${vendor.lastName} (DEMO-7)`), text);
    assert.ok(text.includes(`Telefon: ${vendor.telephone || 'leer'} → +43 660 1234567`), text);
    await screenshot(page, 'backoffice-protocol-1280');

    await resize(page, phone);
    await open('/protocol', 'Protokoll');
    await page.locator('.protocol-changes').first().waitFor();
    await screenshot(page, 'backoffice-protocol-390');
    await resize(page, { width: 1280, height: 900 });
    await open('/protocol', 'Protokoll');

    // Filtered by another user: nothing of office's.
    await page.getByRole('textbox', { name: 'Benutzer' }).fill('nobody');
    await page.getByText('Noch keine Einträge für diese Auswahl.').waitFor();
  });

  it('shows the mail with the digital edition’s PDF links in the outbox', async () => {
    await open('/outbox', 'Postausgang');
    const mail = page.locator('table tbody tr').filter({ hasText: 'Deine digitale Ausgabe' });
    await mail.waitFor();
    assert.ok((await mail.innerText()).includes('reader@example.org'));
    assert.ok((await mail.innerText()).includes(`Bestellung ${order.id}`));
    await mail.click();
    const text = await page.locator('.mail-text').innerText();
    assert.match(text, new RegExp(`Digitale Ausgabe: ${server.url}/pdf/[A-Za-z0-9_-]{32}`));
    await screenshot(page, 'backoffice-outbox-1280');
    await resize(page, phone);
    await page.reload();
    await page.locator('table tbody tr').first().waitFor();
    await screenshot(page, 'backoffice-outbox-390');
  });
});
