import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import {
  accessToken,
  backofficeTitle,
  logInAtProvider,
  openLoggedIn,
  storedUser,
  useBrowserTab,
} from './admin-login.ts';
import { phone, screenshot, resize } from './browser.ts';
import { librariesIn } from './libraries.ts';
import type { RunningServer } from './server.ts';

// The back office's shell in Chromium with the embedded login —
// loading animation before the login, every route of the specification with its title, sidebar,
// German and English, token refresh and its failure, no login loop on a 401, vendors kept out, and
// the first screen without map or QR code code.
describe('e2e: back-office shell in Chromium', function () {
  this.timeout(180_000);
  const tab = useBrowserTab();
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  beforeEach(() => ({ server, context, page } = tab));

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = (path: string, token: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const title = (pageName: string) => `${DEMO_NEWSPAPER_NAME} | ${pageName}`;

  it('shows only a loading animation before the login, then lands on the vendors after it', async () => {
    // Hold the browser before the provider's page: what is on screen until then is what a visitor sees.
    await page.route('**/oidc/auth?**', (route) => route.abort('aborted'));
    const authorize = page.waitForRequest((request) => new URL(request.url()).pathname === '/oidc/auth');
    await page.goto(url(''));
    const request = new URL((await authorize).url());
    assert.equal(request.searchParams.get('code_challenge_method'), 'S256', 'code + PKCE');
    assert.equal(request.searchParams.get('ui_locales'), 'de', 'the login page in German by default');
    assert.equal(request.searchParams.get('redirect_uri'), url('/auth-callback'));
    await page.locator('[role="progressbar"]').first().waitFor();
    assert.equal(
      await page.locator('#backoffice-logout, #backoffice-user, table').count(),
      0,
      'no menu, no user, no data before the login',
    );
    assert.equal((await page.locator('body').innerText()).trim(), '', 'no text at all, only the animation');
    await screenshot(page, 'backoffice-before-login');

    await page.unroute('**/oidc/auth?**');
    await page.goto(url(''));
    await logInAtProvider(page, 'office', 'office');
    await page.waitForURL(url('/vendorsummary'));
    assert.equal(await backofficeTitle(page, title('Verkäufer·innen')), title('Verkäufer·innen'));
    assert.equal(await page.locator('#backoffice-user').textContent(), 'office ist angemeldet');
    const menu = await page.locator('.RaMenu-open a, .RaMenu-open li').allTextContents();
    assert.deepEqual(menu.map((text) => text.trim()).filter(Boolean), [
      'Heute',
      'Verkäufer·innen',
      'Guthaben',
      'Auszahlungen',
      'Theke',
      'Kassenbuch',
      'Verkäufe',
      'Buchhaltung',
      'Summen und Salden',
      'Stripe-Abgleich',
      'Produkte',
      'Einstellungen',
      'QR-Codes',
      'Karte',
      'Statistik',
      'Bestellungen',
      'Protokoll',
      'Postausgang',
      'Gesperrte Anmeldungen',
      'Webhooks',
      'Abmelden',
    ]);
    assert.equal(
      await page.locator('header.MuiAppBar-root').evaluate((bar) => getComputedStyle(bar).backgroundColor),
      'rgb(200, 16, 46)',
      'the app bar in the newspaper’s colour',
    );
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as {
      favicon: string | null;
      logo: string;
    };
    assert.ok(settings.logo.startsWith('/files/'), 'the demo newspaper has a logo of its own');
    assert.equal(
      await page.locator('link[rel="icon"]').getAttribute('href'),
      settings.favicon ?? settings.logo,
      'the favicon from the settings (its logo while it has no favicon)',
    );
  });

  it('opens every back-office route of the specification with the title "<newspaper> | <page>"', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    const token = await accessToken(page);
    const items = (await (await api('/api/items/backoffice?range=[0,0]', token)).json()) as { id: number }[];
    const vendors = (await (await api('/api/vendors?filter={"q":"DEMO-1"}&range=[0,0]', token)).json()) as {
      id: number;
    }[];
    const routes: [path: string, page: string, shot: string][] = [
      ['', 'Verkäufer·innen', 'backoffice-vendors'],
      ['/vendorsummary', 'Verkäufer·innen', 'backoffice-vendors'],
      ['/newvendor', 'Verkäufer·in anlegen', 'backoffice-new-vendor'],
      [`/userprofile/${vendors[0].id}`, 'Profil (Verkäufer·in)', 'backoffice-vendor-profile'],
      [`/userprofile/${vendors[0].id}/update`, 'Verkäufer·in bearbeiten', 'backoffice-vendor-edit'],
      ['/credits', 'Offene Guthaben', 'backoffice-credits'],
      [`/credits/payout/${vendors[0].id}`, 'Auszahlung', 'backoffice-payout'],
      ['/payouts', 'Auszahlungen', 'backoffice-payouts'],
      ['/sales', 'Verkäufe', 'backoffice-sales'],
      ['/payments', 'Buchhaltung', 'backoffice-accounting'],
      ['/productsettings', 'Produkte', 'backoffice-products'],
      ['/newproduct', 'Neues Produkt', 'backoffice-new-product'],
      [`/productsettings/update/${items[0].id}`, 'Produkt bearbeiten', 'backoffice-product-edit'],
      ['/settings/update', 'Einstellungen', 'backoffice-settings'],
      ['/map', 'Karte', 'backoffice-map'],
      ['/statistics', 'Statistik', 'backoffice-statistics'],
    ];
    for (const [path, pageName, shot] of routes) {
      await page.goto(url(path));
      await page.locator('#backoffice-page-title').filter({ hasText: pageName }).waitFor();
      assert.equal(await backofficeTitle(page, title(pageName)), title(pageName), path);
      if (path === '')
        assert.equal(new URL(page.url()).pathname, '/backoffice/vendorsummary', '/backoffice leads to the vendors');
      await screenshot(page, `${shot}-1280`);
    }
    await resize(page, phone);
    for (const [path, pageName, shot] of routes.filter(([path]) => ['/vendorsummary', '/newvendor'].includes(path))) {
      await page.goto(url(path));
      await page.locator('#backoffice-page-title').filter({ hasText: pageName }).waitFor();
      await screenshot(page, `${shot}-390`);
    }
  });

  it('switches between German and English and remembers the choice', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    await page.locator('#backoffice-user').waitFor();
    await page.locator('#backoffice-language button[value="en"]').click();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Vendors' }).waitFor();
    assert.equal(await backofficeTitle(page, title('Vendors')), title('Vendors'));
    assert.equal(await page.locator('#backoffice-user').textContent(), 'office is logged in');
    assert.ok(await page.getByRole('columnheader', { name: 'Licence ID' }).isVisible());

    await page.reload();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Vendors' }).waitFor();
    assert.equal(
      await page.locator('#backoffice-user').textContent(),
      'office is logged in',
      'still English after a reload',
    );
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await screenshot(page, 'backoffice-vendors-en-1280');

    await page.locator('#backoffice-language button[value="de"]').click();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Verkäufer' }).waitFor();
    assert.equal(await page.locator('#backoffice-user').textContent(), 'office ist angemeldet');
  });

  it('loads no map and no QR code library on the first screen, only where they are used', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    const scripts: Response[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response);
    });
    /** The bodies of the scripts seen since the last call. */
    const takeScripts = () =>
      Promise.all(
        scripts
          .splice(0)
          .map(async (response) => ({ url: response.url(), body: (await response.body()).toString('utf8') })),
      );
    const leaflet = (body: string) => librariesIn(body).includes('leaflet');
    await page.reload();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Verkäufer' }).waitFor();
    await page.locator('table tbody tr').first().waitFor();
    const firstScreen = await takeScripts();
    assert.ok(firstScreen.length >= 1, 'the back office’s scripts were seen');
    for (const { url: scriptUrl, body } of firstScreen) {
      const heavy = librariesIn(body).filter((library) =>
        ['leaflet', 'leaflet.markercluster', 'qr-code-styling'].includes(library),
      );
      assert.deepEqual(heavy, [], scriptUrl);
    }
    const gzipKb = firstScreen.reduce((sum, { body }) => sum + gzipSync(body).length, 0) / 1024;
    console.log(`      back office first screen: ${firstScreen.length} scripts, ${gzipKb.toFixed(1)} KB gzip JS`);

    // The map comes with the location editor, in whichever chunk the bundler put leaflet.
    const vendor = (await (await api('/api/vendors?range=[0,0]', await accessToken(page))).json()) as { id: number }[];
    await page.goto(url(`/userprofile/${vendor[0].id}/update`));
    await page.locator('#location-add').waitFor();
    assert.ok(!(await takeScripts()).some(({ body }) => leaflet(body)), 'no leaflet before the location editor opens');
    await page.locator('#location-add').click();
    await page.locator('#location-map .leaflet-marker-icon').waitFor();
    assert.ok(
      (await takeScripts()).some(({ body }) => leaflet(body)),
      'leaflet came with the location editor',
    );
  });

  it('sends a vendor’s login to /me: the back office and its API stay closed to vendors', async () => {
    await page.goto(url('/vendorsummary'));
    await logInAtProvider(page, 'vendor', 'vendor');
    await page.waitForURL(`${server.url}/me`);
    await page.locator('#me-credit-amount').waitFor();
    assert.equal(await page.locator('#backoffice-user').count(), 0);
    const token = await accessToken(page);
    for (const path of ['/api/vendors', '/api/items/backoffice', '/api/vendors/1']) {
      assert.equal((await api(path, token)).status, 403, `${path} refuses the vendor`);
    }
    // Straight to a back-office screen: sent to /me again, nothing of the back office shows.
    await page.goto(url('/settings/update'));
    await page.waitForURL(`${server.url}/me`);
    assert.equal(await page.locator('#backoffice-page-title').count(), 0);
  });

  it('starts one new login on a 401 from the API, and says so instead of looping when it comes again', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    await page.locator('table tbody tr').first().waitFor();
    await page.route('**/api/vendors?**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Please log in.' }),
      }),
    );
    let logins = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/oidc/auth') logins++;
    });
    await page.reload();
    await page.getByText('Der Server lehnt Ihre Anmeldung auch nach erneutem Anmelden ab', { exact: false }).waitFor();
    assert.equal(logins, 1, 'exactly one new login');
    assert.equal(new URL(page.url()).pathname, '/backoffice/vendorsummary', 'back where the staff member was');
    await screenshot(page, 'backoffice-login-refused');
  });

  it('renews the access token with the refresh token shortly before it expires', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    await page.locator('table tbody tr').first().waitFor();
    const before = await storedUser(page);
    // 50 s left: under the 100 s threshold, so the renewal starts at once after the reload.
    await storedUser(page, { expires_at: Math.floor(Date.now() / 1000) + 50 });
    const refresh = page.waitForRequest(
      (request) => request.url().endsWith('/oidc/token') && /grant_type=refresh_token/.test(request.postData() ?? ''),
    );
    await page.reload();
    const answer = await (await refresh).response();
    assert.equal(answer?.status(), 200);
    await page.waitForFunction((old) => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
      return key && JSON.parse(sessionStorage.getItem(key)!).access_token !== old;
    }, before.access_token);
    assert.equal(new URL(page.url()).pathname, '/backoffice/vendorsummary', 'the staff member stays where they are');
  });

  it('logs out when the refresh is refused, and the login page asks again', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    await page.locator('table tbody tr').first().waitFor();
    // End the login session elsewhere (another tab), so the provider refuses the refresh token.
    const { id_token } = await storedUser(page);
    const other = await context.newPage();
    const end = new URLSearchParams({ id_token_hint: id_token, post_logout_redirect_uri: url('') });
    await other.goto(`${server.url}/oidc/session/end?${end}`);
    await other.waitForURL((current) => current.pathname.startsWith('/oidc/interaction/'));
    await other.close();

    await storedUser(page, { expires_at: Math.floor(Date.now() / 1000) + 50 });
    const refused = page.waitForResponse(
      (response) => response.url().endsWith('/oidc/token') && response.status() === 400,
    );
    await page.reload();
    await refused;
    await page.waitForURL((current) => current.pathname.startsWith('/oidc/interaction/'));
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Anmelden');
    assert.equal(
      await page.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('oidc.user:'))),
      false,
      'the token is cleared',
    );
  });

  it('logs out from the sidebar: the session ends and the login page asks for the password again', async () => {
    await openLoggedIn(page, url('/vendorsummary'), 'office', 'office');
    await page.locator('#backoffice-logout').click();
    await page.waitForURL((current) => current.pathname.startsWith('/oidc/interaction/'));
    assert.equal(await page.getByLabel('Passwort').inputValue(), '');
  });
});
