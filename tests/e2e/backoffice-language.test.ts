import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { seriousViolations } from './axe.ts';
import { chromiumArgs, chromiumPath, screenshot } from './browser.ts';
import { buyInShop } from './purchase.ts';
import { testServer } from './host.ts';
import { removeDir, type RunningServer } from './server.ts';

// a German back office shows no English word from the server or the
// browser, even in a browser whose own language is English (Chromium started with --lang=en-US):
// server refusals, the form's own checks and the days of date inputs are German.

/** English sentences the server or Chromium would say; none may show in the German back office. */
const english = /\b(the|this|please|is|are|must|already|taken|credit|cannot|valid|enter|field)\b/i;

describe('e2e: a German back office in an English browser', function () {
  this.timeout(240_000);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  before(async function () {
    // Under load (the suite runs beside others on two cores) the server may need a while to start.
    this.timeout(240_000);
    [server, browser] = await Promise.all([
      testServer({ readyTimeoutMs: 170_000 }),
      chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs, '--lang=en-US'] }),
    ]);
    // The browser's language, its Accept-Language and its date input are English.
    context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await openLoggedIn(page, `${server.url}/backoffice/vendorsummary`, 'office', 'office');
  });
  after(async function () {
    this.timeout(30_000);
    await browser?.close();
    if (server) {
      assert.equal(await server.stop(), 0);
      removeDir(server.dataDir);
    }
    assert.deepEqual(errors, [], 'the page threw no errors');
  });

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const field = (label: RegExp) => page.getByLabel(label);
  const helper = (label: RegExp) =>
    page
      .locator('.MuiFormControl-root')
      .filter({ has: field(label) })
      .locator('.MuiFormHelperText-root');
  const notification = () => page.locator('.MuiSnackbar-root');
  const api = async (path: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${await accessToken(page)}` } });

  it('is German although the browser is English', async () => {
    assert.equal(await page.evaluate(() => navigator.language), 'en-US');
    await page.getByText('Verkäufer·innen', { exact: true }).first().waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  });

  it('checks an e-mail without "@" with its own German message, not the browser’s English bubble', async () => {
    await page.goto(url('/newvendor'));
    await field(/^Ausweisnummer/).fill('DEMO-1');
    await field(/^Vorname/).fill('Erika');
    await field(/^E-Mail/).fill('erika-ohne-at');
    assert.equal(
      await page
        .locator('form')
        .first()
        .evaluate((form: HTMLFormElement) => form.noValidate),
      true,
    );
    await page.getByRole('button', { name: 'Speichern' }).click();
    const message = helper(/^E-Mail/);
    await message.filter({ hasText: 'Bitte eine gültige E-Mail-Adresse eingeben.' }).waitFor();
    assert.doesNotMatch(await message.innerText(), english);
    await screenshot(page, 'backoffice-language-email-de-en-browser');
  });

  it('shows the server’s refusal of a taken licence ID in German, at the field and in the notification', async () => {
    await field(/^E-Mail/).fill('erika@example.org');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await helper(/^Ausweisnummer/)
      .filter({ hasText: 'Diese Ausweisnummer ist bereits vergeben.' })
      .waitFor();
    // The notice of the earlier try (the e-mail) may still be fading: this one is waited for by its words.
    const said = notification().filter({
      hasText: /Die Ausweisnummer „DEMO-1“ ist bereits an eine andere Verkäuferin oder einen anderen Verkäufer/,
    });
    await said.waitFor();
    assert.doesNotMatch(await said.innerText(), english);
    const { violations } = await seriousViolations(page);
    const inForm = violations.filter((v) => v.targets.some((target) => /#vendor|input|MuiFormHelper/.test(target)));
    assert.deepEqual(inForm, [], 'no serious axe-core violation in the form’s fields and messages');
  });

  it('does not offer to delete a vendor with credit, and says why in German, the amount as 3,50 €', async () => {
    const items = (await (await fetch(`${server.url}/api/items`)).json()) as { id: number; name: string }[];
    await buyInShop(server.url, {
      vendor: 'DEMO-3',
      entries: [{ item: items.find((item) => item.name === 'Zeitung')!.id, quantity: 1 }],
      tip: 50,
    });
    const credited = await eventually(async () => {
      const found = (await (await api(`/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-3"}')}`)).json()) as {
        id: number;
        licenseId: string;
        credit: number;
      }[];
      return found.find((vendor) => vendor.licenseId === 'DEMO-3' && vendor.credit > 0);
    }, 'the purchase is booked to DEMO-3');
    await page.goto(url(`/userprofile/${credited.id}/update`));
    // Deleting is not offered while the credit is not zero; the reason stands beside the button.
    const amount = (credited.credit / 100).toFixed(2).replace('.', ',');
    const refusal = page.locator('#vendor-delete-blocked').filter({ hasText: `${amount}\u00a0€` });
    await refusal.waitFor();
    assert.equal(await page.locator('#vendor-delete').isDisabled(), true);
    assert.doesNotMatch(await refusal.innerText(), english);
    await screenshot(page, 'backoffice-language-delete-refused-de');
  });

  it('shows and takes days as dd.mm.yyyy, not as the English browser’s mm/dd/yyyy', async () => {
    const vendor = (await (await api(`/api/vendors?filter=${encodeURIComponent('{"q":"DEMO-4"}')}`)).json()) as {
      id: number;
      licenseId: string;
    }[];
    const id = vendor.find((v) => v.licenseId === 'DEMO-4')!.id;
    await page.goto(url(`/userprofile/${id}/update`));
    const registered = field(/^Registriert am/);
    assert.equal(await registered.getAttribute('type'), 'text', 'no native date input, which would follow the browser');
    assert.equal(await registered.getAttribute('placeholder'), 'TT.MM.JJJJ');
    await registered.fill('31.02.2026');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await helper(/^Registriert am/)
      .filter({ hasText: 'Bitte ein Datum wie 21.11.2026 eingeben.' })
      .waitFor();
    await registered.fill('10.10.2026');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await eventually(
      async () =>
        ((await (await api(`/api/vendors/${id}`)).json()) as { registrationDate: string }).registrationDate ===
        '2026-10-10',
      'the API keeps the ISO day',
    );
    await page.goto(url(`/userprofile/${id}`));
    await page.getByText('10.10.2026').first().waitFor();

    await page.goto(url('/statistics'));
    const from = page.locator('#period-from');
    await from.waitFor();
    assert.match(await from.inputValue(), /^\d{2}\.\d{2}\.\d{4}$/);
    await from.fill('01.05.2026');
    await page.locator('#period-to').fill('31.05.2026');
    assert.equal(await page.locator('#period-to').inputValue(), '31.05.2026');
    await page.waitForLoadState('networkidle');
    const body = await page.locator('main').innerText();
    assert.doesNotMatch(body, /\b\d{1,2}\/\d{1,2}\/\d{4}\b/, 'no mm/dd/yyyy anywhere');
    const { violations } = await seriousViolations(page);
    const inPicker = violations.filter((v) => v.targets.some((target) => /period-(from|to)/.test(target)));
    assert.deepEqual(inPicker, [], 'no serious axe-core violation in the day inputs');
    await screenshot(page, 'backoffice-language-statistics-de-en-browser');
  });
});
