import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loginWithPkce } from '../support/oidc-flow.ts';
import { eventually } from '../support/orders.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { screenshot, resize } from './browser.ts';
import { testServer } from './host.ts';
import { seededCopy, tempDir, type RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The customer's path of product.md in Chromium against the real server and its Stripe sandbox:
// from the badge to a paid receipt, the vendor's credit, and every way the path can go wrong.

type Lang = 'de' | 'en';
const locales: Record<Lang, string> = { de: 'de-AT', en: 'en-GB' };
const phone = { width: 375, height: 740 };
const declinedCard = '4000 0000 0000 0002';
const goodCard = '4242 4242 4242 4242';

/** Text as a person reads it: one space for any run of white space (amounts have a no-break space). */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describe('e2e: buying in the shop widget, paid through the Stripe sandbox', function () {
  this.timeout(180_000);
  let server: RunningServer;
  let browser: Browser;
  let office: string;
  let vendorToken: string;
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];

  // The last test restarts the server on the same data: a data directory of the suite's own, which
  // the server closes at its stop, rather than the host's kept copy of the template.
  const dataDir = tempDir();
  before(() => seededCopy(dataDir));
  const e2e = useServerAndBrowser({ dataDir });
  before(async () => {
    ({ server, browser } = e2e);
    office = (await loginWithPkce(server.url, 'office', 'office')).access_token;
    vendorToken = (await loginWithPkce(server.url, 'vendor', 'vendor')).access_token;
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    assert.deepEqual(problems.splice(0), [], 'no page threw an error');
  });

  /** A fresh phone: its own storage, as a customer who never opened the shop before. */
  async function phoneIn(lang: Lang): Promise<Page> {
    const context = await browser.newContext({ viewport: phone, locale: locales[lang], deviceScaleFactor: 2 });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    return page;
  }

  /** DEMO-1's credit as the vendor sees it on /me. */
  async function credit(): Promise<number> {
    const res = await fetch(`${server.url}/api/vendors/me/`, { headers: { Authorization: `Bearer ${vendorToken}` } });
    assert.equal(res.status, 200);
    return Number(((await res.json()) as { credit: number | string }).credit);
  }

  /** Changes settings as the office does (multipart, like the back office's form). */
  async function settings(fields: Record<string, string>): Promise<void> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const res = await fetch(`${server.url}/api/settings/`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${office}` },
      body: form,
    });
    const body = await res.text();
    assert.equal(res.status, 200, body);
  }

  async function customCss(css: string): Promise<number> {
    const res = await fetch(`${server.url}/api/settings/css/`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${office}`, 'Content-Type': 'text/css' },
      body: css,
    });
    const body = await res.text();
    assert.equal(res.status, 200, body);
    return (JSON.parse(body) as { styleRevision: number }).styleRevision;
  }

  // Waits for the first line: a screen that is still drawing its list (the cart restored after "Try again") is no
  // empty list.
  const lines = async (page: Page, selector: string) => {
    await page.locator(selector).first().waitFor();
    return (await page.locator(selector).allInnerTexts()).map(plain);
  };
  const text = async (page: Page, selector: string) => plain(await page.locator(selector).textContent());

  /** The Pay tap: answers the order token, once the browser is on the card page. */
  async function pay(page: Page, name: string): Promise<string> {
    const [placed] = await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/orders/') && res.request().method() === 'POST'),
      page.getByRole('button', { name }).click(),
    ]);
    assert.equal(placed.status(), 201);
    await page.waitForURL(/\/stripe-sandbox\/pay\//);
    // The card page's way back names the order (Stripe's cancel URL).
    const back = new URL((await page.locator('#sandbox-back').getAttribute('href'))!);
    assert.equal(back.pathname, '/failure');
    return back.searchParams.get('order')!;
  }

  /** Pays on the sandbox's card page and waits for the receipt. */
  async function payByCard(page: Page, order: string): Promise<void> {
    await page.locator('#card').fill(goodCard);
    await page.locator('#sandbox-pay').click();
    await page.waitForURL(`${server.url}/paymentconfirmation?order=${order}`);
    await page.locator('#shop-receipt').waitFor();
  }

  it('four taps from the badge to the card page; paid, the receipt, and the vendor’s credit rises (German)', async () => {
    const before = await credit();
    const page = await phoneIn('de');
    await page.goto(`${server.url}/v/DEMO-1`);
    assert.equal(await text(page, 'h1'), 'Kaufe eine Zeitung bei Anna');
    assert.deepEqual(
      await lines(page, '.shop-cart-line'),
      ['1 × Zeitung 3,00 €'],
      'the main item is already in the cart',
    );

    await page.getByRole('button', { name: 'Weiter' }).click(); // 1
    await page.getByRole('button', { name: '2,00 €' }).click(); // 2
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check(); // 3
    const order = await pay(page, 'Bezahlen'); // 4

    // Stripe's page (the sandbox) shows what the server priced.
    assert.deepEqual(await lines(page, '#sandbox-lines li'), ['Zeitung × 1 3,00 €', 'Spende × 1 2,00 €']);
    assert.equal(await text(page, '#sandbox-total'), '5,00 €');
    await payByCard(page, order);

    assert.equal(await text(page, 'h1'), 'Bitte zeige diese Seite Anna');
    const clock = await text(page, '#shop-receipt-clock');
    assert.match(clock, /^\d\d:\d\d:\d\d$/);
    await page.waitForFunction((first) => document.getElementById('shop-receipt-clock')?.textContent !== first, clock);
    assert.equal(await page.locator('.shop-receipt-print').count(), 1, 'one tile per printed copy');
    assert.equal(await text(page, '.shop-receipt-print'), 'Zeitung');
    assert.equal(await page.locator('.shop-receipt-print .shop-receipt-tick').count(), 1, 'with a tick');
    assert.equal(await text(page, '#shop-receipt-total'), 'Summe 5,00 €');
    assert.equal(await text(page, '#shop-receipt-tip'), 'inkl. 2,00 € Spende');
    assert.match(await text(page, '#shop-receipt-bought'), /^Gekauft am \d\d\.\d\d\.\d{4} um \d\d:\d\d$/);
    await screenshot(page, 'shop-375-de-receipt');

    // 3,00 € + 2,00 € to the vendor; the newspaper covers the card fee.
    await eventually(async () => (await credit()) === before + 500, 'the credit of DEMO-1 rises by 5,00 €');

    // The receipt survives a reload and opens from its address alone (a bookmark, another browser).
    await page.reload();
    await page.locator('#shop-receipt').waitFor();
    assert.equal(await text(page, '#shop-receipt-total'), 'Summe 5,00 €');
    const other = await phoneIn('de');
    await other.goto(`${server.url}/paymentconfirmation?order=${order}`);
    await other.locator('#shop-receipt').waitFor();
    assert.equal(await text(other, 'h1'), 'Bitte zeige diese Seite Anna');
    assert.equal(await other.locator('.shop-receipt-print').count(), 1);

    // The next purchase on this phone starts afresh.
    await page.goto(`${server.url}/v/DEMO-1/confirmation`);
    assert.deepEqual(await lines(page, '.shop-order-line'), ['1 × Zeitung 3,00 €']);
    assert.equal(await page.locator('#shop-order-tip').count(), 0);
    assert.equal(await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').isChecked(), false);
  });

  it('the same path in English with a custom tip typed with a comma, checked before it is taken', async () => {
    const page = await phoneIn('en');
    await page.goto(`${server.url}/v/DEMO-1`);
    assert.equal(await text(page, 'h1'), 'Buy a newspaper from Anna');
    assert.deepEqual(await lines(page, '.shop-cart-line'), ['1 × Newspaper €3.00']);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Other amount' }).click();
    const amount = page.getByLabel('Amount in €');
    const attempt = async (typed: string) => {
      await amount.fill(typed);
      await page.getByRole('button', { name: 'Next' }).click();
      return text(page, '[role="alert"]');
    };
    assert.equal(await attempt('-1'), 'The amount must not be negative.');
    assert.equal(await amount.getAttribute('aria-invalid'), 'true');
    assert.equal(await attempt('1,505'), 'Please enter the amount with at most 2 decimals.');
    assert.equal(await attempt('abc'), 'Please enter an amount like 1.50.');
    assert.equal(await attempt('147'), 'At most €146.99: an order must stay below €150.00.');
    await amount.fill('1,50');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.locator('#shop-confirmation').waitFor();
    assert.deepEqual(await lines(page, '#shop-order-lines li'), ['1 × Newspaper €3.00', 'Donation €1.50']);
    assert.equal(await text(page, '#shop-order-total'), 'Total €4.50');
    assert.equal(await text(page, '#shop-order-includes-tip'), 'includes €1.50 donation');
    const payButton = page.getByRole('button', { name: 'Pay' });
    assert.equal(await payButton.isDisabled(), true, 'not before the terms are accepted');
    assert.equal(await text(page, '#shop-terms-hint'), 'Please accept the terms to pay.');
    assert.equal(
      await page.getByRole('link', { name: 'terms' }).getAttribute('href'),
      'https://demo.strassenzeitung.org/agb',
    );
    await page.getByLabel('With this purchase I accept the terms').check();
    // Printed copies only: the receipt by e-mail is optional, and a mistyped address is caught first.
    const receiptEmail = page.getByLabel('Receipt by e-mail (optional)');
    assert.equal(await receiptEmail.inputValue(), '', 'a fresh phone remembers no address');
    await receiptEmail.fill('kim');
    await page.getByRole('button', { name: 'Pay' }).click();
    assert.equal(await text(page, '#shop-receipt-email-error'), 'Please enter a valid email address.');
    assert.match(page.url(), /\/v\/DEMO-1\/confirmation$/);
    await receiptEmail.fill('kim@example.org');
    const order = await pay(page, 'Pay');
    assert.deepEqual(await lines(page, '#sandbox-lines li'), ['Newspaper × 1 €3.00', 'Donation × 1 €1.50']);
    await payByCard(page, order);

    assert.equal(await text(page, 'h1'), 'Please show this page to Anna');
    assert.equal(await text(page, '#shop-receipt-total'), 'Total €4.50');
    assert.equal(await text(page, '#shop-receipt-tip'), 'includes €1.50 donation');
    assert.match(await text(page, '#shop-receipt-bought'), /^Bought on the \d\d\/\d\d\/\d{4} at \d\d:\d\d$/);
    assert.match(
      await text(page, '#shop-receipt-mail'),
      // No mail server here: the receipt says that none is sent.
      /^This shop sends no e-mails, not to k…@example\.org either – please keep this receipt/,
    );
    await screenshot(page, 'shop-375-en-receipt');
    await resize(page, { width: 1280, height: 800 });
    await screenshot(page, 'shop-1280-en-receipt');

    // The receipt leads back to Anna's shop, where the next order offers the remembered address.
    await page.getByRole('link', { name: 'Back to Anna’s shop' }).click();
    await page.waitForURL(`${server.url}/v/DEMO-1/landing-page`);
    assert.equal(await text(page, 'h1'), 'Buy a newspaper from Anna');
    await page.goto(`${server.url}/v/DEMO-1/confirmation`);
    assert.equal(await page.getByLabel('Receipt by e-mail (optional)').inputValue(), 'kim@example.org');
  });

  it('several items, a digital edition that asks for an e-mail address, its receipt tiles and its PDF', async () => {
    const page = await phoneIn('de');
    await page.goto(`${server.url}/v/DEMO-2`);
    await page.getByRole('link', { name: 'Andere Produkte' }).click();
    await page.getByRole('button', { name: 'Digitale Ausgabe: eins mehr' }).click();
    await page.getByRole('button', { name: 'Kalender 2027: eins mehr' }).click();
    await page.getByRole('button', { name: 'Kalender 2027: eins mehr' }).click();
    assert.equal(await text(page, '#shop-cart-total'), 'Summe: 26,00 €');
    await page.getByRole('link', { name: 'Details zu Kalender 2027' }).click();
    assert.equal(await text(page, 'h1'), 'Kalender 2027');
    assert.equal(await text(page, '#shop-item-available .shop-item-quantity'), '2', 'the calendar twice in the cart');
    await page.getByRole('link', { name: 'Zu den Produkten' }).click();
    await screenshot(page, 'shop-375-de-shop-filled');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: 'Heute nicht' }).click();

    // The e-mail step before the confirmation.
    assert.equal(await text(page, 'h1'), 'Dein Produkt Digitale Ausgabe braucht eine E-Mail-Adresse');
    await page.getByLabel('E-Mail-Adresse').fill('reader@');
    await page.getByRole('button', { name: 'Weiter' }).click();
    assert.equal(await text(page, '[role="alert"]'), 'Bitte gib eine gültige E-Mail-Adresse ein.');
    await page.getByLabel('E-Mail-Adresse').fill('reader@example.org');
    await page.getByRole('button', { name: 'Weiter' }).click();

    await page.locator('#shop-confirmation').waitFor();
    assert.deepEqual(await lines(page, '#shop-order-lines li'), [
      '1 × Zeitung 3,00 €',
      '1 × Digitale Ausgabe 3,00 €',
      '2 × Kalender 2027 20,00 €',
    ]);
    assert.equal(await text(page, '#shop-order-total'), 'Summe 26,00 €');
    assert.equal(await text(page, '#shop-email-for'), 'für reader@example.org · ändern');
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();
    const order = await pay(page, 'Bezahlen');
    assert.equal(await text(page, '#sandbox-email'), 'reader@example.org');
    await payByCard(page, order);
    // No mail server here: the receipt says that no mail is sent and the PDF is here.
    await eventually(async () => {
      const receipt = (await (await fetch(`${server.url}/api/orders/${order}/`)).json()) as { mail: string };
      return receipt.mail === 'off';
    }, 'no mail server: the PDF mail is not sent');
    await page.reload();
    await page.locator('#shop-receipt').waitFor();

    assert.match(await text(page, 'h1'), /^Bitte zeige diese Seite \S+$/);
    assert.deepEqual(
      await lines(page, '.shop-receipt-tile'),
      [
        'Zeitung',
        'Kalender 2027',
        'Kalender 2027',
        '1 × Digitale Ausgabe Dieser Shop verschickt keine E-Mails, auch nicht an r…@example.org – bitte lade das PDF hier herunter. Digitale Ausgabe herunterladen',
      ],
      'one tile per physical copy, then the edition by e-mail, saying that no mail is sent',
    );
    // Paid, with the number the office finds the order by.
    assert.match(await text(page, '#shop-receipt-paid'), /^Bezahlt Bestellnummer \d+$/);
    assert.equal(
      await page.locator('.shop-receipt-digital .shop-receipt-document').count(),
      1,
      'the digital edition has its own icon',
    );
    const download = page.getByRole('link', { name: 'Digitale Ausgabe herunterladen' });
    const href = (await download.getAttribute('href'))!;
    const pdf = await fetch(new URL(href, server.url));
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    await screenshot(page, 'shop-375-de-receipt-digital');

    // The link of the e-mail: the PDF page.
    const linkId = /\/api\/pdf\/([^/]+)\//.exec(href)![1];
    await page.goto(`${server.url}/pdf/${linkId}`);
    assert.equal(await text(page, 'h1'), 'Viel Spaß beim Lesen!');
    const again = await fetch(
      new URL(
        (await page.getByRole('link', { name: 'Digitale Ausgabe herunterladen' }).getAttribute('href'))!,
        server.url,
      ),
    );
    assert.equal(again.headers.get('content-type'), 'application/pdf');
    await screenshot(page, 'shop-375-de-pdf');

    // The address is remembered on this phone: the next digital purchase does not ask again.
    await page.goto(`${server.url}/v/DEMO-3/print-digital`);
    await page.getByRole('button', { name: /Digital \(E-Paper\)/ }).click();
    assert.deepEqual(
      await lines(page, '.shop-cart-line'),
      ['1 × Digitale Ausgabe 3,00 €'],
      'the digital edition instead of print',
    );
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: '1,00 €' }).click();
    assert.equal(await text(page, '#shop-email-for'), 'für reader@example.org · ändern');
    await page.getByRole('button', { name: 'ändern' }).click();
    assert.equal(await page.getByLabel('E-Mail-Adresse').inputValue(), 'reader@example.org');
  });

  it('a declined card, then "Try again" returns to the confirmation with the cart intact and pays', async () => {
    const page = await phoneIn('de');
    await page.goto(`${server.url}/v/DEMO-1`);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: '1,00 €' }).click();
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();
    await pay(page, 'Bezahlen');
    await page.locator('#card').fill(declinedCard);
    await page.locator('#sandbox-pay').click();
    assert.equal(await text(page, '#sandbox-error'), 'Ihre Karte wurde abgelehnt.');
    await page.locator('#sandbox-back').click();

    await page.waitForURL(/\/failure\?order=/);
    assert.equal(await text(page, 'h1'), 'Transaktion fehlgeschlagen');
    await screenshot(page, 'shop-375-de-failure');
    await page.getByRole('button', { name: 'Erneut versuchen' }).click();
    await page.waitForURL(`${server.url}/v/DEMO-1/confirmation`);
    assert.deepEqual(await lines(page, '#shop-order-lines li'), ['1 × Zeitung 3,00 €', 'Spende 1,00 €']);
    assert.equal(await text(page, '#shop-order-total'), 'Summe 4,00 €');
    const order = await pay(page, 'Bezahlen');
    await payByCard(page, order);
    assert.equal(await text(page, '#shop-receipt-total'), 'Summe 4,00 €');
  });

  it('the success page counts down while the payment is confirmed, then shows the receipt', async () => {
    const page = await phoneIn('de');
    await page.goto(`${server.url}/v/DEMO-1`);
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: 'Heute nicht' }).click();
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();
    const order = await pay(page, 'Bezahlen');
    const checkoutUrl = page.url();
    const sessionId = new URL(checkoutUrl).pathname.split('/').pop()!;

    // Back on the shop before the payment went through: the page waits, visibly.
    await page.goto(`${server.url}/success?order=${order}&session_id=${sessionId}`);
    assert.equal(await text(page, 'h1'), 'Deine Zahlung wird bestätigt …');
    const first = Number(await text(page, '#shop-countdown-seconds'));
    assert.ok(first > 0 && first <= 60, String(first));
    await page.waitForFunction(
      (start) => Number(document.getElementById('shop-countdown-seconds')?.textContent) < start,
      first,
    );
    // The number once, in large; the line below says what it counts without repeating it.
    assert.equal(await text(page, '#shop-countdown-text'), 'Sekunden');
    assert.equal(((await page.locator('#shop-success').innerText()).match(/\d+/g) ?? []).length, 1, 'one number');
    await screenshot(page, 'shop-375-de-success-waiting');

    await payInSandbox(server.url, checkoutUrl);
    await page.waitForURL(`${server.url}/paymentconfirmation?order=${order}`);
    assert.equal(await text(page, 'h1'), 'Bitte zeige diese Seite Anna');
    assert.equal(await text(page, '#shop-receipt-total'), 'Summe 3,00 €');
  });

  it('a reload on any step and the Back button keep the cart, the tip and the terms', async () => {
    const page = await phoneIn('de');
    await page.goto(`${server.url}/v/DEMO-4`);
    await page.getByRole('link', { name: 'Andere Produkte' }).click();
    await page.getByRole('button', { name: 'Kalender 2027: eins mehr' }).click();
    await page.reload();
    const calendarCount = page.locator('.shop-item', { hasText: 'Kalender 2027' }).locator('.shop-item-quantity');
    assert.equal(plain(await calendarCount.textContent()), '1', 'the calendar after a reload');
    await page.getByRole('button', { name: 'Weiter' }).click();
    await page.getByRole('button', { name: 'Anderer Betrag' }).click();
    await page.getByLabel('Betrag in €').fill('3,20');
    await page.getByRole('button', { name: 'Weiter' }).click();
    assert.equal(await text(page, '#shop-order-total'), 'Summe 16,20 €');
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();

    await page.goBack();
    assert.equal(await page.getByLabel('Betrag in €').inputValue(), '3,20');
    await page.goBack();
    assert.equal(await page.getByRole('button', { name: /Anderer Betrag/ }).getAttribute('aria-pressed'), 'true');
    assert.equal(await text(page, '#shop-tip-other'), 'Anderer Betrag (3,20 €)');
    await page.reload();
    assert.equal(await text(page, '#shop-tip-other'), 'Anderer Betrag (3,20 €)');
    await page.goBack();
    assert.equal(await text(page, '#shop-cart-total'), 'Summe: 13,00 €');
    await page.goForward();
    await page.goForward();
    await page.goForward();
    await page.locator('#shop-confirmation').waitFor();
    assert.equal(await text(page, '#shop-order-total'), 'Summe 16,20 €');
    await page.reload();
    assert.equal(await text(page, '#shop-order-total'), 'Summe 16,20 €');
    assert.equal(await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').isChecked(), true);
  });

  it('refuses an empty cart where it is emptied, offers no tip for it, and refuses a tip on its own', async () => {
    for (const [lang, minus, next, preset, empty, message, terms, payLabel] of [
      [
        'de',
        'Zeitung: eins weniger',
        'Weiter',
        '2,00 €',
        'Dein Warenkorb ist leer.',
        'Eine Spende allein ist nicht möglich – bitte wähle auch eine Zeitung.',
        'Mit diesem Kauf akzeptiere ich die AGB',
        'Bezahlen',
      ],
      [
        'en',
        'One Newspaper less',
        'Next',
        '€2.00',
        'Your cart is empty.',
        'A donation alone is not possible – please choose a newspaper too.',
        'With this purchase I accept the terms',
        'Pay',
      ],
    ] as const) {
      const page = await phoneIn(lang);
      // A tip chosen first, then the cart emptied.
      await page.goto(`${server.url}/v/DEMO-5/tipping`);
      await page.getByRole('button', { name: preset }).click();
      await page.waitForURL('**/v/DEMO-5/confirmation');
      await page.goto(`${server.url}/v/DEMO-5/shop`);
      await page.getByRole('button', { name: minus }).click();
      await page.getByRole('button', { name: next }).click();
      assert.equal(await text(page, '[role="alert"]'), empty);
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-5/shop', 'the shop step keeps the customer');
      // Opened by its address, the tip step is not offered for an empty cart: back to the products.
      await page.goto(`${server.url}/v/DEMO-5/tipping`);
      await page.waitForURL('**/v/DEMO-5/shop');
      await page.locator('#shop-shop').waitFor();
      assert.equal(await page.locator('#shop-tipping').count(), 0);
      // The confirmation refuses the tip on its own.
      await page.goto(`${server.url}/v/DEMO-5/confirmation`);
      assert.equal(await text(page, '#shop-order-problem'), message);
      await page.getByLabel(terms).check();
      assert.equal(await page.getByRole('button', { name: payLabel }).isDisabled(), true);
    }
  });

  it('says so before the card page when the total reaches the maximum order amount', async () => {
    await settings({ maxOrderAmount: '1500' });
    try {
      const page = await phoneIn('de');
      await page.goto(`${server.url}/v/DEMO-6/shop`);
      const more = page.getByRole('button', { name: 'Kalender 2027: eins mehr' });
      await more.click();
      assert.equal(await page.getByRole('alert').count(), 0, '13,00 € is below 15,00 €');
      await more.click();
      const tooHigh = 'Die Summe von 23,00 € ist zu hoch: eine Bestellung muss unter 15,00 € bleiben.';
      assert.equal(await text(page, '[role="alert"]'), tooHigh);
      await page.getByRole('button', { name: 'Weiter' }).click();
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-6/shop', 'the shop step keeps the customer');
      await page.goto(`${server.url}/v/DEMO-6/tipping`);
      await page.getByRole('button', { name: 'Heute nicht' }).click();
      assert.equal(await text(page, '[role="alert"]'), tooHigh);
      await page.goto(`${server.url}/v/DEMO-6/confirmation`);
      assert.equal(await text(page, '[role="alert"]'), tooHigh);
      await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();
      assert.equal(await page.getByRole('button', { name: 'Bezahlen' }).isDisabled(), true);

      // The custom tip cannot push an allowed cart over it either.
      await page.goto(`${server.url}/v/DEMO-6/shop`);
      await page.getByRole('button', { name: 'Kalender 2027: eins weniger' }).click();
      await page.goto(`${server.url}/v/DEMO-6/custom-tip`);
      await page.getByLabel('Betrag in €').fill('2');
      await page.getByRole('button', { name: 'Weiter' }).click();
      assert.equal(await text(page, '[role="alert"]'), 'Höchstens 1,99 €: eine Bestellung muss unter 15,00 € bleiben.');
      await page.getByLabel('Betrag in €').fill('1,99');
      await page.getByRole('button', { name: 'Weiter' }).click();
      assert.equal(await text(page, '#shop-order-total'), 'Summe 14,99 €');
      assert.equal(await page.getByRole('button', { name: 'Bezahlen' }).isEnabled(), true);
    } finally {
      await settings({ maxOrderAmount: '15000' });
    }
  });

  it('follows the settings: tip wording, licence id instead of the name, custom CSS by revision', async () => {
    await settings({ useTipInsteadOfDonation: 'true', useVendorLicenseIdInShop: 'true' });
    // The same selector the widget's own CSS uses: the newspaper's must come later and win.
    const revision = await customCss('.shop-primary { background: rgb(1, 2, 3); }');
    try {
      const page = await phoneIn('de');
      await page.goto(`${server.url}/v/DEMO-1`);
      assert.equal(await text(page, 'h1'), 'Kaufe eine Zeitung bei DEMO-1');
      assert.equal(await page.locator('#shop-custom-css').getAttribute('href'), `/public/style.css?rev=${revision}`);
      assert.equal(
        await page.locator('#shop-next').evaluate((el) => getComputedStyle(el).backgroundColor),
        'rgb(1, 2, 3)',
        'the newspaper’s CSS wins',
      );
      await page.getByRole('button', { name: 'Weiter' }).click();
      assert.equal(await text(page, 'h1'), 'Möchtest du ein Trinkgeld geben?');
      await page.getByRole('button', { name: '1,00 €' }).click();
      assert.deepEqual(await lines(page, '#shop-order-lines li'), ['1 × Zeitung 3,00 €', 'Trinkgeld 1,00 €']);
      assert.equal(await text(page, '#shop-order-includes-tip'), 'inkl. 1,00 € Trinkgeld');
    } finally {
      await settings({ useTipInsteadOfDonation: 'false', useVendorLicenseIdInShop: 'false' });
      await customCss('');
    }
  });

  it('shows the maintenance page while the shop is closed, and receipts still open', async () => {
    const page = await phoneIn('en');
    // A paid order from before the shop closed.
    await page.goto(`${server.url}/v/DEMO-1`);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Not today' }).click();
    await page.getByLabel('With this purchase I accept the terms').check();
    const order = await pay(page, 'Pay');
    await payByCard(page, order);

    await settings({ webshopIsClosed: 'true' });
    try {
      for (const path of ['/v/DEMO-1', '/v/DEMO-1/confirmation', '/']) {
        await page.goto(`${server.url}${path}`);
        assert.equal(await text(page, 'h1'), 'This page is currently under maintenance...', path);
      }
      assert.equal(
        await page.getByRole('link', { name: 'Learn more' }).getAttribute('href'),
        'https://demo.strassenzeitung.org/wartung',
      );
      await screenshot(page, 'shop-375-en-maintenance');
      await page.goto(`${server.url}/paymentconfirmation?order=${order}`);
      assert.equal(await text(page, 'h1'), 'Please show this page to Anna');
    } finally {
      await settings({ webshopIsClosed: 'false' });
    }
    await page.goto(`${server.url}/v/DEMO-1`);
    assert.equal(await text(page, 'h1'), 'Buy a newspaper from Anna');
  });

  it('an expired PDF link shows "invalid or expired" (the server restarted on the same data)', async () => {
    const page = await phoneIn('en');
    await page.goto(`${server.url}/v/DEMO-7/print-digital`);
    await page.getByRole('button', { name: /Digital \(e-paper\)/ }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Not today' }).click();
    await page.getByLabel('Email address').fill('late.reader@example.org');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('With this purchase I accept the terms').check();
    const order = await pay(page, 'Pay');
    await payByCard(page, order);
    const href = (await page.getByRole('link', { name: 'Download Digital edition' }).getAttribute('href'))!;
    const linkId = /\/api\/pdf\/([^/]+)\//.exec(href)![1];
    await page.goto(`${server.url}/pdf/${linkId}`);
    assert.equal(await text(page, 'h1'), 'Have fun reading!');

    // Six weeks later, as far as the database can tell.
    const { dataDir } = server;
    assert.equal(await server.stop(), 0);
    const db = new PGlite(dataDir);
    await db.query(`update download_links set expires_at = now() - interval '1 minute' where id = $1`, [linkId]);
    await db.close();
    server = e2e.server = await testServer({ dataDir });

    await page.goto(`${server.url}/pdf/${linkId}`);
    assert.equal(
      await text(page, '#shop-pdf-invalid'),
      'The link to the pdf is invalid or expired. Please contact the office.',
    );
    assert.equal(await page.getByRole('alert').count(), 1);
    await screenshot(page, 'shop-375-en-pdf-expired');
  });
});
