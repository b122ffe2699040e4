import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { itemId, vendorId } from '../support/orders.ts';
import { pdfPrinter } from '../support/pdf.ts';
import { fields } from '../support/datev.ts';

// One voucher numbering: every cash movement's voucher of its till and year ("1-2026-000042") is
// THE number of that movement, the same on the printed receipt (read back from Chromium's PDF), in
// the cash book's CSV, in the payout list and its CSV, on the vendor's page and in DATEV's
// Belegfeld 1; a reversal has its own voucher and names the payout's. The vouchers expected here
// are read from cash_movements by the test's own SQL.

/** A `;` file as rows of fields by their heading (`headerRow`: which line holds the headings). */
function table(text: string, headerRow = 0): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n/)
    .filter((line) => line !== '');
  const headings = fields(lines[headerRow]);
  return lines.slice(headerRow + 1).map((line) => {
    const values = fields(line);
    return Object.fromEntries(headings.map((heading, i) => [heading, values[i] ?? '']));
  });
}

const asBytes = (request: supertest.Test) =>
  request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

describeApi('one voucher numbering: receipts, cash book, payouts, DATEV', (t) => {
  let office = '';
  const printer = pdfPrinter();
  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  before(async () => {
    office = await t.office();
  });
  after(() => printer.close());

  /** Every cash movement of the till: kind, amount and voucher, by the test's own SQL. */
  async function movements(tillId: number) {
    const rows = await t
      .db('cash_movements')
      .where({ till_id: tillId })
      .orderBy('id')
      .select('kind', 'amount', 'till_id', 'year', 'voucher_number');
    return rows.map(
      (m: { kind: string; amount: string | number; till_id: number; year: number; voucher_number: number }) => ({
        kind: m.kind,
        amount: Number(m.amount),
        voucher: `${m.till_id}-${m.year}-${String(m.voucher_number).padStart(6, '0')}`,
      }),
    );
  }

  it('prints, lists and exports one voucher per cash movement; a reversal has its own, naming the payout’s', async function () {
    this.timeout(120_000);
    const vendor = await vendorId(t.db, 'DEMO-4');
    await bookPaidOrder(t.db, vendor, new Date(), { prints: 3, digital: 0, tip: 200 });
    const shown = await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-4' }));
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    const till = shown.body.tills[0].id as number;
    const before = (await movements(till)).length;

    // A visit: two papers, 1,00 € of them in cash, the rest of the credit paid out.
    const visit = await as(t.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 2 }],
      cash: 100,
      payOut: true,
      expectedCredit: shown.body.credit,
    });
    assert.equal(visit.status, 201, JSON.stringify(visit.body));
    const payoutId = visit.body.payout.id as number;
    const reversed = await as(t.http.post(`/api/payments/payout/${payoutId}/reverse`)).send({
      reason: 'Counted wrong',
    });
    assert.equal(reversed.status, 200, JSON.stringify(reversed.body));

    const booked = (await movements(till)).slice(before);
    assert.deepEqual(
      booked.map((m) => m.kind),
      ['counter_cash', 'payout', 'payout_reversal'],
    );
    const [cash, payout, reversal] = booked as [(typeof booked)[0], (typeof booked)[0], (typeof booked)[0]];
    assert.equal(new Set(booked.map((m) => m.voucher)).size, 3, 'three movements, three vouchers');
    const { receipt_number: oldNumber } = await t.db('payouts').where({ id: payoutId }).first('receipt_number');
    assert.notEqual(oldNumber, payout.voucher);
    // "2026-000012" on its own, not as the tail of a voucher "1-2026-000012".
    const printsOldNumber = (text: string) => new RegExp(`(?<![\\d-])${oldNumber}`).test(text);

    // The API answers the movement's voucher as the payout's number, and the reversal's own.
    assert.equal(visit.body.payout.voucher, payout.voucher);
    assert.deepEqual(visit.body.vouchers, [cash.voucher, payout.voucher]);
    assert.equal(reversed.body.voucher, payout.voucher);
    assert.equal(reversed.body.reversalVoucher, reversal.voucher);

    // On paper: the visit's receipt, the payout's receipt and the reversal's own (Stornobeleg).
    const paper = async (path: string, name: string) => {
      const res = await as(t.http.get(path));
      assert.equal(res.status, 200, path);
      const printed = await printer.print(res.text, `${name}-${t.engine}`);
      assert.equal(printed.pages, 1, `${name} is one page`);
      return printed.text;
    };
    const visitPaper = await paper(`/api/counter/visits/${visit.body.id}/receipt`, 'vouchers-visit');
    assert.match(visitPaper, new RegExp(`Beleg-Nr\\.\\s+${cash.voucher}, ${payout.voucher}\\s*\\n`));
    assert.ok(!printsOldNumber(visitPaper), 'the payout’s receipt number is not printed beside its voucher');
    const payoutPaper = await paper(`/api/payouts/${payoutId}/receipt`, 'vouchers-payout');
    assert.match(payoutPaper, new RegExp(`Beleg-Nr\\.\\s+${payout.voucher}\\s*\\n`));
    assert.match(payoutPaper, new RegExp(`STORNIERT am .*\\n\\s*Stornobeleg ${reversal.voucher}\\s*\\n`));
    assert.ok(!printsOldNumber(payoutPaper));
    const reversalPaper = await paper(`/api/payouts/${payoutId}/reversal/receipt`, 'vouchers-reversal');
    assert.match(reversalPaper, /Stornobeleg/);
    assert.match(reversalPaper, new RegExp(`Beleg-Nr\\.\\s+${reversal.voucher}\\s*\\n`));
    assert.match(reversalPaper, new RegExp(`Storno zu\\s+${payout.voucher}\\s*\\n`));
    const notReversed = await as(t.http.get(`/api/payouts/999999/reversal/receipt`));
    assert.equal(notReversed.status, 404);

    // The cash book's CSV: each movement under its voucher, the reversal naming the payout's.
    const bookCsv = await as(t.http.get(`/api/tills/${till}/book`).query({ format: 'csv' }));
    assert.equal(bookCsv.status, 200);
    const book = table(bookCsv.text).slice(before);
    assert.deepEqual(
      book.map((row) => [row.Voucher, row['Reversal of']]),
      [
        [cash.voucher, ''],
        [payout.voucher, ''],
        [reversal.voucher, payout.voucher],
      ],
    );

    // The payout list and its CSV: the payout's voucher and its reversal's.
    const listed = await as(t.http.get('/api/payouts').query({ filter: JSON.stringify({ vendor: 'DEMO-4' }) }));
    assert.deepEqual(
      listed.body.map((p: { id: number; voucher: string; reversalVoucher: string | null }) => [
        p.id,
        p.voucher,
        p.reversalVoucher,
      ]),
      [[payoutId, payout.voucher, reversal.voucher]],
    );
    const payoutsCsv = await as(t.http.get('/api/payouts').query({ format: 'csv', vendor: 'DEMO-4' }));
    assert.equal(payoutsCsv.status, 200);
    assert.deepEqual(
      table(payoutsCsv.text).map((row) => [row['Voucher number'], row['Reversal voucher']]),
      [[payout.voucher, reversal.voucher]],
    );

    // DATEV: Belegfeld 1 of every line that books a cash movement is that movement's voucher.
    const defaults = await as(t.http.get('/api/accounting/datev/settings'));
    // The chart's defaults as they are answered, with the numbers an export needs.
    const { chartDefaults: _chartDefaults, ...chosen } = defaults.body;
    const saved = await as(t.http.put('/api/accounting/datev/settings')).send({
      ...chosen,
      adviserNumber: '29098',
      clientNumber: '55003',
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: t.config.timeZone }).format(new Date());
    const download = await asBytes(
      as(t.http.get('/api/accounting/datev').query({ from: `${today.slice(0, 8)}01`, to: today })),
    );
    assert.equal(download.status, 200, String(download.body));
    const datev = table(new TextDecoder('windows-1252').decode(download.body as Buffer), 1);
    const amount = (cents: number) => (Math.abs(cents) / 100).toFixed(2).replace('.', ',');
    for (const movement of booked) {
      const lines = datev.filter((line) => line['Belegfeld 1'] === movement.voucher);
      assert.ok(
        lines.some((line) => line['Umsatz (ohne Soll/Haben-Kz)'] === amount(movement.amount)),
        `DATEV books the ${movement.kind} of ${amount(movement.amount)} under ${movement.voucher}: ` +
          JSON.stringify(datev.map((line) => [line['Belegfeld 1'], line['Umsatz (ohne Soll/Haben-Kz)']])),
      );
    }
    assert.ok(
      !datev.some((line) => line['Belegfeld 1'] === oldNumber),
      'no DATEV line carries the payout’s receipt number instead of a voucher',
    );
  });

  it('shows the vendor the last payout’s voucher on their page', async () => {
    const vendor = await vendorId(t.db, 'DEMO-5');
    await bookPaidOrder(t.db, vendor, new Date(), { prints: 1, digital: 0, tip: 0 });
    const shown = await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-5' }));
    const paid = await as(t.http.post('/api/payments/payout')).send({
      vendor: 'DEMO-5',
      expectedAmount: shown.body.credit,
    });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    const [movement] = (await movements(shown.body.tills[0].id)).slice(-1);
    assert.equal(paid.body.voucher, movement.voucher);
    const me = await t.http
      .get('/api/vendors/me')
      .set(
        'Authorization',
        await t.auth(['vendor'], { sub: 'vendor-DEMO-5', preferred_username: 'DEMO-5', vendor: 'DEMO-5' }),
      );
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.lastPayout.voucher, movement.voucher);
  });
});
