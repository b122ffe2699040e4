import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openLoginPage } from '../support/oidc-flow.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import type { RunningServer } from './server.ts';

// staff see a login that an address may not try any more and unlock it in the back office.
describe('e2e: locked logins in the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  it('lists the locked vendor login in German and unlocks it after asking', async () => {
    const attempt = await openLoginPage(server.url);
    for (let n = 0; n < 5; n++) await attempt.submit('vendor', `guess-${n}`);
    assert.equal((await attempt.submit('vendor', 'vendor')).status, 429, 'the vendor login is locked for this address');

    await page.goto(`${server.url}/backoffice/login-locks`);
    await page.locator('#backoffice-page-title').filter({ hasText: 'Gesperrte Anmeldungen' }).waitFor();
    const row = page.locator('table tbody tr').filter({ hasText: 'vendor' });
    await row.waitFor();
    assert.match(await row.innerText(), /127\.0\.0\.1/);
    await row.locator('.login-lock-unlock').click();
    await page
      .getByRole('dialog')
      .getByText('Alle Adressen dürfen es dann sofort wieder versuchen', { exact: false })
      .waitFor();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Bestätigen|Confirm/ })
      .click();
    await page.getByText('Die Anmeldung „vendor“ ist entsperrt.').waitFor();
    await page.getByText('Keine Anmeldung ist gesperrt.').waitFor();

    const locks = await fetch(`${server.url}/api/login-locks`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.deepEqual(await locks.json(), []);
    assert.ok((await attempt.submit('vendor', 'vendor')).code, 'the vendor logs in again');
  });
});
