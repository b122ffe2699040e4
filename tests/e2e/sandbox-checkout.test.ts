import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import Stripe from 'stripe';
import { createDb, migrate } from '../../api/src/db/connection.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';
import { phone, screenshot } from './browser.ts';
import { seededCopy, tempDir, type RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The sandbox's hosted checkout page, as a customer meets it on the phone: the real server without a
// Stripe key, a session made through the official SDK, and Chromium typing the card and paying.
describe('e2e: local Stripe sandbox checkout page in Chromium', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let stripe: Stripe;

  // The sandbox's key is the installation's own, in its database: the test makes the data directory
  // first (the seeded demo) and reads the key there, as the server's adapter does, then the server
  // starts on it.
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
  before(() => {
    ({ server, browser } = e2e);
    stripe = new Stripe(key, { host: '127.0.0.1', port: server.port, protocol: 'http', telemetry: false });
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: phone, deviceScaleFactor: 2, locale: 'de-AT' });
  });
  afterEach(() => page.close());

  const createSession = () =>
    stripe.checkout.sessions.create({
      mode: 'payment',
      locale: 'de',
      line_items: [
        { price_data: { currency: 'eur', unit_amount: 300, product_data: { name: 'Zeitung' } }, quantity: 1 },
        { price_data: { currency: 'eur', unit_amount: 100, product_data: { name: 'Trinkgeld' } }, quantity: 1 },
      ],
      customer_email: 'reader@example.org',
      expires_at: Math.floor(Date.now() / 1000) + 30 * 60,
      success_url: `${server.url}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/failure`,
    });

  it('shows TESTMODUS, the lines and the total in German, and pays with 4242 4242 4242 4242 back to the success URL', async () => {
    const session = await createSession();
    await page.goto(session.url!);
    // The session's locale is German: so is the page.
    assert.equal(await page.locator('#sandbox-test-mode').textContent(), 'TESTMODUS');
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    // Amounts are formatted as German readers write them (with a no-break space before the €).
    const lines = (await page.locator('#sandbox-lines li').allInnerTexts()).map((line) => line.replace(/\s+/g, ' '));
    assert.deepEqual(lines, ['Zeitung × 1 3,00 €', 'Trinkgeld × 1 1,00 €']);
    assert.equal(await page.locator('#sandbox-total').textContent(), '4,00\u00a0€');
    const card = page.locator('#card');
    assert.equal(await card.getAttribute('autocomplete'), 'cc-number');
    assert.equal(await card.getAttribute('inputmode'), 'numeric');
    assert.notEqual(await page.locator('#exp').inputValue(), '', 'expiry prefilled');
    assert.notEqual(await page.locator('#cvc').inputValue(), '', 'CVC prefilled');
    assert.equal(await page.locator('#sandbox-back').getAttribute('href'), `${server.url}/failure`);
    // Nothing sticks out sideways at phone width.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));

    await card.fill('4000 0000 0000 0002');
    await page.locator('#sandbox-pay').click();
    await page.locator('#sandbox-error').waitFor();
    assert.equal(await page.locator('#sandbox-error').textContent(), 'Ihre Karte wurde abgelehnt.');

    // The switch shows the page in English, and a refusal there stays English.
    await Promise.all([page.waitForURL(/\?lang=en$/), page.locator('#sandbox-lang').click()]);
    assert.equal(await page.locator('#sandbox-test-mode').textContent(), 'TEST MODE');
    assert.equal(await page.locator('#sandbox-total').textContent(), '€4.00');
    await page.locator('#card').fill('4000 0000 0000 9995');
    await page.locator('#sandbox-pay').click();
    await page.locator('#sandbox-error').waitFor();
    assert.equal(await page.locator('#sandbox-error').textContent(), 'Your card has insufficient funds.');
    assert.equal(await page.locator('#sandbox-lang').textContent(), 'Deutsch');

    await page.locator('#card').fill('4242 4242 4242 4242');
    await screenshot(page, 'sandbox-checkout');
    await Promise.all([
      page.waitForURL(`${server.url}/success?session_id=${session.id}`),
      page.locator('#sandbox-pay').click(),
    ]);

    const paid = await stripe.checkout.sessions.retrieve(session.id);
    assert.equal(paid.payment_status, 'paid');
  });
});
