import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { authorizeUrl, exchangeCode, pkce, tokenRequest, type Tokens } from '../support/oidc-flow.ts';
import { phone, screenshot } from './browser.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// Acceptance: a browser logs in at the embedded provider with office / office through code + PKCE,
// calls the API with the access token, renews it with the refresh token, and logout ends the session.
describe('e2e: login at the embedded OpenID provider in Chromium', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  // Its own process: the banner it prints at start is under test.
  const e2e = useServerAndBrowser({ ownProcess: true });
  before(async () => {
    ({ server, browser } = e2e);
    page = await (await browser.newContext({ viewport: phone, deviceScaleFactor: 2, locale: 'de-AT' })).newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      // Our pages only: the back office is not what this test is about. A style or script blocked by
      // the page's Content-Security-Policy shows up here.
      if (message.type() === 'error' && new URL(page.url()).pathname.startsWith('/oidc/'))
        problems.push(`${message.text()} ${message.location().url}`);
    });
  });

  const api = (path: string, token: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const heading = () => page.getByRole('heading', { level: 1 }).textContent();

  /** The test plays the back office here: it takes the code from its redirect URI and exchanges it. */
  async function waitForCallback(): Promise<URL> {
    await page.waitForURL((url) => url.pathname === '/backoffice/auth-callback');
    return new URL(page.url());
  }

  it('prints the demo logins at start', () => {
    const out = server.stdout();
    assert.ok(out.includes(`Logins:      embedded OpenID provider at ${server.url}/oidc`), out);
    assert.ok(out.includes('Demo logins: office / office (back office), vendor / vendor (vendor DEMO-1)'), out);
  });

  it('logs in as office / office with code + PKCE, calls the API, refreshes, and logs out', async () => {
    const challenge = pkce();
    await page.goto(authorizeUrl(server.url, { challenge: challenge.challenge, state: 'e2e-state' }));

    // Our own login page, German by default.
    await page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/'));
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await heading(), 'Anmelden');
    assert.equal(await page.title(), `${DEMO_NEWSPAPER_NAME} | Anmelden`);
    assert.equal(await page.locator('header p').textContent(), DEMO_NEWSPAPER_NAME);
    await page.waitForFunction(() => {
      const logo = document.querySelector<HTMLImageElement>('header img');
      return logo?.complete && logo.naturalWidth > 0;
    });
    assert.equal(
      await page
        .getByRole('button', { name: 'Anmelden' })
        .evaluate((button) => getComputedStyle(button).backgroundColor),
      'rgb(200, 16, 46)',
      'the newspaper colour: the inline style is allowed by the page’s CSP',
    );
    await screenshot(page, 'login-de');

    await page.getByRole('link', { name: 'English' }).click();
    assert.equal(await heading(), 'Log in');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.getByLabel('Username').fill('office');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    assert.equal(await page.getByRole('alert').textContent(), 'Wrong username or password.');
    assert.equal(await page.getByLabel('Password').inputValue(), '', 'the password is not sent back');
    await screenshot(page, 'login-en');

    await page.getByRole('link', { name: 'Deutsch' }).click();
    await page.getByLabel('Benutzername').fill('office');
    await page.getByLabel('Passwort').fill('office');
    await page.getByLabel('Passwort').press('Enter');

    const callback = await waitForCallback();
    assert.equal(callback.searchParams.get('state'), 'e2e-state');
    const code = callback.searchParams.get('code');
    assert.ok(code, callback.href);
    const tokens: Tokens = await exchangeCode(server.url, code, challenge.verifier);

    const hello = await api('/api/auth/hello/', tokens.access_token);
    assert.equal(hello.status, 200);
    const me = (await hello.json()) as { username: string; groups: string[] };
    assert.equal(me.username, 'office');
    assert.deepEqual(me.groups, ['backoffice']);

    const renewed = await tokenRequest(server.url, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.notEqual(renewed.body.access_token, tokens.access_token);
    assert.equal((await api('/api/auth/hello/', String(renewed.body.access_token))).status, 200);

    // Logout as the back office does it: end_session with the ID token, back to the back office.
    const end = new URLSearchParams({
      id_token_hint: String(renewed.body.id_token),
      post_logout_redirect_uri: `${server.url}/backoffice`,
    });
    // Watched from before the logout: once back, the back office may already send the browser on to
    // the login before a wait for its address would have begun.
    const backAtOffice = page.waitForRequest(
      (request) => request.isNavigationRequest() && request.url() === `${server.url}/backoffice`,
    );
    await page.goto(`${server.url}/oidc/session/end?${end}`);
    await backAtOffice;

    const afterLogout = await tokenRequest(server.url, {
      grant_type: 'refresh_token',
      refresh_token: String(renewed.body.refresh_token),
    });
    assert.equal(afterLogout.status, 400, 'the refresh token died with the session');

    // The session is gone: a new authorization asks for the password again. It goes in a second tab of
    // the same browser session: the first one, back at the back office, is sent on to a login of the
    // back office's own, which would cut into a navigation of the test's there.
    const loginTab = await page.context().newPage();
    loginTab.on('pageerror', (error) => problems.push(error.message));
    await loginTab.goto(authorizeUrl(server.url, { challenge: pkce().challenge }));
    await loginTab.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/'));
    assert.equal(await loginTab.getByRole('heading', { level: 1 }).textContent(), 'Anmelden');
    assert.equal(await loginTab.getByLabel('Passwort').inputValue(), '');
    assert.deepEqual(problems, [], 'no page errors or blocked resources');
  });
});
