import assert from 'node:assert/strict';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { RunningServer, ServerOptions } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The embedded provider's login page as the back office and /me reach it in Chromium.

export interface BrowserTab {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * The real server and Chromium for the enclosing describe, and a German desktop tab in them
 * (`contextOptions` change that). With `officeAt` (a path such as /backoffice/credits), one tab
 * for the whole describe, logged in there as office staff, so the tests run in order in it;
 * without, a fresh tab for each test with nobody logged in. Either way the page must throw no
 * errors. The fields are filled once the hooks have run.
 */
export function useBrowserTab(
  options: { officeAt?: string; contextOptions?: BrowserContextOptions; server?: ServerOptions } = {},
): BrowserTab {
  const e2e = useServerAndBrowser(options.server);
  const tab = {} as BrowserTab;
  let pageErrors: string[] = [];
  before(() => {
    tab.server = e2e.server;
    tab.browser = e2e.browser;
  });
  const open = async () => {
    tab.context = await tab.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'de-AT',
      acceptDownloads: true,
      ...options.contextOptions,
    });
    tab.page = await tab.context.newPage();
    pageErrors = [];
    tab.page.on('pageerror', (error) => pageErrors.push(error.message));
  };
  const close = async () => {
    await tab.context?.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  };
  const { officeAt } = options;
  if (officeAt) {
    before(async () => {
      await open();
      await openLoggedIn(tab.page, `${tab.server.url}${officeAt}`, 'office', 'office');
    });
    after(close);
  } else {
    beforeEach(open);
    afterEach(close);
  }
  return tab;
}

/** Waits for our login page (German or English) and logs in there. */
export async function logInAtProvider(page: Page, username: string, password: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/oidc/interaction/'));
  await page.getByLabel(/^(Benutzername|Username)$/).fill(username);
  const passwordField = page.getByLabel(/^(Passwort|Password)$/);
  await passwordField.fill(password);
  await passwordField.press('Enter');
}

/** Opens `path` (e.g. /backoffice/vendorsummary), logs in and waits until the page is back at home. */
export async function openLoggedIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(url);
  await logInAtProvider(page, username, password);
  await page.waitForURL(
    (current) => !current.pathname.startsWith('/oidc/') && !current.pathname.endsWith('/auth-callback'),
  );
}

/** The page title of the back office once the screen has rendered it: "<newspaper> | <page>". */
export async function backofficeTitle(page: Page, expected: string): Promise<string> {
  await page
    .waitForFunction((wanted) => document.title === wanted, expected, { timeout: 15_000 })
    .catch(() => undefined);
  return page.title();
}

interface StoredUser {
  access_token: string;
  id_token: string;
  refresh_token: string;
  expires_at: number;
}

/**
 * The login oidc-client-ts keeps in the tab's session storage; with `changes`, those fields are
 * overwritten first (a test moves the expiry to make the page renew its token).
 */
export async function storedUser(page: Page, changes: Partial<StoredUser> = {}): Promise<StoredUser> {
  return page.evaluate((patch) => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user:'));
    if (!key) throw new Error('nobody is logged in in this tab');
    const user = { ...JSON.parse(sessionStorage.getItem(key)!), ...patch };
    sessionStorage.setItem(key, JSON.stringify(user));
    return user;
  }, changes);
}

/** The access token of the page's login, to call the API as that user. */
export async function accessToken(page: Page): Promise<string> {
  return (await storedUser(page)).access_token;
}
