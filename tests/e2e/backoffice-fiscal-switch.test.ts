import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import jsQR from 'jsqr';
import type { BrowserContext, Page } from 'playwright-core';
import { accessToken, openLoggedIn } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { printToPdf } from './print.ts';
import { outputDir, type RunningServer } from './server.ts';
import { useServerAndBrowser } from './suite.ts';

// The till's signing as staff use it in the back office, with the installation's FISCAL_MODE off
// (the default): the counter says plainly that the till signs nothing; staff switch it to test mode
// on the tills screen (confirmed; live without credentials is refused with the API's reason); a
// visit at the counter prints a Kaufbeleg whose TSE block and QR code (decoded from the PDF's own
// picture) hold the signature; the ELSTER page shows the TSE's serial number; the DSFinV-K ZIP
// downloads from its button. German, then English; axe and both widths on every screen it adds.

const run = promisify(execFile);

/** The pixels of a PNM file (P4, P5 or P6, as poppler's pdfimages writes them) as RGBA. */
function pnmToRgba(file: Buffer): { data: Uint8ClampedArray; width: number; height: number } {
  const head = file.toString('latin1', 0, 64);
  // P4 (bits) has no maximum value; P5 (grey) and P6 (colour) have one, all with 8-bit samples here.
  const header = /^P4\s+(\d+)\s+(\d+)\s/.exec(head) ?? /^P[56]\s+(\d+)\s+(\d+)\s+255\s/.exec(head);
  assert.ok(header, 'a PNM picture');
  const kind = head.slice(0, 2);
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = file.subarray(header[0].length);
  const data = new Uint8ClampedArray(width * height * 4);
  const rowBytes = Math.ceil(width / 8);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const grey =
        kind === 'P4'
          ? (pixels[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1
            ? 0
            : 255
          : kind === 'P5'
            ? pixels[i]
            : Math.round((pixels[i * 3] + pixels[i * 3 + 1] + pixels[i * 3 + 2]) / 3);
      data.set([grey, grey, grey, 255], i * 4);
    }
  return { data, width, height };
}

/** Every QR code among the pictures of a PDF, decoded. */
async function qrCodesOf(pdfFile: string): Promise<string[]> {
  const prefix = path.join(outputDir, `${path.basename(pdfFile, '.pdf')}-img`);
  await run('pdfimages', [pdfFile, prefix]);
  const pictures = fs
    .readdirSync(outputDir)
    .filter((name) => name.startsWith(path.basename(prefix)) && /\.p[bgp]m$/.test(name));
  const codes: string[] = [];
  for (const name of pictures) {
    const { data, width, height } = pnmToRgba(fs.readFileSync(path.join(outputDir, name)));
    const code = jsQR(data, width, height);
    if (code) codes.push(code.data);
  }
  return codes;
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('e2e: staff switch a till to test mode, print a signed Kaufbeleg, see the ELSTER data, download the DSFinV-K', function () {
  this.timeout(300_000);
  const e2e = useServerAndBrowser();
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const vendor = 'DEMO-2';
  before(async () => {
    server = e2e.server;
    context = await e2e.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'de-DE',
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await openLoggedIn(page, `${server.url}/backoffice/counter/${vendor}`, 'office', 'office');
  });
  after(async () => {
    await context?.close();
    assert.deepEqual(pageErrors, [], 'the page threw no errors');
  });

  const url = (p: string) => `${server.url}/backoffice${p}`;
  const api = async (p: string) => {
    const response = await fetch(`${server.url}${p}`, {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
    });
    assert.equal(response.status, 200, `${p}: ${response.status}`);
    return response;
  };
  // react-admin's loading indicator (a progressbar without a name) shows while a query still loads.
  const settled = () => page.waitForFunction(() => !document.querySelector('[role="progressbar"]'));
  const lookAt = async (name: string) => {
    await settled();
    await expectAccessible(page, `${name} (1280)`);
    await screenshot(page, `${name}-1280`);
    await resize(page, phone);
    await settled();
    await expectAccessible(page, `${name} (390)`);
    await screenshot(page, `${name}-390`);
    await resize(page, { width: 1280, height: 900 });
  };
  // The select shows the choice before anything else is clicked: a choice that did not take fails here, by name.
  const choose = async (select: string, option: string) => {
    await page.locator(select).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await page
      .locator(select)
      .filter({ hasText: new RegExp(`^${option}$`) })
      .waitFor();
  };
  const confirmDialog = async (text: string, button: string) => {
    const dialog = page.getByRole('dialog');
    await dialog.locator('#till-fiscal-confirm').filter({ hasText: text }).waitFor();
    await dialog.getByRole('button', { name: button }).click();
    await dialog.waitFor({ state: 'detached' });
  };

  let tillId = 0;
  let visitId = '';

  it('says on the counter that the till signs nothing, refuses live without credentials and switches to test mode (German)', async () => {
    const notice = page.locator('#counter-fiscal-off');
    await notice.filter({ hasText: 'Diese Kasse signiert nicht (TSE aus)' }).waitFor();
    await notice.getByRole('link', { name: 'Das Signieren wird unter Kassen eingestellt.' }).click();
    await page.waitForURL(url('/tills'));
    const now = page.locator('#till-fiscal-now');
    await now.filter({ hasText: 'Diese Kasse signiert nicht (TSE aus).' }).waitFor();
    await lookAt('backoffice-fiscal-tills-off-de');

    await choose('#till-fiscal-mode', 'Echtbetrieb');
    await page.locator('#till-fiscal-apply').click();
    await confirmDialog('Das Signieren beginnt mit dem Anfangsbestand', 'Signieren ändern');
    await page.locator('#till-fiscal-message').filter({ hasText: 'Zugangsdaten' }).waitFor();
    await now.filter({ hasText: 'Diese Kasse signiert nicht' }).waitFor();

    await choose('#till-fiscal-mode', 'Testmodus');
    await page.locator('#till-fiscal-apply').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#till-fiscal-confirm').waitFor();
    await expectAccessible(page, 'the confirmation of the switch');
    await confirmDialog('Ab jetzt wird jede Kassenbewegung dieser Kasse signiert (Testmodus)', 'Signieren ändern');
    await page.locator('#till-fiscal-message').filter({ hasText: 'Gespeichert: Testmodus.' }).waitFor();
    await now
      .filter({ hasText: /Testmodus · Deutschland \(TSE\) · lokaler TSE-Simulator.* · signiert seit / })
      .waitFor();
    await lookAt('backoffice-fiscal-tills-test-de');
    const overview = (await (await api('/api/fiscal')).json()) as {
      tills: { tillId: number; effectiveMode: string; simulator: boolean }[];
    };
    tillId = overview.tills[0].tillId;
    assert.deepEqual(
      { mode: overview.tills[0].effectiveMode, simulator: overview.tills[0].simulator },
      { mode: 'test', simulator: true },
    );
  });

  it('books a visit at the counter whose Kaufbeleg carries the TSE block and the QR code of the signature', async () => {
    await page.goto(url(`/counter/${vendor}`));
    await page.locator('#counter-items input').first().waitFor();
    assert.equal(await page.locator('#counter-fiscal-off').count(), 0, 'a till that signs says nothing');
    await page.locator('#counter-items input').first().fill('1');
    await page.locator('#counter-all-cash').click();
    await page.locator('#counter-confirm').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Besuch buchen' }).click();
    await page.locator('#counter-done').waitFor();
    await page.frameLocator('#counter-receipt').locator('#receipt-tse').getByText('TSE-Seriennummer').waitFor();
    const visits = (await (await api(`/api/counter/visits?vendor=${vendor}`)).json()) as { id: string }[];
    visitId = visits[0].id;

    const html = await (await api(`/api/counter/visits/${visitId}/receipt`)).text();
    await printToPdf(context, html, 'fiscal-switch-kaufbeleg-de');
    const pdf = path.join(outputDir, 'fiscal-switch-kaufbeleg-de.pdf');
    const { stdout } = await run('pdftotext', ['-layout', pdf, '-']);
    for (const label of [
      'TSE-Seriennummer',
      'Kassen-Seriennummer',
      'TSE-Transaktion',
      'Signaturzähler',
      'TSE-Signatur',
    ])
      assert.ok(stdout.includes(label), `the PDF prints ${label}`);
    assert.match(stdout, /Testmodus: mit dem lokalen TSE-Simulator/);

    const [qr, ...more] = await qrCodesOf(pdf);
    assert.equal(more.length, 0, 'one QR code: the visit is one transaction');
    const alt = /id="receipt-tse-qr-\d+"[^>]*alt="([^"]*)"/.exec(html);
    assert.ok(alt, 'the QR picture has its text as alt text');
    assert.equal(qr, unescapeHtml(alt[1]), 'the picture holds its alt text');

    // V0;<till serial>;Kassenbeleg-V1;<processData>;<transaction>;<counter>;<start>;<end>;<algorithm>;unixTime;<signature>;<public key>
    const fields = qr.split(';');
    const printed = (label: string) =>
      unescapeHtml(new RegExp(`<dt>${label}</dt><dd[^>]*>([^<]*)</dd>`).exec(html)?.[1] ?? '');
    const fiscal = (await (await api('/api/fiscal')).json()) as {
      tills: { tillId: number; tssSerial: string; clientSerial: string }[];
    };
    const till = fiscal.tills.find((t) => t.tillId === tillId)!;
    assert.equal(fields[0], 'V0');
    assert.equal(fields[1], till.clientSerial, 'the till serial number');
    assert.equal(fields[1], printed('Kassen-Seriennummer'));
    assert.equal(fields[2], 'Kassenbeleg-V1');
    assert.match(fields[3], /^Beleg\^[\d._]+\^[\d.]+:Bar$/, 'a sale paid in cash');
    assert.equal(fields[4], printed('TSE-Transaktion'), 'the transaction number');
    assert.equal(fields[5], printed('Signaturzähler'), 'the signature counter');
    assert.equal(fields[8], 'ecdsa-plain-SHA384');
    assert.equal(fields[10], printed('TSE-Signatur'), 'the signature');
    assert.equal(printed('TSE-Seriennummer'), till.tssSerial, 'the TSE serial number');
  });

  it('shows the ELSTER data with the TSE serial number and downloads the DSFinV-K as a ZIP (German)', async () => {
    const fiscal = (await (await api('/api/fiscal')).json()) as { tills: { tillId: number; tssSerial: string }[] };
    const tssSerial = fiscal.tills.find((t) => t.tillId === tillId)!.tssSerial;
    await page.goto(url('/tills'));
    await page.locator('#till-fiscal-elster').click();
    await page.waitForURL(url('/tills/elster'));
    await page.locator(`#elster-tss-serial-${tillId}`).filter({ hasText: tssSerial }).waitFor();
    await page.getByText('Cloud-TSE (fiskaly SIGN DE)').waitFor();
    await lookAt('backoffice-fiscal-elster-de');

    await page.goto(url('/tills'));
    // Where the till stands: its own name, the paper's address for the fields left empty.
    await page.getByLabel('Name des Standorts').fill('Verkaufsstelle am Bahnhof');
    await page.locator('#till-location-save').click();
    await page.getByText('Standort gespeichert.').waitFor();
    const button = page.locator('#fiscal-export-download');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const zip = unzipSync(fs.readFileSync(await download.path()));
    assert.ok(zip['index.xml'], 'the ZIP holds index.xml');
    assert.ok(zip['gdpdu-01-09-2004.dtd'], 'and the DTD it names');
    const tills = (await (await api('/api/tills')).json()) as { tills: { id: number; location: { name: string } }[] };
    assert.equal(tills.tills.find((t) => t.id === tillId)!.location.name, 'Verkaufsstelle am Bahnhof');
    assert.match(download.suggestedFilename(), /^dsfinvk-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.zip$/);
    // A period that ends before it starts: the API's reason, in the back office's language.
    await page.locator('#fiscal-export-from').fill('02.01.2026');
    await page.locator('#fiscal-export-to').fill('01.01.2026');
    await button.click();
    await page.locator('#fiscal-export-problem').filter({ hasText: 'Der Export war nicht möglich' }).waitFor();
    await lookAt('backoffice-fiscal-export-de');
  });

  it('says it all in English, and switching off is confirmed and said plainly on the counter', async () => {
    await page.locator('#backoffice-language button[value="en"]').click();
    const now = page.locator('#till-fiscal-now');
    await now.filter({ hasText: /Test mode · Germany \(TSE\) · local TSE simulator.* · signs since / }).waitFor();
    await page.getByRole('heading', { name: 'DSFinV-K export' }).waitFor();

    const html = await (await api(`/api/counter/visits/${visitId}/receipt?lang=en`)).text();
    await printToPdf(context, html, 'fiscal-switch-kaufbeleg-en');
    const { stdout } = await run('pdftotext', ['-layout', path.join(outputDir, 'fiscal-switch-kaufbeleg-en.pdf'), '-']);
    assert.match(stdout, /TSE serial number/);
    assert.match(stdout, /Signature counter/);

    await page.locator('#till-fiscal-elster').click();
    await page.locator('#elster-notice').getByRole('heading', { name: 'Till registration (ELSTER)' }).waitFor();
    await page.getByText('Serial number of the TSE').waitFor();
    await lookAt('backoffice-fiscal-elster-en');

    await page.goto(url('/tills'));
    await choose('#till-fiscal-mode', 'Off');
    await page.locator('#till-fiscal-apply').click();
    // Taking the TSE out of service asks for the reason, focused, and refuses to go on without it.
    const dialog = page.getByRole('dialog');
    await dialog.locator('#till-fiscal-confirm').filter({ hasText: 'This till stops signing.' }).waitFor();
    await dialog.locator('#till-fiscal-confirm-report').filter({ hasText: 'within a month (ELSTER' }).waitFor();
    const reason = dialog.getByRole('textbox', { name: 'Reason for taking the till out of signing' });
    await page.waitForFunction(() => document.activeElement?.id === 'till-fiscal-reason');
    await dialog.getByRole('button', { name: 'Change signing' }).click();
    await dialog.getByText('Please give the reason for taking the till out of signing.').waitFor();
    assert.equal(await reason.getAttribute('aria-invalid'), 'true');
    await expectAccessible(page, 'the reason for taking the till out of signing');
    await reason.fill('The till is no longer used at this place.');
    await dialog.getByRole('button', { name: 'Change signing' }).click();
    await dialog.waitFor({ state: 'detached' });
    await now.filter({ hasText: 'This till signs nothing (TSE off).' }).waitFor();
    await page
      .locator('#till-fiscal-decommissioned')
      .filter({
        hasText:
          /Taken out of signing on .* by office \(TSE [0-9a-f]{64}\): The till is no longer used at this place\./,
      })
      .waitFor();
    await lookAt('backoffice-fiscal-tills-en');

    await page.goto(url('/tills/elster'));
    await page.locator('#elster-none').filter({ hasText: 'No till signs.' }).waitFor();
    // The notice names the date the TSE left service, with its serial and the reason.
    const ended = page.locator(`#elster-ended-${tillId}-0`);
    await ended.filter({ hasText: 'The till is no longer used at this place.' }).waitFor();
    const fiscal = (await (await api('/api/fiscal')).json()) as {
      tills: { tillId: number; decommissions: { tssSerial: string }[] }[];
    };
    const serial = fiscal.tills.find((t) => t.tillId === tillId)!.decommissions[0].tssSerial;
    assert.ok((await ended.textContent())!.includes(serial), 'the TSE serial of the end of use');
    await lookAt('backoffice-fiscal-elster-ended-en');
    await page.goto(url(`/counter/${vendor}`));
    await page.locator('#counter-fiscal-off').filter({ hasText: 'This till signs nothing (TSE off)' }).waitFor();
    await lookAt('backoffice-fiscal-counter-off-en');
  });
});
