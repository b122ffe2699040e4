import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import Stripe from 'stripe';
import { createDb, migrate } from '../../api/src/db/connection.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { eventually } from '../support/orders.ts';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { mainItemOrder, placeOrder } from './purchase.ts';
import { seededCopy, tempDir, type RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// "Abgleich mit Stripe": the real server with its sandbox, a sale paid on the card page (its events
// reach the server, so the books agree with Stripe), then a refund made at Stripe whose events the
// webhook endpoint does not ask for (as if they were lost): the screen names it as the one
// difference, and its CSV carries it. German and English, desktop and phone, no serious axe finding
// and one h1.

describe('e2e: the Stripe reconciliation in the back office', function () {
  this.timeout(180_000);
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
  const e2e = useServerAndBrowser({ dataDir });
  let server: RunningServer;
  let stripe: Stripe;
  let context: BrowserContext;
  let page: Page;
  let paymentIntent = '';
  const pageErrors: string[] = [];
  before(async () => {
    server = e2e.server;
    stripe = new Stripe(key, { host: '127.0.0.1', port: server.port, protocol: 'http', telemetry: false });
    context = await e2e.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'de-AT',
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await openLoggedIn(page, `${server.url}/backoffice/stripe-reconciliation`, 'office', 'office');
  });
  after(async () => {
    await context?.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  });

  /** A sale paid on the sandbox's card page; the sandbox's events settle it. Answers its payment. */
  const sell = async () => {
    const { token, checkoutUrl } = await placeOrder(server.url, await mainItemOrder(server.url, 'DEMO-1', 100));
    await payInSandbox(server.url, checkoutUrl);
    const session = await stripe.checkout.sessions.retrieve(new URL(checkoutUrl).pathname.split('/').pop()!);
    for (let i = 0; i < 20; i++) {
      const receipt = (await (await fetch(`${server.url}/api/orders/${token}?wait=5`)).json()) as { status: string };
      if (receipt.status === 'paid') break;
    }
    return session.payment_intent as string;
  };
  const choose = async (preset: string) => {
    await page.locator('#reconciliation-preset').click();
    await page.getByRole('option', { name: preset }).click();
  };

  it('starts with last month, and shows today’s sale with the same figures on both sides: "Keine Abweichungen"', async () => {
    await page.locator('#reconciliation-figures').waitFor();
    assert.equal(await page.locator('#reconciliation-preset').innerText(), 'Letzter Monat');
    assert.equal(await page.locator('#backoffice-page-title').innerText(), 'Abgleich mit Stripe');
    paymentIntent = await sell();
    // Stripe's balance transaction of the charge follows the payment with its fee (SANDBOX_FEE_DELAY_MS).
    await eventually(async () => {
      const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
      const res = await fetch(`${server.url}/api/stripe-reconciliation?from=${today}&to=${today}`, {
        headers: { Authorization: `Bearer ${await accessToken(page)}` },
      });
      const body = (await res.json()) as { stripe: { charges: number }; differences: unknown[] };
      return body.stripe.charges > 0 && body.differences.length === 0;
    }, 'Stripe’s balance transaction of the sale');
    await choose('Heute');
    await page.locator('#reconciliation-figure-charges').waitFor();
    const charges = await page.locator('#reconciliation-figure-charges').innerText();
    assert.match(charges, /Kartenzahlungen\s+[\d,]+\s€\s+[\d,]+\s€\s+–/, 'the same on both sides');
    assert.match(await page.locator('#reconciliation-no-differences').innerText(), /Keine Abweichungen/);
    await expectAccessible(page, 'the reconciliation without differences (German)');
    await screenshot(page, 'backoffice-reconciliation-1280');
  });

  it('names a refund made at Stripe whose events never came, and downloads it in the CSV', async () => {
    // From now on the endpoint asks only for payments' events: a refund's are not sent, as if lost.
    await stripe.webhookEndpoints.create({
      url: `${server.url}/api/webhooks/stripe`,
      enabled_events: ['checkout.session.completed', 'charge.updated'],
    });
    const refund = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 50 });
    await page.reload();
    await page.locator('#reconciliation-figures').waitFor();
    await choose('Heute');
    const difference = page.locator('.reconciliation-difference');
    await difference.waitFor();
    assert.equal(await difference.count(), 1);
    const text = await difference.innerText();
    assert.ok(text.includes(refund.id), `the refund is named: ${text}`);
    assert.match(text, /Erstattung · Erstattungen an Kundschaft/);
    assert.match(text, /Stripe\s+-0,50\s€\s+Unsere Bücher\s+0,00\s€\s+Abweichung\s+-0,50\s€/);
    const order = difference.locator('a.reconciliation-order');
    assert.match(await order.innerText(), /^Bestellung \d+$/, 'the refund’s order, found by its payment');
    assert.match((await order.getAttribute('href')) ?? '', /\/backoffice\/orders\?filter=/);
    await expectAccessible(page, 'the reconciliation with a difference (German)');
    await screenshot(page, 'backoffice-reconciliation-difference-1280');

    const download = page.waitForEvent('download');
    await page.locator('#reconciliation-csv').click();
    const file = await download;
    assert.match(file.suggestedFilename(), /^stripe-abgleich_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await file.path(), 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    assert.match(lines[0], /^"Zeile";"Posten";"Stripe-Objekt"/);
    const line = lines.find((l) => l.includes(refund.id));
    assert.ok(line, 'the refund in the CSV');
    assert.match(line, /^"Differenz";"Erstattungen an Kundschaft";/);
    assert.match(line, /"-0,50";"0,00";"-0,50"$/);
  });

  it('reads in English and fits a phone', async () => {
    await page.locator('#backoffice-language button[value="en"]').click();
    await resize(page, phone);
    await page.reload();
    await page.locator('#reconciliation-figures').waitFor();
    assert.equal(await page.locator('#reconciliation-preset').innerText(), 'Last month');
    await choose('Today');
    await page.locator('.reconciliation-difference').waitFor();
    assert.match(await page.locator('.reconciliation-difference').innerText(), /Refund · Refunds to customers/);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `nothing wider than the phone (${overflow} px too wide)`);
    await expectAccessible(page, 'the reconciliation (English, phone)');
    await screenshot(page, 'backoffice-reconciliation-en-390');
  });
});
