import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// A TSE that cannot be reached, as staff meet it: the installation signs in test mode with a
// provider whose address answers nobody (a closed port), so every cash movement stays unsigned.
// The till still books; "Heute" says how many movements are not signed, German and English,
// desktop and phone, checked with axe.

describe('e2e: a TSE that cannot be reached shows on "Heute"', function () {
  this.timeout(240_000);
  const e2e = useServerAndBrowser({
    env: {
      FISCAL_MODE: 'test',
      FISCAL_API_KEY: 'test_key',
      FISCAL_API_SECRET: 'test_secret',
      FISCAL_TSS_ID: '7d8d2bb4-5b1f-4c1e-9a3b-1f2e3d4c5b6a',
      FISCAL_CLIENT_ID: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9',
      // port 9 (discard) on loopback: nothing listens, the connection is refused at once
      FISCAL_API_URL: 'http://127.0.0.1:9/api/v2',
    },
  });
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  before(async () => {
    server = e2e.server;
    context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await openLoggedIn(page, `${server.url}/backoffice/today`, 'office', 'office');
  });
  after(async () => {
    await context?.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  });

  const api = async (path: string, body?: object) => {
    const response = await fetch(`${server.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    assert.ok(response.status < 300, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const lookAt = async (name: string) => {
    await expectAccessible(page, `${name} (1280)`);
    await screenshot(page, `${name}-1280`);
    await resize(page, phone);
    await expectAccessible(page, `${name} (390)`);
    await screenshot(page, `${name}-390`);
    await resize(page, { width: 1280, height: 900 });
  };

  it('books the cash, lists the unsigned movements and says so on "Heute" in German and English', async () => {
    const tills = (await api('/api/tills')).tills as { id: number }[];
    // The till begins to sign (its opening balance) before the income: whether the periodic run got
    // there first must not decide what is signed.
    await api('/api/fiscal/retry', {});
    await api(`/api/tills/${tills[0].id}/movements`, { kind: 'income', amount: 250, reason: 'Spende' });
    const retried = (await api('/api/fiscal/retry', {})).transactions as { state: string; lastError: string }[];
    // the till's opening balance and the income, both booked, neither signed
    assert.deepEqual(
      retried.map((tx) => tx.state),
      ['failed', 'failed'],
    );
    assert.match(retried[0].lastError, /cannot be reached/);

    await page.reload();
    const alert = page.locator('#today-tse-failed');
    await alert.filter({ hasText: 'TSE ausgefallen: 2 Kassenbewegungen sind noch nicht signiert.' }).waitFor();
    await lookAt('backoffice-fiscal-today-de');
    await page.locator('#backoffice-language button[value="en"]').click();
    await alert.filter({ hasText: 'TSE unavailable: 2 cash movements are not signed yet.' }).waitFor();
    await lookAt('backoffice-fiscal-today-en');
  });
});
