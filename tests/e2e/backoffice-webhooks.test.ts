import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { webhookReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, reachableAtEnd, screenshot, resize } from './browser.ts';
import type { RunningServer } from './server.ts';

// staff set up a webhook for another system, see its secret once, see a delivery that
// failed while the receiver was down, and send it again; in German and English, at desktop and
// phone width, each screen checked with axe-core.
describe('e2e: webhooks in the back office', function () {
  this.timeout(300_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/webhook-endpoints' });
  let server: RunningServer;
  let page: Page;
  let receiver: Receiver;
  before(async () => {
    ({ server, page } = tab);
    receiver = await webhookReceiver('down');
  });
  after(() => receiver?.close());

  const api = async (path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${await accessToken(page)}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[] };
  };
  /** axe-core once the screen has finished loading (react-admin's spinner has no name while it turns). */
  const accessible = async (label: string) => {
    await page.waitForFunction(() => !document.querySelector('[role="progressbar"]'));
    await expectAccessible(page, label);
  };
  /** Nothing wider than the phone: no sideways scrolling. */
  const fitsPhone = async () => {
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    assert.ok(scrollWidth <= innerWidth, `the page is ${scrollWidth} px wide on a ${innerWidth} px phone`);
  };
  const row = () => page.locator('#webhook-deliveries table tbody tr').first();

  it('makes an endpoint and shows its secret once (German)', async () => {
    await page.locator('#backoffice-page-title').filter({ hasText: 'Webhooks' }).waitFor();
    await page.getByText('Noch kein Webhook eingerichtet.').waitFor();
    await accessible('the webhook list (de, empty)');
    await page.getByRole('link', { name: 'Erstellen' }).click();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Neuer Webhook' }).waitFor();
    await page.getByLabel('Adresse (URL)').fill(`${receiver.url}/erp`);
    await page.getByLabel('Beschreibung').fill('ERP der Buchhaltung');
    await accessible('the new webhook form (de)');
    await screenshot(page, 'backoffice-webhook-new-de-1366');
    await page.getByRole('button', { name: 'Speichern' }).click();
    const secret = page.locator('#webhook-secret');
    await secret.waitFor();
    receiver.secret = (await secret.innerText()).trim();
    assert.match(receiver.secret, /^whsec_/);
    await accessible('the secret dialog (de)');
    await screenshot(page, 'backoffice-webhook-secret-de-1366');
    await page.getByRole('button', { name: 'Ich habe es kopiert' }).click();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Webhook bearbeiten' }).waitFor();
    assert.ok(!(await page.content()).includes(receiver.secret), 'the secret is not on the page any more');
  });

  it('shows a delivery that failed while the receiver was down and sends it again (German)', async () => {
    const tills = (await api('/api/tills')).body as unknown as { tills: { id: number; balance: number }[] };
    const till = tills.tills[0];
    const closed = await api(`/api/tills/${till.id}/closes`, { counted: till.balance, expected: till.balance });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    // The sender tries at once; the receiver answers 503.
    for (let n = 0; ; n++) {
      await page.reload();
      await page.locator('#webhook-deliveries').waitFor();
      if ((await page.locator('.webhook-status-pending').count()) && /HTTP 503/.test(await row().innerText())) break;
      assert.ok(n < 100, 'the failed try is shown');
      await page.waitForTimeout(300);
    }
    assert.match(await row().innerText(), /Tagesabschluss/);
    await accessible('the webhook with a failed delivery (de)');
    await screenshot(page, 'backoffice-webhook-deliveries-de-1366');

    receiver.answer = 'up';
    await row().locator('.webhook-resend').click();
    await page.getByText('Die Zustellung wird erneut gesendet.').waitFor();
    for (let n = 0; !(await page.locator('.webhook-status-delivered').count()); n++) {
      assert.ok(n < 100, 'the delivery is shown as delivered');
      await page.waitForTimeout(300);
      await page.reload();
      await page.locator('#webhook-deliveries').waitFor();
    }
    assert.deepEqual(
      receiver.received.map((got) => [got.type, got.verified]),
      [['counter.day_closed', true]],
    );
  });

  it('reads the same in English, and at phone width in both languages', async () => {
    await page.locator('#backoffice-language button[value="en"]').click();
    await page.locator('#backoffice-page-title').filter({ hasText: 'Edit webhook' }).waitFor();
    await page.getByText('Deliveries', { exact: true }).waitFor();
    await page
      .getByRole('button', { name: /^Resend/ })
      .first()
      .waitFor();
    assert.match(await row().innerText(), /Daily close/);
    assert.match(await row().innerText(), /Delivered/);
    await accessible('the webhook with its deliveries (en)');
    await screenshot(page, 'backoffice-webhook-deliveries-en-1366');

    await resize(page, phone);
    await page.goto(`${server.url}/backoffice/webhook-endpoints`);
    await page.getByText('ERP der Buchhaltung', { exact: false }).waitFor();
    await fitsPhone();
    await accessible('the webhook list (en, phone)');
    await screenshot(page, 'backoffice-webhook-list-en-390');
    await page.getByText('ERP der Buchhaltung', { exact: false }).click();
    await page.locator('#webhook-deliveries').waitFor();
    await fitsPhone();
    await accessible('the webhook with its deliveries (en, phone)');
    await screenshot(page, 'backoffice-webhook-deliveries-en-390');
    // The language is chosen in the sidebar, which a phone keeps folded away.
    await resize(page, { width: 1366, height: 900 });
    await page.locator('#backoffice-language button[value="de"]').click();
    await page.getByText('Zustellungen', { exact: true }).waitFor();
    const here = page.url();
    await resize(page, phone);
    await page.goto(here);
    await page.locator('#webhook-deliveries table tbody tr').first().waitFor();
    await fitsPhone();
    await accessible('the webhook with its deliveries (de, phone)');
    // The form's save bar stays on screen while the form is, but never lies over the deliveries.
    await reachableAtEnd(page, '#webhook-deliveries tbody tr button');
    await reachableAtEnd(page, '#webhook-deliveries .MuiTablePagination-displayedRows');
    await screenshot(page, 'backoffice-webhook-deliveries-de-390');
    await resize(page, { width: 1366, height: 900 });
  });
});
