import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { eventually } from '../support/orders.ts';
import { accessToken, useBrowserTab } from './admin-login.ts';
import { expectAccessible } from './axe.ts';
import { phone, screenshot, resize } from './browser.ts';
import { buyInShop, mainItemOrder } from './purchase.ts';
import type { RunningServer } from './server.ts';

// "Summen und Salden": the real server books a card sale (paid on the sandbox's card page, its fee
// with it), the vendor's payout in cash and a bank deposit from the till; the screen shows this
// month's accounts with the very figures the API answers, the totals with debits equal to credits,
// no difference in red, and the CSV. It opens from the DATEV export with that period, says when a
// period has nothing booked and when the API refuses one. A difference (the cash line's own figure
// moved in the answer, as a lost cash-book row would) is shown in red with where it comes from.
// German and English, 1280 and 390 px, axe with one h1.

interface Line {
  role: string;
  account: string;
  opening: number;
  debit: number;
  credit: number;
  closing: number;
  product: number | null;
  difference: number | null;
}
interface Balance {
  lines: Line[];
  debit: number;
  credit: number;
}

const amounts = ['opening', 'debit', 'credit', 'closing', 'product', 'difference'] as const;

describe('e2e: the trial balance (Summen und Salden) in the back office', function () {
  this.timeout(240_000);
  const tab = useBrowserTab({ officeAt: '/backoffice/vendorsummary' });
  let server: RunningServer;
  let page: Page;
  before(() => ({ server, page } = tab));

  const url = (path: string) => `${server.url}/backoffice${path}`;
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${await accessToken(page)}`,
        'Content-Type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as T;
  };
  // This month where the newspaper is (the screen's default period), not in this machine's UTC.
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' })
    .format(new Date())
    .split('-')
    .map(Number) as [number, number];
  const thisMonth = {
    from: `${year}-${String(month).padStart(2, '0')}-01`,
    to: `${year}-${String(month).padStart(2, '0')}-${new Date(Date.UTC(year, month, 0)).getUTCDate()}`,
  };
  const euros = (cents: number, locale: 'de' | 'en') =>
    new Intl.NumberFormat(locale === 'de' ? 'de-DE' : 'en-IE', { style: 'currency', currency: 'EUR' }).format(
      cents / 100,
    );
  const balanceOfThisMonth = () =>
    api<Balance>(`/api/accounting/trial-balance?from=${thisMonth.from}&to=${thisMonth.to}`);

  let deposit = 0;
  before(async () => {
    // A sale of DEMO-1's in the shop, paid by card; its card fee follows with Stripe's balance
    // transaction, and the screen must see the same books as the API, so the test waits for it.
    await buyInShop(server.url, await mainItemOrder(server.url, 'DEMO-1', 100));
    await eventually(
      async () => (await api<unknown[]>(`/api/payments?filter=${encodeURIComponent('{"kind":["fee"]}')}`)).length > 0,
      'the sale’s card fee is booked',
    );
    const { credit } = await api<{ credit: number }>('/api/counter/vendor?vendor=DEMO-1');
    assert.ok(credit > 0, 'the sale is the vendor’s credit');
    await api('/api/payments/payout', {
      method: 'POST',
      body: JSON.stringify({ vendor: 'DEMO-1', expectedAmount: credit }),
    });
    const { tills } = await api<{ tills: { id: number; balance: number }[] }>('/api/tills');
    deposit = Math.floor(tills[0].balance / 2 / 100) * 100;
    assert.ok(deposit > 0, `the till holds cash to take to the bank (${tills[0].balance})`);
    await api(`/api/tills/${tills[0].id}/movements`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'bank_deposit', amount: deposit }),
    });
  });

  /** The screen's table: each row's id and the text of each of its cells by column. */
  const shownLines = async () =>
    (
      await page
        .locator('#trial-balance-table tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.id.replace('trial-balance-', ''),
            [...row.querySelectorAll<HTMLElement>('[data-column]')].map((cell) => [
              cell.dataset.column!,
              cell.innerText,
            ]),
          ]),
        )
    ).map(([role, cells]) => ({ role, ...Object.fromEntries(cells as string[][]) }) as Record<string, string>);
  const expectFigures = async (balance: Balance, locale: 'de' | 'en') => {
    const shown = await shownLines();
    assert.deepEqual(
      shown.map((line) => [line.role, line.account]),
      balance.lines.map((line) => [line.role, line.account]),
      'every account of the answer, in its order, with its number',
    );
    for (const [i, line] of balance.lines.entries())
      for (const column of amounts) {
        const value = line[column];
        assert.equal(shown[i][column], value === null ? '–' : euros(value, locale), `${line.role} ${column}`);
      }
    const total = page.locator('#trial-balance-total');
    for (const column of ['debit', 'credit'] as const) {
      const cell = total.locator(`[data-column="${column}"]`);
      assert.equal(await cell.innerText(), euros(balance[column], locale), `total ${column}`);
      // Under its column's header, not shifted by the cells the label spans.
      const header = page.locator('#trial-balance-table thead th').nth(2 + amounts.indexOf(column));
      const [under, above] = await Promise.all([cell.boundingBox(), header.boundingBox()]);
      assert.equal(Math.round(under!.x), Math.round(above!.x), `the total ${column} stands under its header`);
    }
    return shown;
  };
  const choose = async (preset: string) => {
    await page.locator('#trial-balance-preset').click();
    await page.getByRole('option', { name: preset }).click();
  };

  it('opens from the accounting menu on this month and shows the API’s figures, debits = credits, no red difference (German)', async () => {
    await page.getByRole('menuitem', { name: 'Summen und Salden' }).click();
    await page.waitForURL(url('/trial-balance'));
    await page.locator('#trial-balance-table').waitFor();
    assert.equal(await page.locator('#backoffice-page-title').innerText(), 'Summen und Salden');
    assert.equal(await page.locator('#trial-balance-preset').innerText(), 'Dieser Monat');
    const balance = await balanceOfThisMonth();
    const shown = await expectFigures(balance, 'de');

    const line = (role: string) => balance.lines.find((l) => l.role === role);
    assert.equal(balance.debit, balance.credit, 'debits equal credits');
    assert.ok(balance.debit > 0, 'something moved');
    assert.equal(line('bank')?.debit, deposit, 'the bank took the deposit');
    for (const role of ['cash', 'customers', 'vendors']) {
      assert.ok(line(role), `${role} has a line`);
      assert.equal(line(role)!.difference, 0, `${role}: DATEV moves as the product's own figure`);
    }
    assert.equal(shown.find((l) => l.role === 'cash')?.name, 'Kasse', 'named as the DATEV settings name it');
    assert.equal(
      shown.find((l) => l.role === 'vendors')?.name,
      'Verkäuferinnen und Verkäufer (Sammelkonto)',
      'named as the DATEV settings name it',
    );
    // No difference, so nothing in red: every difference cell in the text's colour, and the all-clear.
    const red = await page
      .locator('#trial-balance-table [data-column="difference"]')
      .evaluateAll((cells) => cells.filter((cell) => getComputedStyle(cell).color === 'rgb(183, 28, 28)').length);
    assert.equal(red, 0, 'no difference in red');
    assert.equal(await page.locator('.trial-balance-difference').count(), 0);
    assert.match(await page.locator('#trial-balance-no-differences').innerText(), /^Keine Abweichungen/);
    await expectAccessible(page, 'the trial balance (German, desktop)');
    await screenshot(page, 'backoffice-trial-balance-1280');
  });

  it('downloads the same accounts as CSV', async () => {
    const download = page.waitForEvent('download');
    await page.locator('#trial-balance-csv').click();
    const file = await download;
    assert.equal(file.suggestedFilename(), `summen-salden-${thisMonth.from}-${thisMonth.to}.csv`);
    const lines = fs
      .readFileSync(await file.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    assert.match(lines[0], /^"Konto";"Bezeichnung";/);
    const balance = await balanceOfThisMonth();
    assert.equal(lines.length, balance.lines.length + 1, 'a line per account');
    const cash = balance.lines.find((l) => l.role === 'cash')!;
    assert.ok(lines.some((l) => l.startsWith(`"${cash.account}";"Kasse";`)));
  });

  it('shows a difference in red with where it comes from', async () => {
    // The server's own answer with the cash book's figure 2,00 € off, as if a cash-book row never
    // reached DATEV: the books of a real server do not disagree, and this is the screen's part.
    await page.route('**/api/accounting/trial-balance?*', async (route) => {
      const response = await route.fetch();
      const balance = (await response.json()) as Balance;
      for (const line of balance.lines)
        if (line.role === 'cash') {
          line.product = (line.product ?? 0) + 200;
          line.difference = (line.difference ?? 0) - 200;
        }
      await route.fulfill({ response, json: balance });
    });
    try {
      await page.reload();
      const explanation = page.locator('#trial-balance-explanation-cash');
      await explanation.waitFor();
      const cell = page.locator('#trial-balance-cash [data-column="difference"]');
      assert.equal(await cell.innerText(), euros(-200, 'de'));
      assert.equal(await cell.evaluate((c) => getComputedStyle(c).color), 'rgb(183, 28, 28)', 'in red');
      assert.equal(await cell.getAttribute('aria-describedby'), 'trial-balance-explanation-cash');
      const cash = (await balanceOfThisMonth()).lines.find((l) => l.role === 'cash')!;
      assert.equal(
        (await explanation.innerText()).replace(/\n+/g, ' '),
        `${cash.account} Kasse: Abweichung ${euros(-200, 'de')} Das Kassenbuch hat sich um ${euros(cash.product! + 200, 'de')} bewegt, DATEV bucht ${euros(cash.debit - cash.credit, 'de')}.`,
      );
      assert.equal(await page.locator('#trial-balance-no-differences').count(), 0);
      await expectAccessible(page, 'the trial balance with a difference (German)');
      await screenshot(page, 'backoffice-trial-balance-difference-1280');
    } finally {
      await page.unroute('**/api/accounting/trial-balance?*');
    }
  });

  it('opens from the DATEV export with its period; a period with nothing booked is empty, a refused one says why', async () => {
    await page.goto(url('/payments'));
    await page.locator('#books-datev').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#datev-from').fill('01.01.2020');
    await dialog.locator('#datev-to').fill('31.01.2020');
    await dialog.getByRole('link', { name: 'Summen und Salden dieses Zeitraums' }).click();
    await page.waitForURL(url('/trial-balance?from=2020-01-01&to=2020-01-31'));
    await page.locator('#trial-balance-empty').waitFor();
    assert.equal(await page.locator('#trial-balance-preset').innerText(), 'Eigener Zeitraum');
    assert.equal(await page.locator('#trial-balance-from').inputValue(), '01.01.2020');
    assert.equal(await page.locator('#trial-balance-table').count(), 0, 'no table without accounts');
    assert.equal(await page.locator('#trial-balance-csv').count(), 0);
    assert.match(await page.locator('#trial-balance-empty').innerText(), /nichts gebucht/);

    await page.goto(url('/trial-balance?from=2020-02-01&to=2020-01-01'));
    await page.locator('#trial-balance-error').waitFor();
    assert.match(await page.locator('#trial-balance-error').innerText(), /konnten nicht geladen werden: .+/);

    await choose('Dieser Monat');
    await page.locator('#trial-balance-table').waitFor();
    await expectFigures(await balanceOfThisMonth(), 'de');
    await resize(page, phone);
    await expectAccessible(page, 'the trial balance (German, phone)');
    await screenshot(page, 'backoffice-trial-balance-390');
  });

  it('reads in English and fits a phone', async () => {
    // The language switch is in the sidebar, which a phone keeps closed.
    await resize(page, { width: 1280, height: 900 });
    await page.locator('#backoffice-language button[value="en"]').click();
    await resize(page, phone);
    await page.goto(url('/trial-balance'));
    await page.locator('#trial-balance-table').waitFor();
    assert.equal(await page.locator('#trial-balance-preset').innerText(), 'This month');
    const headers = await page.locator('#trial-balance-table thead th').allInnerTexts();
    assert.deepEqual(headers, [
      'Account',
      'Name',
      'Opening balance',
      'Debit',
      'Credit',
      'Closing balance',
      'Own figure',
      'Difference',
    ]);
    const shown = await expectFigures(await balanceOfThisMonth(), 'en');
    assert.equal(shown.find((l) => l.role === 'cash')?.name, 'Cash desk');
    assert.match(await page.locator('#trial-balance-no-differences').innerText(), /^No differences/);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(
      overflow <= 0,
      `the page is no wider than the phone (${overflow} px too wide); the table scrolls in its box`,
    );
    await expectAccessible(page, 'the trial balance (English, phone)');
    await screenshot(page, 'backoffice-trial-balance-en-390');
    await resize(page, { width: 1280, height: 900 });
    await expectAccessible(page, 'the trial balance (English, desktop)');
    await screenshot(page, 'backoffice-trial-balance-en-1280');
  });
});
