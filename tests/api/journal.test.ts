import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { itemId, vendorId } from '../support/orders.ts';

// The bookkeeper's journal (date, voucher, debit, credit, amount, currency, text) books every
// movement once, so each account's debits and credits in the file are the trial balance's, as the
// DATEV file's are (datev-books.test.ts): card sales with a tip, a counter visit paid in cash (rounded
// at a Swiss till), a bank deposit, an expense and a close that counts short; in euro and in francs,
// its texts in German and in English.

/** "13.47" → 1347, "-0.02" → -2; "600" in a currency without minor units → 600. */
const minor = (amount: string, exponent: number) => {
  const [whole = '0', part = ''] = amount.split('.');
  return Number(whole) * 10 ** exponent + Number(part.padEnd(exponent, '0') || 0);
};

describeApi('the journal CSV against the trial balance', (t) => {
  let office = '';
  before(async () => {
    office = await t.office();
  });
  beforeEach(() => t.reset());
  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);

  /** The journal of one day for a reader of `language`, as its lines. */
  const journal = async (day: string, language: 'de' | 'en') => {
    const res = await as(t.http.get('/api/accounting/journal').query({ from: day, to: day }))
      .set('Accept-Language', language)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      });
    assert.equal(res.status, 200, String(res.body));
    assert.match(String(res.headers.vary), /Accept-Language/);
    return (res.body as string).trimEnd().split('\r\n');
  };

  for (const { currency, country, price } of [
    { currency: 'EUR', country: 'DE', price: 150 },
    { currency: 'CHF', country: 'CH', price: 1347 },
  ]) {
    it(`reconciles per account in ${currency} (${country})`, async function () {
      this.timeout(60_000);
      await t.db('settings').update({ currency, country });
      await t.db('items').where({ name: 'Zeitung' }).update({ counter_price: price });
      const zone = t.config.timeZone;
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
      await bookPaidOrder(t.db, await vendorId(t.db, 'DEMO-2'), new Date(), { prints: 2, digital: 0, tip: 150 });

      const counter = await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-2' }));
      const till = counter.body.tills[0] as { id: number };
      const visit = await as(t.http.post('/api/counter/visits')).send({
        visitId: randomUUID(),
        vendor: 'DEMO-2',
        tillId: till.id,
        items: [{ itemId: await itemId(t.db, 'Zeitung'), quantity: 1 }],
        cash: price,
        payOut: true,
        expectedCredit: counter.body.credit,
      });
      assert.equal(visit.status, 201, JSON.stringify(visit.body));
      const move = (body: object) => as(t.http.post(`/api/tills/${till.id}/movements`)).send(body);
      assert.equal((await move({ kind: 'bank_deposit', amount: 10_000 })).status, 201);
      assert.equal((await move({ kind: 'expense', amount: 1250, reason: 'Briefmarken, "Porto"' })).status, 201);
      const { balance } = (await as(t.http.get('/api/tills')).then((res) => res.body.tills[0])) as { balance: number };
      const closed = await as(t.http.post(`/api/tills/${till.id}/closes`)).send({
        counted: balance - 200,
        expected: balance,
        reason: 'Wechselgeld',
      });
      assert.equal(closed.status, 201, JSON.stringify(closed.body));

      const [head, ...rows] = await journal(today, 'de');
      assert.equal(head, 'Date,Voucher,Debit account,Credit account,Amount,Currency,Text');
      const sums: Record<string, { debit: number; credit: number }> = {};
      const at = (account: string) => (sums[account] ??= { debit: 0, credit: 0 });
      for (const row of rows) {
        // Only the text can hold a quoted comma: the six fields before it are plain.
        const [date, , debit, credit, amount, code] = row.split(',');
        assert.equal(date, today);
        assert.equal(code, currency);
        assert.match(amount, /^\d+\.\d\d$/);
        at(debit).debit += minor(amount, 2);
        at(credit).credit += minor(amount, 2);
      }
      assert.ok(rows.some((row) => row.includes('"Ausgabe, Kasse 1, Briefmarken, ""Porto"""')));
      assert.ok(rows.some((row) => row.includes('"Verkauf Zeitung, ')));
      assert.ok(rows.some((row) => row.includes('"Kassenfehlbetrag, Kasse 1, Wechselgeld"')));
      if (country === 'CH') assert.ok(rows.some((row) => row.includes(',4901,') && row.includes('Rundungsdifferenz')));

      // An English reader gets the same bookings, each text in English; the headings stay as they are.
      const [englishHead, ...english] = await journal(today, 'en');
      assert.equal(englishHead, head);
      const withoutText = (row: string) => row.split(',').slice(0, 6).join(',');
      assert.deepEqual(english.map(withoutText), rows.map(withoutText));
      assert.ok(english.some((row) => row.includes('"Expense, Kasse 1, Briefmarken, ""Porto"""')));
      assert.ok(english.some((row) => row.includes('"Sale Newspaper, ')));
      assert.ok(english.some((row) => row.includes('"Till shortfall, Kasse 1, Wechselgeld"')));
      assert.ok(english.some((row) => row.includes('"Bank deposit, Kasse 1"')));
      if (country === 'CH') assert.ok(english.some((row) => row.includes(',4901,') && row.includes('Cash rounding')));
      for (const german of ['Verkauf', 'Ausgabe', 'Kassenfehlbetrag', 'Einzahlung', 'Rundungsdifferenz', 'Trinkgeld'])
        assert.ok(!english.some((row) => row.includes(german)), `no "${german}" in English`);

      const balanceRes = await as(t.http.get('/api/accounting/trial-balance').query({ from: today, to: today }));
      assert.equal(balanceRes.status, 200);
      const lines = balanceRes.body.lines as { account: string; role: string; debit: number; credit: number }[];
      assert.deepEqual(
        Object.fromEntries(Object.entries(sums).sort()),
        Object.fromEntries(
          lines
            .filter((line) => line.debit || line.credit)
            .map((line) => [line.account, { debit: line.debit, credit: line.credit }])
            .sort(),
        ),
      );
      const rounding = lines.find((line) => line.role === 'rounding');
      // The visit's cash rounded 0.02 off the copies, and the rest of the credit was paid out rounded up by 0.01.
      if (country === 'CH') assert.deepEqual([rounding?.debit, rounding?.credit], [3, 0]);
      else assert.equal(rounding, undefined);
    });
  }

  it('asks for both days, in German too', async () => {
    const res = await as(t.http.get('/api/accounting/journal').query({ from: '2026-01-01' })).set(
      'Accept-Language',
      'de',
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Bitte den ersten und den letzten Tag des Journals wählen.');
  });
});
