import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { screenshot } from './browser.ts';
import { buyInShop } from './purchase.ts';
import { createDb, migrate } from '../../api/src/db/connection.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { seededCopy, tempDir, type RunningServer } from './server.ts';

// a chargeback reaches the back office. A purchase paid with Stripe's dispute test card is
// disputed at the sandbox a minute later (the test hurries the sandbox's clock), whose `charge.dispute.created` reaches the server's webhook; staff find
// the order among those needing attention, with amount and deadline, and decide who bears it.
describe('e2e: a chargeback in the back office', function () {
  this.timeout(180_000);
  // The server's data directory, seeded here so that the test knows the sandbox's key.
  const dataDir = tempDir();
  let key = '';
  before(async function () {
    this.timeout(60_000);
    await seededCopy(dataDir);
    const db = createDb({ dataDir });
    try {
      await migrate(db);
      key = (await sandboxCredentials(db)).secretKey;
    } finally {
      await db.destroy();
    }
  });
  const tab = useBrowserTab({ officeAt: '/backoffice/orders', server: { dataDir } });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.equal(response.status, 200, `${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  type Listed = { id: number; amountTotal: number; dispute: { bearer: string | null; needsDecision: boolean } | null };
  const needingAttention = () => api<Listed[]>(`/api/orders?filter=${encodeURIComponent('{"attention":true}')}`);

  it('lists the disputed order with amount and deadline, and books it off the vendor’s credit when staff decide so', async () => {
    const settings = await (await fetch(`${server.url}/api/settings`)).json();
    await buyInShop(
      server.url,
      { vendor: 'DEMO-2', entries: [{ item: settings.mainItem.id, quantity: 1 }], tip: 0, locale: 'de' },
      { card: '4000000000000259' },
    );
    const hurried = await fetch(`${server.url}/stripe-sandbox/clock/advance`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
    });
    assert.equal(hurried.status, 200, 'the card’s bank disputes the payment now, not in a minute');
    const [order] = await eventually(async () => {
      const listed = await needingAttention();
      return listed.length > 0 && listed;
    }, 'the dispute reaches the server');

    await page.goto(`${server.url}/backoffice/orders?filter=${encodeURIComponent('{"attention":true}')}`);
    const row = page.locator('table tbody tr').filter({ has: page.locator('.order-dispute') });
    await row.waitFor();
    const euros = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(
      order.amountTotal / 100,
    );
    // The office's day (its browser is in the newspaper's zone), not this machine's.
    const due = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('de-AT', { timeZone: 'Europe/Berlin' });
    assert.equal(await row.locator('.order-dispute').innerText(), `Chargeback ${euros}, Frist ${due} (needs_response)`);
    assert.ok((await row.innerText()).includes('DEMO-2'), 'the vendor is named');
    await screenshot(page, 'backoffice-dispute-1280');

    await row.getByRole('button', { name: 'Verkäufer·in trägt es' }).click();
    const dialog = page.getByRole('dialog');
    assert.match(
      await dialog.innerText(),
      new RegExp(`Chargeback zu Bestellung ${order.id}: wer trägt es\\?[\\s\\S]*vom Guthaben von DEMO-2`),
    );
    await dialog.getByRole('button', { name: 'Bestätigen' }).click();
    await page
      .locator('.MuiSnackbar-root')
      .filter({ hasText: `Chargeback zu Bestellung ${order.id}: vom Guthaben abgezogen` })
      .waitFor();
    assert.deepEqual(await needingAttention(), []);
    const [decided] = await api<Listed[]>(
      `/api/orders?filter=${encodeURIComponent(JSON.stringify({ id: [order.id] }))}`,
    );
    assert.deepEqual([decided.dispute?.bearer, decided.dispute?.needsDecision], ['vendor', false]);
  });
});
