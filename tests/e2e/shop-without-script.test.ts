import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';
import { expectAccessibleWithoutScript } from './axe.ts';
import { phone, screenshot } from './browser.ts';
import { buyInShop } from './purchase.ts';
import { useServerAndBrowser } from './suite.ts';

// The whole way from the badge to the receipt with JavaScript switched off, as on a phone whose
// script is blocked or broken: every step is a form the server answers (shop-widget/src/form.ts,
// api/src/shop/forms.ts), the card page is the sandbox's own form, and the receipt is drawn by the
// server. German and English, with the header, the newspaper's colours and its language throughout;
// the pages after the card page that the script draws from an API answer are drawn by the server too.

const texts = {
  'de-AT': {
    paid: 'Bezahlt',
    lines: ['Zeitung', 'Kalender 2027'],
    tip: /Spende|Trinkgeld/,
    badAmount: /Betrag/,
    total: '14,50',
    tipping: /^Schritt 1 von 3\s+Bisher 13,00\s€$/,
    confirmation: 'Schritt 2 von 3',
    noMail:
      'Dieser Shop verschickt keine E-Mails, auch nicht an k…@example.org – bitte bewahre diesen Beleg auf (z. B. als Bildschirmfoto).',
  },
  'en-GB': {
    paid: 'Paid',
    lines: ['Newspaper', 'Calendar 2027'],
    tip: /Donation|Tip/,
    badAmount: /amount/,
    total: '14.50',
    tipping: /^Step 1 of 3\s+So far €13\.00$/,
    confirmation: 'Step 2 of 3',
    noMail:
      'This shop sends no e-mails, not to k…@example.org either – please keep this receipt (as a screenshot, for example).',
  },
} as const;

describe('e2e: the shop without JavaScript, from the badge to the receipt', function () {
  this.timeout(240_000);
  const e2e = useServerAndBrowser();

  /** A click that sends a form or follows a link: the server's answer to it. */
  async function submit(page: Page, click: () => Promise<void>): Promise<Response | null> {
    const [answer] = await Promise.all([page.waitForNavigation(), click()]);
    return answer;
  }

  /** A phone's browser with JavaScript switched off, in `locale`: `body` on its page, then closed. */
  async function withoutScript(locale: string, body: (page: Page) => Promise<void>): Promise<void> {
    const context = await e2e.browser.newContext({ viewport: phone, locale, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await body(page);
    } finally {
      await context.close();
    }
  }

  /** What every page drawn by the server carries: the header, the colours, the language. */
  async function framed(page: Page, lang: string): Promise<void> {
    assert.equal(await page.getAttribute('html', 'lang'), lang);
    await page.locator('#shop-header #shop-newspaper-name').waitFor();
    assert.match((await page.locator('#shop-app').getAttribute('style')) ?? '', /--shop-color/);
    // The switch is a form the server answers: it works without the script too.
    assert.equal(await page.locator('#shop-language').isVisible(), true, 'the language switch is there');
    assert.equal(await page.locator(`#shop-language [data-lang="${lang}"]`).getAttribute('aria-pressed'), 'true');
  }

  for (const locale of ['de-AT', 'en-GB'] as const) {
    const words = texts[locale];
    const lang = locale.slice(0, 2);
    it(`buys a Zeitung and a Kalender with a tip of 1,50 and shows the paid receipt (${locale})`, async () => {
      await withoutScript(locale, async (page) => {
        await page.goto(`${e2e.server.url}/v/DEMO-1`);
        await framed(page, lang);

        // The shop: "+" on the calendar is a form; the page comes back with it counted.
        await submit(page, () => page.locator('#shop-other-products').click());
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/shop');
        const calendar = page.locator('.shop-item').filter({ hasText: words.lines[1] });
        const added = await submit(page, () => calendar.locator('.shop-item-increase').click());
        assert.equal(added?.status(), 200);
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/shop', 'back on the shop after the redirect');
        assert.equal(await calendar.locator('.shop-item-quantity').textContent(), '1');
        await framed(page, lang);
        await expectAccessibleWithoutScript(page, `the shop without script (${locale})`);

        // The tip: "other amount", a refused amount said in words, then 1,50.
        await submit(page, () => page.locator('#shop-next').click());
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/tipping');
        // From the tip on: where the customer is, and what the items come to.
        assert.match(await page.locator('#shop-progress').innerText(), words.tipping);
        await submit(page, () => page.locator('#shop-tip-other').click());
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/custom-tip');
        await page.locator('#shop-custom-tip-amount').fill('1,5x');
        const refused = await submit(page, () => page.locator('#shop-custom-tip-next').click());
        assert.equal(refused?.status(), 422);
        assert.match((await page.locator('#shop-custom-tip-error').textContent()) ?? '', words.badAmount);
        assert.equal(await page.locator('#shop-custom-tip-amount').inputValue(), '1,5x', 'what was typed stays');
        await expectAccessibleWithoutScript(page, `a refused tip without script (${locale})`);
        await page.locator('#shop-custom-tip-amount').fill('1,50');
        await submit(page, () => page.locator('#shop-custom-tip-next').click());

        // The confirmation: the lines, the tip, the total; the terms; Pay leads to the card page.
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/confirmation');
        assert.equal(await page.locator('#shop-progress').innerText(), words.confirmation);
        const lines = await page.locator('#shop-order-lines li').allInnerTexts();
        assert.equal(lines.length, 3, lines.join(' | '));
        assert.equal(lines[0].startsWith(`1 × ${words.lines[0]}`), true, lines[0]);
        assert.equal(lines[1].startsWith(`1 × ${words.lines[1]}`), true, lines[1]);
        assert.match(lines[2], words.tip);
        assert.match(lines[2], /1[,.]50/);
        assert.match((await page.locator('#shop-order-total-amount').textContent()) ?? '', new RegExp(words.total));
        assert.equal(await page.locator('#shop-pay').isEnabled(), true, 'Pay works without the script');
        await framed(page, lang);
        await expectAccessibleWithoutScript(page, `the confirmation without script (${locale})`);
        await screenshot(page, `shop-without-script-confirmation-${locale}-390`);
        await page.locator('#shop-terms').check();
        // Printed copies only: the pay form carries the optional address for the receipt by e-mail.
        await page.locator('#shop-receipt-email').fill('kim@example.org');
        await submit(page, () => page.locator('#shop-pay').click());
        assert.match(page.url(), /sandbox/, `the card page: ${page.url()}`);
        const charged = (await page.locator('#sandbox-lines li').allInnerTexts()).join(' | ');
        assert.ok(charged.includes(words.lines[1]), `${words.lines[1]} on the card page: ${charged}`);
        assert.match((await page.locator('#sandbox-total').textContent()) ?? '', new RegExp(words.total));

        // Paid: the server's receipt, asked again until the payment is booked.
        await page.locator('#card').fill('4242 4242 4242 4242');
        await submit(page, () => page.locator('#sandbox-pay').click());
        await page.locator('#shop-receipt-status').filter({ hasText: words.paid }).waitFor({ timeout: 30_000 });
        const tiles = await page.locator('.shop-receipt-tile-name').allInnerTexts();
        assert.deepEqual([...tiles].sort(), [...words.lines].sort());
        assert.match((await page.locator('#shop-receipt-total-amount').textContent()) ?? '', new RegExp(words.total));
        // No mail server here: the receipt says that nothing is sent, and to keep the page.
        assert.equal((await page.locator('#shop-receipt-mail').textContent())?.trim(), words.noMail);
        await framed(page, lang);
        await expectAccessibleWithoutScript(page, `the receipt without script (${locale})`);
        await screenshot(page, `shop-without-script-receipt-${locale}-390`);

        // The visit ended with the payment: the vendor's shop starts afresh.
        await page.goto(`${e2e.server.url}/v/DEMO-1/confirmation`);
        assert.equal(await page.locator('#shop-order-tip').count(), 0, 'no tip left over');
      });
    });
  }

  it('comes back from the card page unpaid to the failure page, whose "Try again" leads to the kept cart, which then pays', async () => {
    await withoutScript('de-AT', async (page) => {
      await page.goto(`${e2e.server.url}/v/DEMO-3/tipping`);
      await submit(page, () => page.locator('#shop-tip-200').click());
      await page.locator('#shop-terms').check();
      await submit(page, () => page.locator('#shop-pay').click());
      assert.match(page.url(), /sandbox/, `the card page: ${page.url()}`);

      // Back to the shop from the card page, without paying: Stripe's cancel address.
      await submit(page, () => page.locator('#sandbox-back').first().click());
      const failure = page.url();
      assert.equal(new URL(failure).pathname, '/failure');
      assert.equal(await page.locator('#shop-failure h1').innerText(), 'Transaktion fehlgeschlagen');
      await page.locator('#shop-failure-nothing-charged').waitFor();
      await framed(page, 'de');
      await expectAccessibleWithoutScript(page, 'the failure page without script (de-AT)');
      await screenshot(page, 'shop-without-script-failure-de-AT-390');

      await submit(page, () => page.locator('#shop-try-again').click());
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-3/confirmation');
      const lines = await page.locator('#shop-order-lines li').allInnerTexts();
      assert.equal(lines.length, 2, lines.join(' | '));
      assert.match(lines[0], /1 × Zeitung/, 'the cart as it was');
      assert.match(lines[1], /2,00/, 'the tip as it was');
      await page.locator('#shop-terms').check();
      await submit(page, () => page.locator('#shop-pay').click());
      await page.locator('#card').fill('4242 4242 4242 4242');
      await submit(page, () => page.locator('#sandbox-pay').click());
      await page.locator('#shop-receipt-status').filter({ hasText: 'Bezahlt' }).waitFor({ timeout: 30_000 });

      // Paid, the failure address of the same order shows its receipt.
      await page.goto(failure);
      await page.locator('#shop-receipt-status').filter({ hasText: 'Bezahlt' }).waitFor();
      assert.equal(await page.locator('#shop-failure').count(), 0);

      // An address of no order: the failure, without saying what was charged, and the way to a vendor.
      await page.goto(`${e2e.server.url}/failure?order=not-a-token`);
      await page.locator('#shop-failure-text').waitFor();
      assert.equal(await page.locator('#shop-failure-nothing-charged').count(), 0);
      assert.equal(await page.locator('#shop-try-again').getAttribute('href'), '/');
    });
  });

  it('asks for the terms on the server too, and keeps each vendor’s cart apart', async () => {
    await withoutScript('de-AT', async (page) => {
      await page.goto(`${e2e.server.url}/v/DEMO-1/tipping`);
      await submit(page, () => page.locator('#shop-tip-200').click());
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-1/confirmation');
      // A browser that skips the checkbox's own check: the server refuses and says why.
      const answer = await page.request.post(`${e2e.server.url}/v/DEMO-1/confirmation`, {
        form: { pay: 'order' },
        maxRedirects: 0,
      });
      assert.equal(answer.status(), 422);
      assert.match(await answer.text(), /AGB/);
      // Another vendor's shop has its own cart: no tip chosen there.
      await page.goto(`${e2e.server.url}/v/DEMO-2/confirmation`);
      assert.equal(await page.locator('#shop-order-tip').count(), 0);
      await page.goto(`${e2e.server.url}/v/DEMO-1/confirmation`);
      await page.locator('#shop-order-tip').waitFor();
    });
  });
  const pageTexts = {
    de: {
      pdf: 'Viel Spaß beim Lesen!',
      download: 'Digitale Ausgabe herunterladen',
      pdfInvalid: 'Der Link zum PDF ist ungültig oder abgelaufen. Bitte wende dich an das Büro.',
      noOrder: 'Keine Bestellung angegeben',
      invalid: 'Ungültige Zahlungsbestätigung',
      invalidText: /keine Bestellung/,
      howToGoOn: /Scanne den QR-Code/,
    },
    en: {
      pdf: 'Have fun reading!',
      download: 'Download Digital edition',
      pdfInvalid: 'The link to the pdf is invalid or expired. Please contact the office.',
      noOrder: 'No order given',
      invalid: 'Invalid payment confirmation',
      invalidText: /no order/,
      howToGoOn: /Scan the QR code/,
    },
  } as const;

  it('draws the PDF page of the e-mail’s link and the receipt and success pages without an order (de, en)', async () => {
    const items = (await (await fetch(`${e2e.server.url}/api/items/`)).json()) as { id: number; name: string }[];
    const digital = items.find((item) => item.name === 'Digitale Ausgabe')!;
    const token = await buyInShop(e2e.server.url, {
      vendor: 'DEMO-1',
      entries: [{ item: digital.id, quantity: 1 }],
      tip: 0,
      email: 'kim@example.org',
    });
    const receipt = (await (await fetch(`${e2e.server.url}/api/orders/${token}/`)).json()) as {
      downloads: { id: string }[];
    };
    const link = receipt.downloads[0].id;
    for (const [locale, lang] of [
      ['de-AT', 'de'],
      ['en-GB', 'en'],
    ] as const) {
      const words = pageTexts[lang];
      await withoutScript(locale, async (page) => {
        await page.setViewportSize({ width: 375, height: 812 });
        // The e-mail's link: the download, a plain link that works without the script.
        const pdf = await page.goto(`${e2e.server.url}/pdf/${link}`);
        assert.equal(pdf?.status(), 200);
        await framed(page, lang);
        assert.equal((await page.locator('#shop-pdf-title').textContent())?.trim(), words.pdf);
        const download = page.locator('#shop-pdf-download');
        assert.equal((await download.textContent())?.trim(), words.download);
        const file = await page.request.head(new URL((await download.getAttribute('href'))!, page.url()).href);
        assert.equal(file.headers()['content-type'], 'application/pdf');
        await expectAccessibleWithoutScript(page, `the PDF page without script (${locale})`);
        await screenshot(page, `shop-without-script-pdf-${locale}-375`);

        // A link that is not (or no longer) valid: it says so, with the way on.
        const invalidPdf = await page.goto(`${e2e.server.url}/pdf/not-a-link`);
        assert.equal(invalidPdf?.status(), 404);
        assert.equal((await page.locator('#shop-pdf-invalid').textContent())?.trim(), words.pdfInvalid);
        assert.match(await page.locator('#shop-how-to-go-on').innerText(), words.howToGoOn);
        await framed(page, lang);

        // The receipt's address without an order, and with one the shop does not know.
        await page.goto(`${e2e.server.url}/paymentconfirmation`);
        assert.equal((await page.locator('#shop-receipt-no-order').textContent())?.trim(), words.noOrder);
        await page.locator('#shop-receipt-no-order-text').waitFor();
        await framed(page, lang);
        await screenshot(page, `shop-without-script-no-order-${locale}-375`);
        const wrong = await page.goto(`${e2e.server.url}/paymentconfirmation?order=not-an-order`);
        assert.equal(wrong?.status(), 404);
        assert.equal((await page.locator('#shop-receipt-invalid').textContent())?.trim(), words.invalid);
        assert.match((await page.locator('#shop-receipt-invalid-text').textContent()) ?? '', words.invalidText);
        assert.match(await page.locator('#shop-how-to-go-on').innerText(), words.howToGoOn);
        await expectAccessibleWithoutScript(page, `a wrong receipt address without script (${locale})`);
        await screenshot(page, `shop-without-script-invalid-receipt-${locale}-375`);

        // Stripe's success address, bare or with an order the shop does not know.
        for (const address of ['/success', '/success?order=not-an-order&session_id=cs_test_none']) {
          await page.goto(`${e2e.server.url}${address}`);
          assert.equal((await page.locator('#shop-receipt-invalid').textContent())?.trim(), words.invalid, address);
          await framed(page, lang);
        }

        // The order's own address still shows its receipt, with its download.
        await page.goto(`${e2e.server.url}/success?order=${token}`);
        await page.locator('.shop-receipt-download').waitFor();
      });
    }
  });

  it('does not offer the tip for an empty cart: "Next" says the cart is empty, the tip’s address leads to the products', async () => {
    await withoutScript('de-AT', async (page) => {
      await page.goto(`${e2e.server.url}/v/DEMO-2/shop`);
      const zeitung = page.locator('.shop-item').filter({ hasText: 'Zeitung' }).first();
      await submit(page, () => zeitung.locator('.shop-item-decrease').click());
      assert.equal(await zeitung.locator('.shop-item-quantity').textContent(), '0');

      const refused = await submit(page, () => page.locator('#shop-next').click());
      assert.equal(refused?.status(), 422);
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-2/shop', 'still at the products');
      assert.equal((await page.locator('#shop-cart-problem').textContent())?.trim(), 'Dein Warenkorb ist leer.');
      assert.equal(await page.locator('#shop-tipping').count(), 0);

      for (const step of ['tipping', 'custom-tip']) {
        await page.goto(`${e2e.server.url}/v/DEMO-2/${step}`);
        assert.equal(new URL(page.url()).pathname, '/v/DEMO-2/shop', `${step} leads to the products`);
        assert.equal(await page.locator('#shop-tipping, #shop-custom-tip').count(), 0);
      }

      // One item in the cart: "Next" leads to the tip.
      await submit(page, () => zeitung.locator('.shop-item-increase').click());
      await submit(page, () => page.locator('#shop-next').click());
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-2/tipping');
      await page.locator('#shop-tipping').waitFor();
    });
  });

  it('switches the language without the script and stays where the customer is, cart and all', async () => {
    await withoutScript('de-AT', async (page) => {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto(`${e2e.server.url}/v/DEMO-3/shop`);
      const item = await page.locator('.shop-item').filter({ hasText: 'Kalender 2027' }).getAttribute('data-item');
      const calendar = page.locator(`.shop-item[data-item="${item}"]`);
      await submit(page, () => calendar.locator('.shop-item-increase').click());
      assert.equal((await page.locator('#shop-shop-title').textContent())?.trim(), 'Produkte');

      await submit(page, () => page.locator('#shop-language [data-lang="en"]').click());
      assert.equal(new URL(page.url()).pathname, '/v/DEMO-3/shop', 'the same step');
      assert.equal(new URL(page.url()).search, '', 'the choice is kept, not carried in the address');
      await framed(page, 'en');
      assert.equal((await page.locator('#shop-shop-title').textContent())?.trim(), 'Products');
      assert.equal(await calendar.locator('.shop-item-quantity').textContent(), '1', 'the cart as it was');
      await expectAccessibleWithoutScript(page, 'the shop in English after the switch without script');
      await screenshot(page, 'shop-without-script-language-en-375');

      // Kept for the next page, and an address's own query stays.
      await page.goto(`${e2e.server.url}/paymentconfirmation?order=not-an-order`);
      assert.equal((await page.locator('#shop-receipt-invalid').textContent())?.trim(), 'Invalid payment confirmation');
      await submit(page, () => page.locator('#shop-language [data-lang="de"]').click());
      assert.equal(new URL(page.url()).pathname, '/paymentconfirmation');
      assert.equal(new URL(page.url()).searchParams.get('order'), 'not-an-order');
      await framed(page, 'de');
      assert.equal(
        (await page.locator('#shop-receipt-invalid').textContent())?.trim(),
        'Ungültige Zahlungsbestätigung',
      );
    });
  });
});
