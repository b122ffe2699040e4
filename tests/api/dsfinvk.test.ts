import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { itemId, vendorId } from '../support/orders.ts';
import { listenShop, type ListeningShop } from '../support/shop-server.ts';

// The DSFinV-K export of a period read back as the tax office's software reads it: index.xml names
// every file and its columns, every CSV holds them, and its Vorgänge equal the cash book's movements
// of the period to the cent, signed by the TSE.

/** One CSV line of the DSFinV-K's format: `;` between fields, text in double quotes ("" inside). */
function parseLine(line: string): string[] {
  const fields: string[] = [];
  let at = 0;
  while (at <= line.length) {
    if (line[at] === '"') {
      let value = '';
      at++;
      for (;;) {
        const end = line.indexOf('"', at);
        if (end < 0) throw new Error(`unclosed quote in ${line}`);
        value += line.slice(at, end);
        at = end + 1;
        if (line[at] === '"') {
          value += '"';
          at++;
        } else break;
      }
      fields.push(value);
      at++; // the ;
    } else {
      const end = line.indexOf(';', at);
      fields.push(line.slice(at, end < 0 ? line.length : end));
      at = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return fields;
}

interface Table {
  url: string;
  columns: string[];
  rows: Record<string, string>[];
}

/** The ZIP as the tables index.xml lists, each CSV parsed and held against its columns. */
function readExport(zip: Uint8Array): Map<string, Table> {
  const files = unzipSync(zip);
  const index = strFromU8(files['index.xml']);
  const tables = new Map<string, Table>();
  for (const [, body] of index.matchAll(/<Table>([\s\S]*?)<\/Table>/g)) {
    const url = /<URL>([^<]+)<\/URL>/.exec(body)![1];
    const columns = [...body.matchAll(/<Name>([^<]+)<\/Name>/g)].map((m) => m[1]).slice(1);
    const file = files[url];
    assert.ok(file, `${url} is in the ZIP`);
    const lines = strFromU8(file).split('\r\n');
    assert.equal(lines.pop(), '', `${url} ends with a line break`);
    assert.deepEqual(parseLine(lines[0]), columns, `${url}'s header is index.xml's columns`);
    const rows = lines.slice(1).map((line, n) => {
      const values = parseLine(line);
      assert.equal(values.length, columns.length, `${url} line ${n + 2} has every column`);
      return Object.fromEntries(columns.map((c, i) => [c, values[i]]));
    });
    tables.set(url, { url, columns, rows });
  }
  return tables;
}

const cents = (decimal: string) => Math.round(Number(decimal.replace(',', '.')) * 100);

/** The export's cash per Vorgang against the cash book's movements: every difference, named. */
function differences(
  payments: Record<string, string>[],
  book: { voucher: string; amountIn: number; amountOut: number }[],
): string[] {
  const cash = new Map<string, number>();
  for (const row of payments)
    if (row.ZAHLART_TYP === 'Bar') cash.set(row.BON_ID, (cash.get(row.BON_ID) ?? 0) + cents(row.BASISWAEH_BETRAG));
  const found: string[] = [];
  for (const m of book) {
    const exported = cash.get(m.voucher);
    if (exported !== m.amountIn - m.amountOut)
      found.push(`${m.voucher}: book ${m.amountIn - m.amountOut}, export ${exported}`);
    cash.delete(m.voucher);
  }
  for (const [bon, amount] of cash) found.push(`${bon}: export ${amount} in cash, not in the book`);
  return found;
}

describeApi('fiscal: the DSFinV-K export of a period', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenShop(t, (config) => ({ fiscal: { ...config.fiscal, mode: 'test', country: 'DE' } }));
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const get = (path: string) => shop.http.get(path).set('Authorization', office);
  const post = (path: string, body: object) => shop.http.post(path).set('Authorization', office).send(body);

  it('the ZIP parses back (index.xml and every CSV it lists), its Vorgänge equal the cash book to the cent, a planted difference is found', async () => {
    const tills = (await get('/api/tills')).body;
    const till = tills.tills[0].id as number;
    const today = tills.today as string;
    const zeitung = await itemId(t.db, 'Zeitung');
    assert.equal(
      (
        await shop.http
          .put(`/api/tills/${till}/fiscal`)
          .set('Authorization', office)
          .send({ mode: 'test', country: null })
      ).status,
      200,
    );

    await bookPaidOrder(t.db, await vendorId(t.db, 'DEMO-3'), new Date(), { prints: 10, digital: 0, tip: 1600 });
    const credit = (await get('/api/counter/vendor').query({ vendor: 'DEMO-3' })).body.credit as number;
    const visit = (body: object) =>
      post('/api/counter/visits', { visitId: randomUUID(), cash: 0, payOut: false, items: [], ...body });
    const fromCredit = await visit({
      vendor: 'DEMO-3',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 10 }],
      payOut: true,
      expectedCredit: credit,
    });
    assert.equal(fromCredit.status, 201, JSON.stringify(fromCredit.body));
    const cashSale = await visit({
      vendor: 'DEMO-4',
      tillId: till,
      items: [{ itemId: zeitung, quantity: 3 }],
      cash: 450,
      expectedCredit: 0,
    });
    assert.equal(cashSale.status, 201, JSON.stringify(cashSale.body));
    for (const movement of [
      { kind: 'bank_deposit', amount: 5000, reason: '' },
      { kind: 'expense', amount: 1234, reason: 'Briefmarken' },
      { kind: 'income', amount: 99, reason: 'Spende in die Kasse' },
    ])
      assert.equal((await post(`/api/tills/${till}/movements`, movement)).status, 201);
    const expected = (await get('/api/tills')).body.tills[0].balance as number;
    assert.equal(
      (await post(`/api/tills/${till}/closes`, { counted: expected + 7, expected, reason: 'Münze gefunden' })).status,
      201,
    );
    assert.equal((await post('/api/fiscal/retry', {})).body.transactions.length, 0, 'all signed');

    const res = await get(`/api/tills/dsfinvk?from=${today}&to=${today}`)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    assert.equal(res.status, 200, String(res.body));
    assert.equal(res.headers['content-type'], 'application/zip');
    assert.match(res.headers['content-disposition'] ?? '', /dsfinvk_/);
    const tables = readExport(new Uint8Array(res.body as Buffer));
    for (const file of [
      'cashpointclosing.csv',
      'transactions.csv',
      'lines.csv',
      'lines_vat.csv',
      'transactions_vat.csv',
      'datapayment.csv',
      'transactions_tse.csv',
      'tse.csv',
      'businesscases.csv',
      'payment.csv',
      'cashregister.csv',
      'vat.csv',
      'location.csv',
      'cash_per_currency.csv',
    ])
      assert.ok(tables.has(file), file);

    const book = (await get(`/api/tills/${till}/book?from=${today}&to=${today}`)).body.movements as {
      voucher: string;
      amountIn: number;
      amountOut: number;
    }[];
    assert.equal(book.length, 6, 'payout, cash for copies, deposit, expense, income, difference');
    const payments = tables.get('datapayment.csv')!.rows;
    assert.deepEqual(differences(payments, book), []);
    // The comparison finds a cent planted in the export, and a movement missing from it.
    const bar = payments.findIndex((row) => row.ZAHLART_TYP === 'Bar');
    const planted = payments.map((row, n) =>
      n === bar
        ? { ...row, BASISWAEH_BETRAG: ((cents(row.BASISWAEH_BETRAG) + 1) / 100).toFixed(2).replace('.', ',') }
        : row,
    );
    assert.equal(differences(planted, book).length, 1);
    assert.equal(
      differences(
        payments.filter((_, n) => n !== bar),
        book,
      ).length,
      1,
    );

    // The visit paid from the credit alone is a Vorgang without cash: Umsatz at 7 %, paid Unbar.
    const unbar = payments.filter((row) => row.ZAHLART_TYP === 'Unbar');
    assert.deepEqual(
      unbar.map((row) => cents(row.BASISWAEH_BETRAG)),
      [1500],
    );
    const sale = tables.get('transactions_vat.csv')!.rows.find((row) => row.BON_ID === unbar[0].BON_ID)!;
    assert.deepEqual(
      [sale.UST_SCHLUESSEL, sale.BON_BRUTTO, sale.BON_NETTO, sale.BON_UST],
      ['2', '15,00', '14,02', '0,98'],
    );

    // One close, its totals the cash book's; every Vorgang signed by the TSE the export lists.
    const closing = tables.get('cashpointclosing.csv')!.rows;
    assert.equal(closing.length, 1);
    assert.equal(
      cents(closing[0].Z_SE_BARZAHLUNGEN),
      book.reduce((sum, m) => sum + m.amountIn - m.amountOut, 0),
    );
    const bons = tables.get('transactions.csv')!.rows;
    assert.equal(bons.length, 7, 'six movements of cash and the visit paid from the credit');
    const tse = tables.get('transactions_tse.csv')!.rows;
    assert.deepEqual(tse.map((row) => row.BON_ID).sort(), bons.map((row) => row.BON_ID).sort());
    assert.ok(tse.every((row) => row.TSE_TA_SIG && !row.TSE_TA_FEHLER && row.TSE_ID === '1'));
    const signedTse = tables.get('tse.csv')!.rows;
    assert.equal(signedTse.length, 1);
    assert.equal(signedTse[0].TSE_SIG_ALGO, 'ecdsa-plain-SHA384');
    const cases = tables
      .get('businesscases.csv')!
      .rows.map((row) => [row.GV_TYP, row.UST_SCHLUESSEL, row.Z_UMS_BRUTTO]);
    assert.deepEqual(
      cases.sort(),
      [
        // the payout and the expense: sums per business case and VAT key, as the close reports them
        ['Auszahlung', '5', `-${((book[0].amountOut + 1234) / 100).toFixed(2).replace('.', ',')}`],
        ['DifferenzSollIst', '5', '0,07'],
        ['Einzahlung', '5', '0,99'],
        ['Geldtransit', '5', '-50,00'],
        ['Umsatz', '2', '19,50'],
      ].sort(),
    );
  });
});
