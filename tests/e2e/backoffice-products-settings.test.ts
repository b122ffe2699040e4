import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_NEWSPAPER_NAME } from '../../seeds/demo.ts';
import { pngBytes } from '../support/fixtures.ts';
import { accessToken, backofficeTitle, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { coveredWhileTabbing, keyboardFocusRing, phone, screenshot, resize } from './browser.ts';
import type { RunningServer } from './server.ts';

// products and settings in the back office — a product with an image, the server's
// refusals at the fields and never a success notice for a failed save, and a
// changed setting that the shop shows.
describe('e2e: products and settings in the back office', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/productsettings' });
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  before(() => ({ server, context, page } = tab));

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async (path: string) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${await accessToken(page)}` } });
  const field = (label: RegExp | string) => page.getByLabel(label, { exact: typeof label === 'string' });
  const fieldMessage = (label: RegExp | string) =>
    page
      .locator('.MuiFormControl-root')
      .filter({ has: field(label) })
      .locator('.MuiFormHelperText-root');
  const notification = () => page.locator('.MuiSnackbar-root');
  const save = () => page.getByRole('button', { name: 'Speichern', exact: true }).click();

  interface Item {
    id: number;
    name: string;
    price: number;
    counterPrice: number | null;
    order: number;
    image: string | null;
    licenseItem: number | null;
  }
  let product: Item;

  it('creates a product with an image: listed with its image and its price in euros', async () => {
    await page.goto(url('/newproduct'));
    await field(/^Name/).fill('Wandkalender');
    await field(/^Preis/).fill('12,50');
    await field('Reihenfolge (höher zuerst)').fill('5');
    await field(/^Thekenpreis/).fill('1,20');
    await page
      .locator('input[type="file"]')
      .first()
      .setInputFiles({ name: 'kalender.png', mimeType: 'image/png', buffer: pngBytes([21, 101, 192], 16) });
    await page.locator('.RaImageField-image, img[title="kalender.png"]').first().waitFor();
    await save();
    await page.waitForURL(url('/productsettings'));

    const items = (await (await api('/api/items/backoffice?filter={"q":"Wandkalender"}')).json()) as Item[];
    assert.equal(items.length, 1);
    product = items[0];
    assert.equal(product.price, 1250, '12,50 € is stored as 1250 cents');
    assert.equal(product.order, 5);
    assert.equal(product.counterPrice, 120, 'the counter price is saved with the product');
    assert.match(product.image ?? '', /^\/files\//);

    const row = page.locator('table tbody tr').filter({ hasText: 'Wandkalender' });
    await row.waitFor();
    assert.match(await row.innerText(), /12,50\s€/);
    await row
      .locator('img')
      .evaluate(
        (img: HTMLImageElement) => img.complete || new Promise((resolve) => img.addEventListener('load', resolve)),
      );
    assert.ok(
      await row.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth === 16),
      'the uploaded image is shown',
    );
    await screenshot(page, 'backoffice-products-with-new-1280');
    await resize(page, phone);
    await screenshot(page, 'backoffice-products-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('shows the server’s refusal of a product at the field, and no success notice', async () => {
    await page.goto(url(`/productsettings/update/${product.id}`));
    await field(/^Preis/).fill('0,30');
    await field('Lizenzprodukt').click();
    await page.getByRole('option', { name: 'Digitale Ausgabe – Lizenz' }).click();
    await save();
    await fieldMessage(/^Preis/)
      .filter({ hasText: 'Der Preis muss mindestens der Preis seines Lizenzartikels' })
      .waitFor();
    assert.doesNotMatch(await notification().innerText(), /aktualisiert/);
    assert.equal(new URL(page.url()).pathname, `/backoffice/productsettings/update/${product.id}`);
    const stored = (await (await api(`/api/items/${product.id}`)).json()) as Item;
    assert.deepEqual([stored.price, stored.licenseItem], [1250, null], 'nothing was saved');
    await screenshot(page, 'backoffice-product-refused-1280');
  });

  it('checks euro amounts before sending them', async () => {
    await page.goto(url(`/productsettings/update/${product.id}`));
    await field(/^Preis/).fill('12,505');
    await save();
    await fieldMessage(/^Preis/)
      .filter({ hasText: 'Bitte einen Betrag in EUR eingeben, zum Beispiel 2,50.' })
      .waitFor();
  });

  it('shows the server’s refusal of a setting at the field, and no success notice', async () => {
    await page.goto(url('/settings/update'));
    const terms = field('AGB (URL)');
    const before = await terms.inputValue();
    await terms.fill('ftp://example.org/agb');
    await save();
    await fieldMessage('AGB (URL)')
      .filter({
        hasText: 'Bitte eine Adresse eingeben, die mit https:// oder http:// beginnt, oder das Feld leer lassen.',
      })
      .waitFor();
    // The server's words, naming the field by its label on this screen.
    assert.match(await notification().innerText(), /„AGB \(URL\)“/, 'the notice says what the server said');
    assert.doesNotMatch(await notification().innerText(), /agbUrl/);
    assert.doesNotMatch(await notification().innerText(), /gespeichert/, 'a failed save never shows success');
    await screenshot(page, 'backoffice-settings-refused-1280');
    await page.reload();
    assert.equal(await field('AGB (URL)').inputValue(), before, 'nothing was saved');
  });

  it('shows which switch the keyboard is on: a dark ring around its knob', async () => {
    await page.goto(url('/settings/update'));
    const ring = await keyboardFocusRing(field('Shop geschlossen (Wartung)'), '.MuiSwitch-root', '.MuiSwitch-thumb');
    assert.match(ring.before, /^none /, 'no ring before the keyboard comes');
    // MUI's own mark, a ripple, did not show at all: the focused switch looked like every other one.
    assert.equal(ring.after, 'solid 2px rgb(26, 26, 26)');
  });

  it('saves a new name and colour: the back office and the shop show them', async () => {
    await page.goto(url('/settings/update'));
    assert.equal(
      await backofficeTitle(page, `${DEMO_NEWSPAPER_NAME} | Einstellungen`),
      `${DEMO_NEWSPAPER_NAME} | Einstellungen`,
    );
    await field('Name der Zeitung').fill('Straßenblatt E2E');
    await field('Farbe').fill('#1565c0');
    await save();
    await notification().filter({ hasText: 'Einstellungen gespeichert' }).waitFor();
    assert.equal(await backofficeTitle(page, 'Straßenblatt E2E | Einstellungen'), 'Straßenblatt E2E | Einstellungen');
    assert.equal(
      await page.locator('header.MuiAppBar-root').evaluate((bar) => getComputedStyle(bar).backgroundColor),
      'rgb(21, 101, 192)',
    );
    await screenshot(page, 'backoffice-settings-saved-1280');

    const shop = await context.newPage();
    await shop.goto(`${server.url}/v/DEMO-1`);
    await shop.waitForFunction(() => document.title === 'Straßenblatt E2E');
    await screenshot(shop, 'shop-after-settings-change');
    await shop.close();
  });

  it('saves the shop’s custom CSS and moves its revision on', async () => {
    await page.goto(url('/settings/update'));
    const revision = page.locator('#settings-css-revision');
    await revision.filter({ hasText: 'Revision 0' }).waitFor();
    await page.locator('#settings-css-text').fill('#shop-landing-title { letter-spacing: 2px; }');
    await page.locator('#settings-css-save').click();
    await revision.filter({ hasText: 'Revision 1' }).waitFor();
    await notification().filter({ hasText: 'CSS gespeichert (Revision 1)' }).waitFor();
    assert.equal(
      await (await fetch(`${server.url}/public/style.css?rev=1`)).text(),
      '#shop-landing-title { letter-spacing: 2px; }',
    );
    await resize(page, phone);
    await screenshot(page, 'backoffice-settings-390');
    // The longest form: going down it with the keyboard, no focused field lies behind the save bar.
    assert.deepEqual(await coveredWhileTabbing(page, 'form'), []);
    await resize(page, { width: 1280, height: 900 });
  });

  it('sets the VAT rate of the newspaper and of a product, refusals at the field in German and English', async () => {
    // The newspaper: its address (the seller on the purchase receipt) and its rate, a wrong one refused.
    await page.goto(url('/settings/update'));
    const rate = field('Mehrwertsteuersatz in den Preisen (%)');
    assert.equal(await rate.inputValue(), '7', 'Germany’s reduced rate until chosen');
    await rate.fill('7,555');
    await save();
    await fieldMessage('Mehrwertsteuersatz in den Preisen (%)')
      .filter({
        hasText: 'Bitte den Mehrwertsteuersatz in Prozent zwischen 0 und 100 eingeben, zum Beispiel 7 oder 5,5.',
      })
      .waitFor();
    await screenshot(page, 'backoffice-settings-vat-refused-1280');
    await rate.fill('10');
    await field('Anschrift der Zeitung (auf dem Kaufbeleg)').fill('Stumpergasse 1\n1060 Wien');
    // The address and tax identity the tills' exports to the tax office name.
    await field('Straße und Hausnummer').fill('Stumpergasse 1');
    await field('Postleitzahl').fill('1060');
    await field('Ort').fill('Wien');
    await field('Land (ISO-Code)').fill('aut');
    await field('Umsatzsteuer-Identifikationsnummer').fill('ATU 12345678');
    await save();
    await notification().filter({ hasText: 'Einstellungen gespeichert' }).waitFor();
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as {
      vatRate: number;
      newspaperAddress: string;
      companyStreet: string;
      companyPostcode: string;
      companyTown: string;
      companyCountry: string;
      vatId: string;
    };
    assert.deepEqual([settings.vatRate, settings.newspaperAddress], [10, 'Stumpergasse 1\n1060 Wien']);
    assert.deepEqual(
      [settings.companyStreet, settings.companyPostcode, settings.companyTown, settings.companyCountry, settings.vatId],
      ['Stumpergasse 1', '1060', 'Wien', 'AUT', 'ATU12345678'],
    );
    await screenshot(page, 'backoffice-settings-vat-de-1280');
    await expectAccessible(page, 'the settings with the VAT rate (German)');
    await resize(page, phone);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'backoffice-settings-vat-de-390');
    await resize(page, { width: 1280, height: 900 });

    // A product of its own rate, in English: the newspaper's rate named where the field is empty.
    await page.locator('#backoffice-language button[value="en"]').click();
    await page.goto(url(`/productsettings/update/${product.id}`));
    const own = page.getByLabel('VAT rate (%)', { exact: true });
    await page.getByText('Empty: the newspaper’s rate (10%)').waitFor();
    await own.fill('seven');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .locator('.MuiFormControl-root')
      .filter({ has: own })
      .locator('.MuiFormHelperText-root')
      .filter({ hasText: 'Please enter the VAT rate in percent between 0 and 100, for example 7 or 5.5.' })
      .waitFor();
    await screenshot(page, 'backoffice-product-vat-refused-en-1280');
    await own.fill('5.5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(url('/productsettings'));
    const stored = (await (await api(`/api/items/${product.id}`)).json()) as { vatRate: number | null };
    assert.equal(stored.vatRate, 5.5);
    await page.goto(url(`/productsettings/update/${product.id}`));
    assert.equal(await own.inputValue(), '5.5');
    await screenshot(page, 'backoffice-product-vat-en-1280');
    await expectAccessible(page, 'the product form with its VAT rate (English)');
    await resize(page, phone);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'backoffice-product-vat-en-390');
    await resize(page, { width: 1280, height: 900 });
    await page.locator('#backoffice-language button[value="de"]').click();
    await page.goto(url(`/productsettings/update/${product.id}`));
    assert.equal(await field('Mehrwertsteuersatz (%)').inputValue(), '5,5', 'German shows a decimal comma');
    await page.getByText('Leer: der Satz der Zeitung (10 %)').waitFor();
    await screenshot(page, 'backoffice-product-vat-de-1280');
    await resize(page, phone);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'backoffice-product-vat-de-390');
    await resize(page, { width: 1280, height: 900 });
  });

  it('chooses the German of the mails and writes the shop’s description: the shop’s page carries it', async () => {
    await page.goto(url('/settings/update'));
    const variant = page.getByRole('combobox', { name: 'Datum in deutschen E-Mails' });
    await variant.filter({ hasText: 'Wie in Deutschland: 8. Januar 2027' }).waitFor();
    await variant.click();
    await page.getByRole('option', { name: 'Wie in Österreich: 8. Jänner 2027' }).click();
    const description = field('Beschreibung für Suchmaschinen');
    await page.getByText('Steht in Suchergebnissen und Link-Vorschauen unter dem Namen des Shops').waitFor();
    await description.fill('x'.repeat(301));
    await save();
    await fieldMessage('Beschreibung für Suchmaschinen').filter({ hasText: '300' }).waitFor();
    assert.equal(
      ((await (await fetch(`${server.url}/api/settings`)).json()) as { germanVariant: string }).germanVariant,
      'de-DE',
      'nothing saved while a field is refused',
    );
    await description.fill('Die Straßenzeitung aus Wien: gedruckt und digital, bei Ihrer Verkäuferin.');
    await save();
    await notification().filter({ hasText: 'Einstellungen gespeichert' }).waitFor();
    const settings = (await (await fetch(`${server.url}/api/settings`)).json()) as {
      germanVariant: string;
      metaDescription: string;
    };
    assert.deepEqual(
      [settings.germanVariant, settings.metaDescription],
      ['de-AT', 'Die Straßenzeitung aus Wien: gedruckt und digital, bei Ihrer Verkäuferin.'],
    );
    const shop = await (await fetch(`${server.url}/v/DEMO-1`)).text();
    assert.match(
      shop,
      /<meta name="description" content="Die Straßenzeitung aus Wien: gedruckt und digital, bei Ihrer Verkäuferin\.">/,
    );
    await page.reload();
    await variant.filter({ hasText: 'Wie in Österreich: 8. Jänner 2027' }).waitFor();
    await screenshot(page, 'backoffice-settings-description-1280');
    await expectAccessible(page, 'the settings with the German of the mails and the description');
  });
});
