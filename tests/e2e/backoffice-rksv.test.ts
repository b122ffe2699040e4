import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, resize, screenshot } from './browser.ts';
import { useServerAndBrowser } from './suite.ts';

// An Austrian till on the tills screen: once it signs at (the local simulator of) fiskaly SIGN AT,
// the screen names what the office registers at FinanzOnline, its Kassen-ID and the check value
// (Prüfwert) of its AES key, the same as the registration route answers, and the till's own DEP
// downloads from its button. German and English, axe and both widths.

describe('e2e: the tills screen names an Austrian till’s Kassen-ID and AES key check value', function () {
  this.timeout(300_000);
  const e2e = useServerAndBrowser();
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  before(async () => {
    context = await e2e.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'de-DE',
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await openLoggedIn(page, `${e2e.server.url}/backoffice/tills`, 'office', 'office');
  });
  after(async () => {
    await context?.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  });

  const call = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${e2e.server.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${await accessToken(page)}`,
        'Content-Type': 'application/json',
        'Accept-Language': 'en',
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = (await response.json()) as Record<string, unknown>;
    assert.equal(response.status, 200, `${method} ${path}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const settled = () => page.waitForFunction(() => !document.querySelector('[role="progressbar"]'));

  it('shows the Kassen-ID and the Prüfwert the registration answers (German, then English)', async () => {
    const tills = (await call('GET', '/api/tills')).tills as { id: number }[];
    const till = tills[0].id;
    await call('PUT', `/api/tills/${till}/fiscal`, { mode: 'test', country: 'AT' });
    // The opening balance is the till's first receipt: its cash register at SIGN AT is set up with it.
    // The server's own signing run may hold it at the moment: then it is asked again once that is done.
    await eventually(async () => {
      const unsigned = (await call('POST', '/api/fiscal/retry', {})).transactions as { state: string }[];
      assert.deepEqual(
        unsigned.filter((transaction) => transaction.state !== 'pending'),
        [],
        'nothing failed to sign',
      );
      return unsigned.length === 0;
    }, 'the opening balance is signed');
    const registration = await call('GET', `/api/tills/${till}/rksv`);
    const id = String(registration.cashRegisterId);
    const check = String(registration.aesKeyCheckValue);
    assert.match(check, /^[A-Za-z0-9+/]{4}$/);

    await page.reload();
    await page
      .locator('#till-fiscal-now')
      .filter({ hasText: 'Testmodus · Österreich (RKSV) · lokaler Simulator von fiskaly SIGN AT' })
      .waitFor();
    const line = page.locator('#till-fiscal-rksv');
    await line
      .filter({ hasText: `Für FinanzOnline: Kassen-ID ${id} · Prüfwert des AES-Schlüssels ${check}` })
      .waitFor();
    await settled();
    await expectAccessible(page, 'tills screen, Austrian till (1280)');
    await screenshot(page, 'backoffice-rksv-tills-de-1280');
    await resize(page, phone);
    await settled();
    await expectAccessible(page, 'tills screen, Austrian till (390)');
    await screenshot(page, 'backoffice-rksv-tills-de-390');
    await resize(page, { width: 1280, height: 900 });

    // The till's DEP downloads from its own button: one group, its receipts those of this Kassen-ID.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(`#dep7-download-${till}`).click(),
    ]);
    assert.equal(download.suggestedFilename().startsWith(`dep7-${till}-`), true);
    const dep = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
      'Belege-Gruppe': { 'Belege-kompakt': string[] }[];
    };
    assert.equal(dep['Belege-Gruppe'].length, 1);
    const codes = dep['Belege-Gruppe'][0]['Belege-kompakt'].map((jws) =>
      Buffer.from(jws.split('.')[1], 'base64url').toString('utf8').split('_'),
    );
    assert.deepEqual(
      codes.map((code) => [code[2], code[3]]),
      [
        [id, '1'],
        [id, '2'],
      ],
      'the start receipt and the opening balance of this Kassen-ID',
    );

    await page.locator('#backoffice-language button[value="en"]').click();
    await line
      .filter({ hasText: `For FinanzOnline: cash register ID ${id} · AES key check value (Prüfwert) ${check}` })
      .waitFor();
    await settled();
    await expectAccessible(page, 'tills screen, Austrian till, English');
    await screenshot(page, 'backoffice-rksv-tills-en-1280');
  });
});
