import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { useBrowserTab } from './admin-login.ts';
import { seriousViolations } from './axe.ts';
import { animationsDone, keyboardFocusRing, phone, screenshot, resize } from './browser.ts';
import type { RunningServer } from './server.ts';

// the DATEV export from the accounting screen. Its settings are entered on their own page,
// then the dialog downloads the EXTF file; dialog and settings page pass axe in German and English.
/**
 * expectAccessible for what these screens add: no critical or serious axe violation inside `root`
 * (the dialog, or the page's main content) and no h1 of their own. The layout around them has known
 * findings (the sidebar menu's roles, the language toggle's names, no h1 yet) that the back office's
 * accessibility work fixes for every screen at once.
 */
async function expectAccessible(page: Page, label: string, root: string): Promise<void> {
  // A dialog fading in has a contrast axe cannot judge: wait until it stands.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.MuiDialog-container')].every((e) => getComputedStyle(e).opacity === '1'),
  );
  const { violations, h1 } = await seriousViolations(page);
  const inside = await page.evaluate(
    ({ found, root }) =>
      found.flatMap((v) => {
        const targets = v.targets.filter((target) => document.querySelector(target)?.closest(root));
        return targets.length ? [`${v.impact} ${v.id} (${v.help}): ${targets.join(' | ')}`] : [];
      }),
    { found: violations, root },
  );
  if (h1 > 1) inside.push(`the page has ${h1} h1 headings`);
  if (inside.length) throw new Error(`Accessibility of ${label}:\n  ${inside.join('\n  ')}`);
}

describe('e2e: DATEV export from the accounting screen', function () {
  this.timeout(180_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/payments' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const url = (path: string) => `${server.url}/backoffice${path}`;

  it('asks for the adviser and client numbers first, and takes them on the DATEV settings page', async () => {
    await page.goto(url('/payments'));
    await page.locator('#books-datev').click();
    const dialog = page.getByRole('dialog', { name: 'DATEV-Export (EXTF-Buchungsstapel)' });
    await dialog.getByText('Bitte zuerst Beraternummer und Mandantennummer').waitFor();
    assert.ok(await dialog.locator('#datev-download').isDisabled(), 'no download without the numbers');
    await expectAccessible(page, 'the DATEV export dialog (German, not ready)', '#datev-dialog');
    await dialog.getByRole('link', { name: 'DATEV-Einstellungen' }).click();
    await page.waitForURL(url('/settings/datev'));

    await page.getByLabel('Beraternummer').fill('12ab');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page
      .getByText(/adviser number|Beraternummer/)
      .nth(1)
      .waitFor();
    await page.getByLabel('Beraternummer').fill('29098');
    await page.getByLabel('Mandantennummer').fill('55003');
    await page.getByRole('button', { name: 'Speichern' }).click();
    await page.getByText('Die DATEV-Einstellungen sind gespeichert.').waitFor();
    await expectAccessible(page, 'the DATEV settings (German)', '#main-content');
    await screenshot(page, 'backoffice-datev-settings-1280');
  });

  it('downloads the EXTF Buchungsstapel of the chosen period and mode', async () => {
    await page.goto(url('/payments'));
    await page.locator('#books-datev').click();
    const dialog = page.getByRole('dialog');
    // The period's days as the back office's language writes them, not as the browser's date input would.
    assert.match(await dialog.locator('#datev-from').inputValue(), /^\d{2}\.\d{2}\.\d{4}$/);
    await dialog.locator('#datev-from').fill('01.01.2026');
    await dialog.locator('#datev-to').fill('31.12.2026');
    const daily = dialog.getByLabel('Eine Zeile je Tag und Buchungsart');
    await daily.check();
    const ring = await keyboardFocusRing(daily, '.MuiRadio-root');
    assert.match(ring.before, /^none /, 'no ring while the mouse chose it');
    assert.equal(ring.after, 'solid 2px rgb(26, 26, 26)', 'a ring once the keyboard is on it');
    await expectAccessible(page, 'the DATEV export dialog (German)', '#datev-dialog');
    await screenshot(page, 'backoffice-datev-dialog-1280');
    const download = page.waitForEvent('download');
    await dialog.locator('#datev-download').click();
    const file = await download;
    assert.equal(file.suggestedFilename(), 'EXTF_Buchungsstapel_2026-01-01_2026-12-31.csv');
    const bytes = fs.readFileSync(await file.path());
    const text = new TextDecoder('windows-1252').decode(bytes);
    assert.match(text, /^"EXTF";700;21;"Buchungsstapel";13;\d{17};;;;;29098;55003;20260101;4;20260101;20261231;/);
    assert.match(text.split('\r\n')[1], /^"Umsatz \(ohne Soll\/Haben-Kz\)";"Soll\/Haben-Kennzeichen"/);
  });

  it('reads in English and fits a phone', async () => {
    await page.goto(url('/payments'));
    await page.locator('#backoffice-language button[value="en"]').click();
    await page.getByRole('button', { name: 'This month' }).waitFor();
    await resize(page, phone);
    await page.reload();
    await page.locator('#books-datev').click();
    const dialog = page.getByRole('dialog', { name: 'DATEV export (EXTF booking batch)' });
    await dialog.getByText('One line per day and kind of booking').waitFor();
    assert.match(await dialog.locator('#datev-to').inputValue(), /^\d{2}\/\d{2}\/\d{4}$/);
    await expectAccessible(page, 'the DATEV export dialog (English)', '#datev-dialog');
    await screenshot(page, 'backoffice-datev-dialog-en-390');
    await dialog.getByRole('link', { name: 'DATEV settings' }).click();
    await page.getByLabel('Adviser number (Beraternummer)').waitFor();
    await expectAccessible(page, 'the DATEV settings (English)', '#main-content');
    await screenshot(page, 'backoffice-datev-settings-en-390');
  });

  it("keeps each of the dialog's buttons whole on a phone, in German and English", async () => {
    try {
      await resize(page, phone);
      for (const [language, title] of [
        ['de', 'DATEV-Export (EXTF-Buchungsstapel)'],
        ['en', 'DATEV export (EXTF booking batch)'],
      ] as const) {
        await page.evaluate((chosen) => localStorage.setItem('street-paper.locale', chosen), language);
        await page.goto(url('/payments'));
        await page.locator('#books-datev').click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.locator('#journal-download').waitFor();
        await animationsDone(page);
        // Each button lies inside the dialog, its label not wider than the button.
        const cut = await dialog.locator('.MuiDialogActions-root button').evaluateAll((buttons) => {
          const paper = buttons[0].closest('.MuiDialog-paper')!.getBoundingClientRect();
          return buttons
            .filter((button) => {
              const box = button.getBoundingClientRect();
              const outside = box.left < paper.left || box.right > paper.right;
              return outside || button.scrollWidth > button.clientWidth;
            })
            .map((button) => button.textContent);
        });
        assert.deepEqual(cut, [], `buttons cut off at ${phone.width} px (${language})`);
        await screenshot(page, `backoffice-datev-dialog-${language}-actions-390`);
      }
    } finally {
      await page.evaluate(() => localStorage.setItem('street-paper.locale', 'de'));
      await resize(page, { width: 1280, height: 900 });
    }
  });
});
