import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { screenshot, resize } from './browser.ts';
import { payInSandbox } from '../support/sandbox.ts';
import { buyInShop, placeOrder } from './purchase.ts';
import type { RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// After a payment the shop tells one story, the order's as the server has it: every address that
// names a paid order shows its receipt, and "Try again" of an unpaid one restores that order's own
// lines and tip in any browser.

type Lang = 'de' | 'en';
const locales: Record<Lang, string> = { de: 'de-AT', en: 'en-GB' };
const widths = [320, 390];
const declinedCard = '4000 0000 0000 0002';

/** Text as a person reads it: one space for any run of white space (amounts have a no-break space). */
const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

describe('e2e: the shop after a payment never contradicts the order', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];

  // Without a mail server the PDF mail stays in the outbox: the receipt must not call it sent.
  const e2e = useServerAndBrowser({ env: { SMTP_URL: '' } });
  before(() => ({ server, browser } = e2e));
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    assert.deepEqual(problems.splice(0), [], 'no page threw an error');
  });

  /** A browser that never saw the shop: its own storage. */
  async function freshBrowser(lang: Lang): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: locales[lang] });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    return page;
  }

  async function items(): Promise<Map<string, number>> {
    const list = (await (await fetch(`${server.url}/api/items/`)).json()) as { id: number; name: string }[];
    return new Map(list.map((item) => [item.name, item.id]));
  }

  const text = async (page: Page, selector: string) => plain(await page.locator(selector).textContent());

  async function accessibleAtPhoneWidths(page: Page, label: string): Promise<void> {
    for (const width of widths) {
      await resize(page, { width, height: 844 });
      await expectAccessible(page, `${label} at ${width} px`);
      await screenshot(page, `shop-after-payment-${label}-${width}`);
    }
  }

  it('shows a paid order’s receipt from its failure and success addresses, and says that no PDF mail is sent', async () => {
    const ids = await items();
    const order = {
      vendor: 'DEMO-1',
      entries: [{ item: ids.get('Digitale Ausgabe')!, quantity: 1 }],
      tip: 0,
      email: 'kim@example.org',
      locale: 'de',
    };
    const token = await buyInShop(server.url, order);
    // Without SMTP no mail is sent: the receipt says so, and the PDF is on it.
    await eventually(async () => {
      const receipt = (await (await fetch(`${server.url}/api/orders/${token}/`)).json()) as { mail: string };
      return receipt.mail === 'off';
    }, 'no mail server: the PDF mail is not sent');

    const receiptUrl = `${server.url}/paymentconfirmation?order=${token}`;
    const wording = {
      de: 'Dieser Shop verschickt keine E-Mails, auch nicht an k…@example.org – bitte lade das PDF hier herunter.',
      en: 'This shop sends no e-mails, not to k…@example.org either – please download the PDF here.',
    };
    for (const lang of ['de', 'en'] as const) {
      const page = await freshBrowser(lang);
      const addresses = [
        `/failure?order=${token}`,
        `/success?order=${token}`,
        `/success?order=${token}&session_id=cs_test_not_this_order`,
      ];
      for (const address of addresses) {
        await page.goto(`${server.url}${address}`);
        await page.waitForURL(receiptUrl);
        await page.locator('#shop-receipt').waitFor();
        assert.equal(await text(page, '#shop-receipt-status'), lang === 'de' ? 'Bezahlt' : 'Paid', address);
        assert.equal(await text(page, '.shop-receipt-pdf-sent'), wording[lang], address);
        const shown = await page.locator('#shop-content').innerText();
        assert.ok(!/nichts abgebucht|nothing was charged/i.test(shown), `${address}: ${shown}`);
      }
      await accessibleAtPhoneWidths(page, `receipt-${lang}`);
    }
  });

  it('leads from a paid receipt back to the vendor’s shop, with the script and without it', async () => {
    const ids = await items();
    const token = await buyInShop(server.url, {
      vendor: 'DEMO-1',
      entries: [{ item: ids.get('Zeitung')!, quantity: 1 }],
      tip: 0,
      locale: 'de',
    });
    const { vendor } = (await (await fetch(`${server.url}/api/orders/${token}/`)).json()) as { vendor: string };
    const wording = { de: `Zurück zum Shop von ${vendor}`, en: `Back to ${vendor}’s shop` };
    for (const lang of ['de', 'en'] as const) {
      const page = await freshBrowser(lang);
      await page.goto(`${server.url}/paymentconfirmation?order=${token}`);
      await page.locator('#shop-receipt').waitFor();
      assert.equal(await text(page, '#shop-receipt-back'), wording[lang]);
      if (lang === 'en') await accessibleAtPhoneWidths(page, 'receipt-back-link');
      await page.locator('#shop-receipt-back').click();
      await page.waitForURL(`${server.url}/v/DEMO-1/landing-page`);
      assert.equal(await text(page, '#shop-vendor-name'), vendor);
    }
    // The server's receipt for a browser without the script carries the same plain link.
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'de-AT' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/paymentconfirmation?order=${token}`);
    const back = page.locator('#shop-receipt-back');
    assert.equal(await text(page, '#shop-receipt-back'), wording.de);
    await back.click();
    await page.waitForURL(`${server.url}/v/DEMO-1/landing-page`);
    assert.equal(await text(page, '#shop-vendor-name'), vendor);
  });

  it('tells a refunded order as refunded, never as "not confirmed yet", on every address that names it', async () => {
    const ids = await items();
    const token = await buyInShop(server.url, {
      vendor: 'DEMO-1',
      entries: [{ item: ids.get('Zeitung')!, quantity: 1 }],
      tip: 0,
      locale: 'de',
    });
    // The office refunds it, as staff do from the orders screen.
    const office = await freshBrowser('de');
    await openLoggedIn(office, `${server.url}/backoffice/orders`, 'office', 'office');
    const headers = { Authorization: `Bearer ${await accessToken(office)}`, 'Content-Type': 'application/json' };
    const [newest] = (await (
      await fetch(`${server.url}/api/orders?sort=${encodeURIComponent('["id","DESC"]')}&range=[0,0]`, { headers })
    ).json()) as { id: number }[];
    const refund = await fetch(`${server.url}/api/orders/${newest.id}/refund/`, { method: 'POST', headers });
    assert.equal(refund.status, 200, await refund.text());
    await eventually(async () => {
      const receipt = (await (await fetch(`${server.url}/api/orders/${token}/`)).json()) as { status: string };
      return receipt.status === 'refunded';
    }, 'the order is refunded');
    for (const lang of ['de', 'en'] as const) {
      const page = await freshBrowser(lang);
      for (const address of [`/paymentconfirmation?order=${token}`, `/failure?order=${token}`]) {
        await page.goto(`${server.url}${address}`);
        await page.locator('#shop-receipt-refunded').waitFor();
        const shown = plain(await page.locator('#shop-content').innerText());
        assert.match(shown, lang === 'de' ? /Diese Zahlung wurde erstattet/ : /This payment was refunded/, address);
        // Still the receipt, marked as refunded: its number, lines, amount and dates.
        assert.equal(await text(page, '#shop-receipt-status'), lang === 'de' ? 'Erstattet' : 'Refunded');
        assert.equal(
          await text(page, '#shop-receipt-number'),
          `${lang === 'de' ? 'Bestellnummer' : 'Order number'} ${newest.id}`,
        );
        assert.deepEqual((await page.locator('#shop-receipt-tiles li').allInnerTexts()).map(plain), [
          lang === 'de' ? 'Zeitung' : 'Newspaper',
        ]);
        assert.equal(await text(page, '#shop-receipt-total'), lang === 'de' ? 'Summe 3,00 €' : 'Total €3.00');
        assert.match(
          await text(page, '#shop-receipt-bought'),
          lang === 'de'
            ? /^Gekauft am \d\d\.\d\d\.\d{4} um \d\d:\d\d$/
            : /^Bought on the \d\d\/\d\d\/\d{4} at \d\d:\d\d$/,
        );
        assert.match(
          await text(page, '#shop-receipt-refunded-text'),
          lang === 'de'
            ? /^Erstattet am \d\d\.\d\d\.\d{4} um \d\d:\d\d\. Das Geld geht auf die Karte zurück/
            : /^Refunded on the \d\d\/\d\d\/\d{4} at \d\d:\d\d\. The money goes back to the card/,
        );
        assert.ok(
          !/nicht bestätigt|not confirmed|nichts abgebucht|nothing was charged/i.test(shown),
          `${address}: ${shown}`,
        );
      }
      await accessibleAtPhoneWidths(page, `refunded-${lang}`);
    }
  });

  it('shows the receipt, and places no second order, when "Try again" on a second device meets an order paid meanwhile', async () => {
    const ids = await items();
    const placed = await placeOrder(server.url, {
      vendor: 'DEMO-1',
      entries: [{ item: ids.get('Zeitung')!, quantity: 2 }],
      tip: 0,
      locale: 'de',
    });
    // The second device opens the failure link while the order is unpaid and takes "Try again".
    const page = await freshBrowser('de');
    await page.goto(`${server.url}/failure?order=${placed.token}`);
    await page.locator('#shop-try-again').click();
    await page.waitForURL(`${server.url}/v/DEMO-1/confirmation`);
    // Drawn once the vendor's check has answered: the lines are waited for, not read at once.
    await page.locator('#shop-order-lines li').first().waitFor();
    assert.deepEqual((await page.locator('#shop-order-lines li').allInnerTexts()).map(plain), ['2 × Zeitung 6,00 €']);

    // Meanwhile the first device pays.
    await payInSandbox(server.url, placed.checkoutUrl);
    await eventually(async () => {
      const receipt = (await (await fetch(`${server.url}/api/orders/${placed.token}/`)).json()) as { status: string };
      return receipt.status === 'paid';
    }, 'the order is paid');
    const [before] = await newestOrders();

    // "Pay" on the second device: the paid order's receipt, not Stripe's page of a new order.
    await page.getByLabel('Mit diesem Kauf akzeptiere ich die AGB').check();
    await page.locator('#shop-pay').click();
    await page.waitForURL(`${server.url}/paymentconfirmation?order=${placed.token}`);
    assert.equal(await text(page, '#shop-receipt-status'), 'Bezahlt');
    const [after] = await newestOrders();
    assert.equal(after.id, before.id, 'no new order');

    // A third device opening "Try again" after the payment goes straight to the receipt as well.
    const third = await freshBrowser('en');
    await third.goto(`${server.url}/failure?order=${placed.token}`);
    await third.waitForURL(`${server.url}/paymentconfirmation?order=${placed.token}`);
    assert.equal(await text(third, '#shop-receipt-status'), 'Paid');
  });

  /** The newest order as the office lists it. */
  async function newestOrders(): Promise<{ id: number }[]> {
    const office = await freshBrowser('de');
    await openLoggedIn(office, `${server.url}/backoffice/orders`, 'office', 'office');
    const headers = { Authorization: `Bearer ${await accessToken(office)}` };
    const answer = await fetch(`${server.url}/api/orders?sort=${encodeURIComponent('["id","DESC"]')}&range=[0,0]`, {
      headers,
    });
    return (await answer.json()) as { id: number }[];
  }

  it('restores a declined 17,00 € order’s lines and tip with "Try again" in a fresh browser', async () => {
    const ids = await items();
    const placed = await placeOrder(server.url, {
      vendor: 'DEMO-1',
      entries: [
        { item: ids.get('Zeitung')!, quantity: 2 },
        { item: ids.get('Kalender 2027')!, quantity: 1 },
      ],
      tip: 100,
      locale: 'de',
    });

    // The card is declined; the customer leaves the card page by its way back.
    const paying = await freshBrowser('de');
    await paying.goto(placed.checkoutUrl);
    await paying.locator('#card').fill(declinedCard);
    await paying.locator('#sandbox-pay').click();
    assert.equal(await text(paying, '#sandbox-error'), 'Ihre Karte wurde abgelehnt.');
    await paying.locator('#sandbox-back').click();
    await paying.waitForURL(`${server.url}/failure?order=${placed.token}`);
    assert.equal(await text(paying, '#shop-failure-nothing-charged'), 'Es wurde nichts abgebucht.');

    // The same link in another browser, which holds no cart.
    for (const lang of ['en', 'de'] as const) {
      const page = await freshBrowser(lang);
      await page.goto(`${server.url}/failure?order=${placed.token}`);
      assert.equal(await text(page, 'h1'), lang === 'de' ? 'Transaktion fehlgeschlagen' : 'Transaction failed');
      await accessibleAtPhoneWidths(page, `failure-${lang}`);
      await page.locator('#shop-try-again').click();
      await page.waitForURL(`${server.url}/v/DEMO-1/confirmation`);
      await page.locator('#shop-order-lines li').first().waitFor();
      const lines = (await page.locator('#shop-order-lines li').allInnerTexts()).map(plain);
      assert.deepEqual(
        lines,
        lang === 'de'
          ? ['2 × Zeitung 6,00 €', '1 × Kalender 2027 10,00 €', 'Spende 1,00 €']
          : ['2 × Newspaper €6.00', '1 × Calendar 2027 €10.00', 'Donation €1.00'],
      );
      assert.equal(await text(page, '#shop-order-total-amount'), lang === 'de' ? '17,00 €' : '€17.00');
    }
  });
});
