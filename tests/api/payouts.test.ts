import assert from 'node:assert/strict';
import type supertest from 'supertest';
import { describeApi } from '../support/env.ts';
import { assertBalanced, balanceOf, itemId, sandboxFee, vendorId } from '../support/orders.ts';
import { listedVendor, listenBooksShop, noFeeCard, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// Credits and cash payouts at the counter, through the API. Every credit comes from real orders paid in the sandbox.

interface Row {
  kind: string;
  itemName: string | null;
  quantity: number | null;
  amount: number;
  sign: number;
}
const shape = (rows: Row[]) =>
  rows.map(({ kind, itemName, quantity, amount, sign }) => ({ kind, itemName, quantity, amount, sign }));

describeApi('payouts: credit, payout, reversal, lists and receipt', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const forPayout = (vendor: string) => as(t.http.get('/api/payments/forpayout/').query({ vendor }));
  const payOut = (vendor: string, expectedAmount: unknown) =>
    as(t.http.post('/api/payments/payout/')).send({ vendor, expectedAmount });
  const reverse = (id: number, body: object) => as(t.http.post(`/api/payments/payout/${id}/reverse/`)).send(body);

  describe('a credit of 6,50 € paid out in cash', () => {
    it('credits 3,00 € + 4,00 € (tip included) − 0,50 € licence = 6,50 €; after the payout 0, cash 6,50 €, the payout lists those rows, the next sale is open credit again', async () => {
      // The held-fee card keeps card fees out, so the vendor's rows are exactly the sales and the licence share.
      await sell(shop, t.db, { vendor: 'DEMO-3', items: { 'Digitale Ausgabe': 1 }, card: noFeeCard });
      await sell(shop, t.db, { vendor: 'DEMO-3', items: { Zeitung: 1 }, tip: 100, card: noFeeCard });
      const vendor = await vendorId(t.db, 'DEMO-3');

      const before = await listedVendor(t, office, 'DEMO-3');
      assert.deepEqual([before.credit, before.lastPayout, before.openPayments], [650, null, 3]);
      const open = await forPayout('DEMO-3');
      assert.equal(open.status, 200, JSON.stringify(open.body));
      assert.equal(open.body.balance, 650);
      assert.deepEqual(open.body.vendor, {
        id: vendor,
        licenseId: 'DEMO-3',
        firstName: before.firstName,
        lastName: before.lastName,
      });
      const expectedRows = [
        { kind: 'sale', itemName: 'Digitale Ausgabe', quantity: 1, amount: 300, sign: 1 },
        { kind: 'licence', itemName: 'Digitale Ausgabe – Lizenz', quantity: 1, amount: 50, sign: -1 },
        { kind: 'sale', itemName: 'Zeitung', quantity: 1, amount: 300, sign: 1 },
        { kind: 'tip', itemName: null, quantity: null, amount: 100, sign: 1 },
      ];
      assert.deepEqual(shape(open.body.payments), expectedRows);

      const paid = await payOut('DEMO-3', 650);
      assert.equal(paid.status, 201, JSON.stringify(paid.body));
      assert.equal(paid.body.amount, 650);
      assert.equal(paid.body.authorisedBy, 'office');
      // The payout's number is its cash movement's voucher: till, year, number.
      assert.match(paid.body.voucher, /^\d+-\d{4}-\d{6}$/);
      assert.equal(paid.body.reversalVoucher, null);
      assert.deepEqual(paid.body.vendor, {
        id: vendor,
        licenseId: 'DEMO-3',
        name: `${before.firstName} ${before.lastName}`.trim(),
      });
      assert.deepEqual(paid.body.rows, open.body.payments, 'the payout settles exactly the rows the page showed');
      assert.deepEqual(
        paid.body.items.map(
          ({ itemName, quantity, amount }: { itemName: string; quantity: number; amount: number }) => [
            itemName,
            quantity,
            amount,
          ],
        ),
        [
          ['Zeitung', 1, 300],
          ['Digitale Ausgabe – Lizenz', 1, -50],
          ['Digitale Ausgabe', 1, 300],
          ['Trinkgeld/Spende', 1, 100],
        ],
      );

      const after = await listedVendor(t, office, 'DEMO-3');
      assert.deepEqual(
        [after.credit, after.lastPayout, after.openPayments],
        [0, { amount: 650, at: paid.body.createdAt }, 0],
      );
      assert.equal(await balanceOf(t.db, 'cash'), 650);
      assert.equal(await balanceOf(t.db, 'vendor', vendor), 0);
      assert.deepEqual((await forPayout('DEMO-3')).body.payments, []);
      await assertBalanced(t.db);
      const recorded = await t
        .db('protocol_entries')
        .where({ action: 'payout', record_type: 'payout', record_id: String(paid.body.id) });
      assert.equal(recorded.length, 1);
      assert.equal(recorded[0].actor_name, 'office');

      await sell(shop, t.db, { vendor: 'DEMO-3', items: { Zeitung: 2 }, card: noFeeCard });
      const next = await forPayout('DEMO-3');
      assert.equal(next.body.balance, 600);
      assert.deepEqual(shape(next.body.payments), [
        { kind: 'sale', itemName: 'Zeitung', quantity: 2, amount: 600, sign: 1 },
      ]);
      assert.equal((await listedVendor(t, office, 'DEMO-3')).credit, 600);
      assert.deepEqual(
        (await as(t.http.get(`/api/payouts/${paid.body.id}`))).body.rows,
        paid.body.rows,
        'the payout keeps its rows',
      );
      await assertBalanced(t.db);
    });

    it('settles the card fee with the sale: without the newspaper covering it the vendor gets the sale minus the fee', async () => {
      await t.db('settings').update({ orga_covers_transaction_costs: false });
      await sell(shop, t.db, { vendor: 'DEMO-4', items: { Zeitung: 1 }, tip: 100 });
      const fee = sandboxFee(400);
      const open = await forPayout('DEMO-4');
      assert.equal(open.body.balance, 400 - fee);
      assert.deepEqual(
        shape(open.body.payments).map((r) => [r.kind, r.amount * r.sign]),
        [
          ['sale', 300],
          ['tip', 100],
          ['fee', -fee],
        ],
      );
      const paid = await payOut('DEMO-4', 400 - fee);
      assert.equal(paid.status, 201, JSON.stringify(paid.body));
      assert.deepEqual(
        paid.body.items.map(({ kind, quantity, amount }: { kind: string; quantity: number; amount: number }) => [
          kind,
          quantity,
          amount,
        ]),
        [
          ['item', 1, 300],
          ['fee', 1, -fee],
          ['tip', 1, 100],
        ],
      );
      assert.equal(await balanceOf(t.db, 'cash'), 400 - fee);
      await assertBalanced(t.db);
    });

    it('refuses a vendor without credit, an unknown vendor and bad input with messages, and books nothing', async () => {
      const none = await payOut('DEMO-6', 0);
      assert.equal(none.status, 409);
      assert.equal(none.body.message, 'No credits to pay out');
      const unknown = await payOut('NOBODY-9', 100);
      assert.equal(unknown.status, 404);
      assert.match(unknown.body.message, /NOBODY-9/);
      const noVendor = await as(t.http.post('/api/payments/payout/')).send({ expectedAmount: 100 });
      assert.equal(noVendor.status, 400);
      assert.ok(noVendor.body.errors.vendor, JSON.stringify(noVendor.body));
      for (const amount of ['6,50', 6.5, -1, null]) {
        const bad = await payOut('DEMO-6', amount);
        assert.equal(bad.status, 400, `expectedAmount ${JSON.stringify(amount)}`);
        assert.ok(bad.body.errors.expectedAmount, JSON.stringify(bad.body));
      }
      assert.equal((await forPayout('NOBODY-9')).status, 404);
      const missing = await as(t.http.get('/api/payments/forpayout/'));
      assert.equal(missing.status, 400);
      assert.ok(missing.body.errors.vendor);
      assert.deepEqual((await forPayout('DEMO-6')).body.payments, []);
      assert.equal((await t.db('payouts').count({ n: '*' }))[0].n, 0);
    });
  });

  describe('never twice, never a figure staff did not see', () => {
    it('pays exactly once when 50 payout requests for one vendor arrive at the same time; the other 49 get 409', async function () {
      this.timeout(120_000);
      await sell(shop, t.db, { vendor: 'DEMO-5', items: { Zeitung: 1 }, tip: 100 });
      const credit = (await forPayout('DEMO-5')).body.balance;
      assert.equal(credit, 400, 'the newspaper covers the fee');
      const answers = await Promise.all(Array.from({ length: 50 }, () => payOut('DEMO-5', credit)));
      const statuses = answers.map((res) => res.status).sort();
      assert.deepEqual(
        statuses,
        [201, ...Array(49).fill(409)],
        JSON.stringify(answers.filter((res) => res.status !== 201 && res.status !== 409).map((res) => res.body)),
      );
      // Each loser is told which payout took the credit: who, when, how much, and the voucher.
      const winner = answers.find((res) => res.status === 201)!.body;
      const stored = await t.db('payouts').where({ id: winner.id }).first();
      for (const lost of answers.filter((res) => res.status === 409)) {
        assert.deepEqual(lost.body.lastPayout, {
          id: winner.id,
          voucher: winner.voucher,
          amount: 400,
          authorisedBy: stored.authorised_by,
          createdAt: new Date(stored.created_at).toISOString(),
          localTime: lost.body.lastPayout.localTime,
        });
        assert.match(lost.body.lastPayout.localTime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
        assert.equal(
          lost.body.message,
          `No credits to pay out: ${stored.authorised_by} paid out €4.00 on ${lost.body.lastPayout.localTime} ` +
            `(receipt ${winner.voucher}).`,
        );
        assert.equal(lost.body.errors.vendor, 'This vendor has no credit to pay out.');
      }
      assert.equal((await t.db('payouts').count({ n: '*' }))[0].n, 1);
      assert.equal((await t.db('ledger_rows').where({ kind: 'payout' }).count({ n: '*' }))[0].n, 1);
      assert.equal(await balanceOf(t.db, 'cash'), 400);
      assert.equal((await listedVendor(t, office, 'DEMO-5')).credit, 0);
      await assertBalanced(t.db);
    });

    it('refuses a stale expected amount (a sale arrived in between) with the current figure, and pays that figure once confirmed', async () => {
      await sell(shop, t.db, { vendor: 'DEMO-7', items: { Zeitung: 1 }, tip: 100 });
      const shown = (await forPayout('DEMO-7')).body.balance;
      await sell(shop, t.db, { vendor: 'DEMO-7', items: { Zeitung: 1 }, tip: 100 });

      const stale = await payOut('DEMO-7', shown);
      assert.equal(stale.status, 409);
      assert.equal(stale.body.currentAmount, 800);
      assert.match(stale.body.message, /€8\.00/);
      assert.ok(stale.body.errors.expectedAmount);
      assert.equal((await t.db('payouts').count({ n: '*' }))[0].n, 0, 'nothing was paid');
      assert.equal((await listedVendor(t, office, 'DEMO-7')).credit, 800);

      const paid = await payOut('DEMO-7', stale.body.currentAmount);
      assert.equal(paid.status, 201, JSON.stringify(paid.body));
      assert.equal(paid.body.rows.length, 8, 'both sales and tips, each order’s fee and its cover');
      await assertBalanced(t.db);
    });
  });

  describe('a mistaken payout reversed', () => {
    it('restores the credit with one open row, keeps the payout as reversed, refuses a second reversal, and pays the credit out again', async () => {
      await sell(shop, t.db, { vendor: 'DEMO-8', items: { Zeitung: 1 }, tip: 100 });
      const first = (await payOut('DEMO-8', 400)).body;
      const noReason = await reverse(first.id, { reason: '  ' });
      assert.equal(noReason.status, 400);
      assert.ok(noReason.body.errors.reason);

      const reversed = await reverse(first.id, { reason: 'Paid to the wrong person' });
      assert.equal(reversed.status, 200, JSON.stringify(reversed.body));
      assert.deepEqual(
        [reversed.body.reversed, reversed.body.reversedBy, reversed.body.reversalReason, reversed.body.amount],
        [true, 'office', 'Paid to the wrong person', 400],
      );
      const vendor = await listedVendor(t, office, 'DEMO-8');
      assert.deepEqual(
        [vendor.credit, vendor.lastPayout, vendor.openPayments],
        [400, null, 1],
        'a reversed payout is no last payout',
      );
      assert.deepEqual(shape((await forPayout('DEMO-8')).body.payments), [
        { kind: 'payout_reversal', itemName: null, quantity: null, amount: 400, sign: 1 },
      ]);
      assert.equal(await balanceOf(t.db, 'cash'), 0);
      await assertBalanced(t.db);

      const again = await reverse(first.id, { reason: 'Clicked twice' });
      assert.equal(again.status, 409);
      assert.match(again.body.message, /already been reversed/);
      assert.equal((await reverse(99999, { reason: 'x' })).status, 404);
      assert.equal((await t.db('ledger_rows').where({ kind: 'payout_reversal' }).count({ n: '*' }))[0].n, 1);
      assert.equal(
        (
          await t
            .db('protocol_entries')
            .where({ action: 'reverse', record_type: 'payout', record_id: String(first.id) })
        ).length,
        1,
      );

      const second = await payOut('DEMO-8', 400);
      assert.equal(second.status, 201);
      assert.deepEqual(
        second.body.items.map((i: { kind: string; amount: number }) => [i.kind, i.amount]),
        [['payout_reversal', 400]],
      );
      assert.equal(await balanceOf(t.db, 'cash'), 400);
      await assertBalanced(t.db);
    });
  });

  describe('lists, totals, CSV and receipt', () => {
    async function threePayouts() {
      await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 1 }, card: noFeeCard });
      const a = (await payOut('DEMO-1', 300)).body;
      await sell(shop, t.db, { vendor: 'DEMO-2', items: { 'Digitale Ausgabe': 2 }, tip: 250, card: noFeeCard });
      const b = (await payOut('DEMO-2', 750)).body;
      await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 3 }, card: noFeeCard });
      const c = (await payOut('DEMO-1', 900)).body;
      return [a, b, c] as { id: number; amount: number; createdAt: string; voucher: string }[];
    }
    const list = (query: Record<string, string>) => as(t.http.get('/api/payouts/').query(query));
    const ids = (res: supertest.Response) => res.body.map((p: { id: number }) => p.id);

    it('lists payouts newest first with vendor, staff and what each settled per item, sorted and filtered by period, vendor and item', async () => {
      const [a, b, c] = await threePayouts();
      const all = await list({});
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.equal(all.headers['content-range'], 'payouts 0-2/3');
      assert.deepEqual(ids(all), [c.id, b.id, a.id]);
      const digital = all.body[1];
      assert.deepEqual(digital.vendor.licenseId, 'DEMO-2');
      assert.equal(digital.authorisedBy, 'office');
      assert.deepEqual(
        digital.items.map((i: { itemName: string; quantity: number; amount: number }) => [
          i.itemName,
          i.quantity,
          i.amount,
        ]),
        [
          ['Digitale Ausgabe – Lizenz', 2, -100],
          ['Digitale Ausgabe', 2, 600],
          ['Trinkgeld/Spende', 1, 250],
        ],
      );

      assert.deepEqual(ids(await list({ sort: '["amount","ASC"]' })), [a.id, b.id, c.id]);
      assert.deepEqual(ids(await list({ filter: JSON.stringify({ vendor: 'demo-1' }) })), [c.id, a.id]);
      const digitalId = await itemId(t.db, 'Digitale Ausgabe');
      assert.deepEqual(ids(await list({ filter: JSON.stringify({ item: digitalId }) })), [b.id]);
      // from inclusive: the second payout's own instant is in, the first is out; plain parameters work too.
      assert.deepEqual(ids(await list({ from: b.createdAt })), [c.id, b.id]);
      assert.deepEqual(ids(await list({ filter: JSON.stringify({ to: b.createdAt }) })), [a.id], 'to is exclusive');
      assert.equal((await list({ filter: '{"item":"Zeitung"}' })).status, 400);
      assert.equal((await list({ filter: '{"colour":"red"}' })).status, 400);

      const one = await as(t.http.get(`/api/payouts/${b.id}`));
      assert.deepEqual({ ...one.body, rows: undefined }, { ...digital, rows: undefined });
      assert.equal(one.body.rows.length, 3);
      assert.equal((await as(t.http.get('/api/payouts/99999'))).status, 404);
    });

    it('answers the totals of the whole filtered period, not of a page, with reversed payouts on their own', async () => {
      const [a, b, c] = await threePayouts();
      await reverse(a.id, { reason: 'Test' });
      const totals = (query: Record<string, string>) => as(t.http.get('/api/payouts/totals/').query(query));
      assert.deepEqual((await totals({})).body, { count: 3, amount: 1950, reversedCount: 1, reversedAmount: 300 });
      assert.deepEqual((await totals({ filter: '{"vendor":"DEMO-1"}', range: '[0,0]' })).body, {
        count: 2,
        amount: 1200,
        reversedCount: 1,
        reversedAmount: 300,
      });
      assert.deepEqual((await totals({ from: b.createdAt })).body, {
        count: 2,
        amount: b.amount + c.amount,
        reversedCount: 0,
        reversedAmount: 0,
      });
      const sql = await t.db('ledger_rows').where({ kind: 'payout' }).sum({ amount: 'amount' }).first();
      assert.equal(Number(sql!.amount), 1950, 'the same as the ledger’s payout rows');
    });

    it('exports the filtered payouts as CSV for German spreadsheets: every row, amounts with a decimal comma, the items in words', async () => {
      const [a, , c] = await threePayouts();
      const res = await as(
        t.http
          .get('/api/payouts/')
          .query({ format: 'csv', filter: '{"vendor":"DEMO-1"}', range: '[0,0]' })
          .set('Accept-Language', 'de'),
      )
        .buffer(true)
        .parse((response, done) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => done(null, text));
        });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^text\/csv/);
      const text = res.body as string;
      assert.ok(text.startsWith('\uFEFF'), 'byte order mark');
      const lines = text
        .slice(1)
        .trim()
        .split('\r\n')
        .map((line) => line.split(';').map((cell) => cell.replace(/^"|"$/g, '')));
      assert.deepEqual(lines[0].slice(0, 6), [
        'Belegnummer',
        'Datum',
        'Lizenznummer',
        'Verkäufer·in',
        'Betrag',
        'Ausgezahlt von',
      ]);
      assert.equal(lines.length, 3, 'the header and both of DEMO-1’s payouts, beyond the page range');
      assert.deepEqual(
        lines.slice(1).map((l) => [l[0], l[2], l[4], l[5]]),
        [
          [a.voucher, 'DEMO-1', '3,00', 'office'],
          [c.voucher, 'DEMO-1', '9,00', 'office'],
        ],
      );
      assert.equal(
        lines[2][9].replace(/\u00a0/g, ' '),
        'Zeitung × 3: 9,00 €',
        'the amount as a German reader writes it',
      );
    });

    it('prints a receipt in German (or English) with the newspaper, number, vendor, rows, total and signature lines, every text escaped', async () => {
      const created = await as(t.http.post('/api/vendors')).send({
        licenseId: 'ESC-1',
        firstName: '<script>alert(1)</script>',
        lastName: 'Müller & Söhne',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await sell(shop, t.db, { vendor: 'ESC-1', items: { Zeitung: 1 }, tip: 100, card: noFeeCard });
      const paid = (await payOut('ESC-1', 400)).body;

      const de = await as(t.http.get(`/api/payouts/${paid.id}/receipt`));
      assert.equal(de.status, 200);
      assert.match(de.headers['content-type'], /^text\/html/);
      const html = de.text;
      assert.ok(!html.includes('<script>'), 'no markup from the data');
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; Müller &amp; Söhne (ESC-1)'));
      assert.ok(html.includes('Straßenblatt Demo'));
      assert.ok(html.includes('Auszahlungsbeleg'));
      assert.ok(html.includes(`id="receipt-number">${paid.voucher}<`));
      assert.match(html, /id="receipt-total">4,00\s€</);
      assert.match(html, /Zeitung<\/td><td class="num">1<\/td><td class="num">3,00\s€/);
      assert.match(html, /Trinkgeld\/Spende<\/td><td class="num"><\/td><td class="num">1,00\s€/);
      assert.match(html, /Unterschrift Verkäufer·in/);
      assert.match(html, /Unterschrift Mitarbeiter·in<br>office/);
      assert.match(html, /@media print|@page/);

      const en = (await as(t.http.get(`/api/payouts/${paid.id}/receipt`).query({ lang: 'en' }))).text;
      assert.match(en, /<html lang="en">/);
      assert.match(en, /Payout receipt/);
      assert.match(en, /id="receipt-total">€4\.00</);
      assert.equal((await as(t.http.get('/api/payouts/99999/receipt'))).status, 404);
    });
    it('writes the receipts and the CSV in the installation’s currency: francs for a German reader, pounds in the CSV', async () => {
      const [a, , c] = await threePayouts();
      await reverse(a.id, { reason: 'Test' });
      // The rows are integers in the minor unit whatever the currency; the papers read it from the settings.
      await t.db('settings').update({ currency: 'CHF' });
      const page = async (path: string, lang: string) => {
        const res = await as(t.http.get(path).query({ lang }));
        assert.equal(res.status, 200, res.text);
        assert.doesNotMatch(res.text, /€|EUR/i, `${path} names no euro`);
        return res.text.replace(/[\u00a0\u202f]/g, ' ');
      };
      const receipt = await page(`/api/payouts/${c.id}/receipt`, 'de');
      assert.match(receipt, /id="receipt-total">CHF 9\.00</);
      assert.match(receipt, /Zeitung<\/td><td class="num">3<\/td><td class="num">CHF 9\.00</);
      assert.match(await page(`/api/payouts/${a.id}/reversal/receipt`, 'de'), /id="receipt-total">CHF 3\.00</);

      await t.db('settings').update({ currency: 'GBP' });
      assert.match(await page(`/api/payouts/${c.id}/receipt`, 'en'), /id="receipt-total">£9\.00</);
      const csv = await as(
        t.http
          .get('/api/payouts/')
          .query({ format: 'csv', filter: '{"vendor":"DEMO-1"}' })
          .set('Accept-Language', 'en'),
      );
      assert.equal(csv.status, 200);
      assert.doesNotMatch(csv.text, /€|EUR/i);
      const later = csv.text.trim().split('\r\n')[2].split(';');
      assert.deepEqual([later[4], later[9]], ['"9,00"', '"Zeitung × 3: £9.00"']);
    });
  });

  describe('credits in the vendor list, the vendor record, deletion and the vendor’s own page', () => {
    it('sorts and filters the vendor list by credit, and answers the same money on the vendor record', async () => {
      await sell(shop, t.db, { vendor: 'DEMO-9', items: { Zeitung: 1 } });
      await sell(shop, t.db, { vendor: 'DEMO-10', items: { Zeitung: 2 }, tip: 100 });
      const byCredit = await as(t.http.get('/api/vendors/').query({ sort: '["credit","DESC"]', range: '[0,2]' }));
      assert.equal(byCredit.status, 200, JSON.stringify(byCredit.body));
      assert.deepEqual(
        byCredit.body.map((v: { licenseId: string; credit: number }) => [v.licenseId, v.credit]).slice(0, 2),
        [
          ['DEMO-10', 700],
          ['DEMO-9', 300],
        ],
      );
      assert.equal(byCredit.body[2].credit, 0);

      const withCredit = await as(
        t.http.get('/api/vendors/').query({ filter: '{"hasCredit":true}', sort: '["credit","ASC"]' }),
      );
      assert.deepEqual(
        withCredit.body.map((v: { licenseId: string }) => v.licenseId),
        ['DEMO-9', 'DEMO-10'],
      );
      const without = await as(t.http.get('/api/vendors/').query({ filter: '{"hasCredit":false}', range: '[0,0]' }));
      const total = Number(
        (await as(t.http.get('/api/vendors/').query({ range: '[0,0]' }))).headers['content-range'].split('/')[1],
      );
      assert.equal(Number(without.headers['content-range'].split('/')[1]), total - 2);
      assert.equal((await as(t.http.get('/api/vendors/').query({ filter: '{"hasCredit":"yes"}' }))).status, 400);

      const listed = await listedVendor(t, office, 'DEMO-10');
      const record = await as(t.http.get(`/api/vendors/${listed.id}`));
      assert.deepEqual(record.body, listed);
      assert.deepEqual([record.body.credit, record.body.openPayments, record.body.lastPayout], [700, 3, null]);
    });

    it('refuses to delete a vendor whose credit is not zero, and deletes once it is paid out', async () => {
      await sell(shop, t.db, { vendor: 'DEMO-11', items: { Zeitung: 1 } });
      const vendor = await listedVendor(t, office, 'DEMO-11');
      const refused = await as(t.http.delete(`/api/vendors/${vendor.id}`));
      assert.equal(refused.status, 409);
      assert.match(refused.body.message, /credit is not zero \(€3\.00\)/);
      assert.equal((await as(t.http.get(`/api/vendors/${vendor.id}`))).status, 200, 'still there');
      await payOut('DEMO-11', 300);
      assert.equal((await as(t.http.delete(`/api/vendors/${vendor.id}`))).status, 200);
    });

    it('shows a vendor their own latest lines, newest first, marked paid out or open, and nobody else’s', async () => {
      await sell(shop, t.db, { vendor: 'DEMO-12', items: { Zeitung: 1 }, card: noFeeCard });
      await payOut('DEMO-12', 300);
      await sell(shop, t.db, { vendor: 'DEMO-12', items: { 'Digitale Ausgabe': 1 }, card: noFeeCard });
      await sell(shop, t.db, { vendor: 'DEMO-13', items: { Zeitung: 1 }, card: noFeeCard });
      const vendor = await listedVendor(t, office, 'DEMO-12');
      const token = await t.auth(['vendor'], { sub: 'demo-12', email: vendor.email, vendor: vendor.licenseId });
      const res = await t.http.get('/api/vendors/me/payments/').set('Authorization', token);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      type Line = { kind: string; items: { name: string }[]; amount: number; paidOut: boolean };
      assert.deepEqual(
        res.body.map((line: Line) => [line.kind, line.items.map((item) => item.name), line.amount, line.paidOut]),
        [
          ['sale', ['Digitale Ausgabe'], 300 - 50, false],
          ['payout', [], -300, true],
          ['sale', ['Zeitung'], 300, true],
        ],
      );
      assert.equal((await t.http.get('/api/vendors/me/payments/').set('Authorization', office)).status, 403);
    });
  });
});
