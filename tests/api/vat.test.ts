import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { bookPaidOrder } from '../support/books.ts';
import { describeApi } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';
import { itemId, vendorId } from '../support/orders.ts';
import { pdfPrinter } from '../support/pdf.ts';

// VAT at the counter: the newspaper's rate and an item's own are settings (percent, editable through
// the API like every setting, refused with a sentence in the reader's language), a counter sale is
// booked at the rate of its day, and the purchase receipt (Kaufbeleg) states the seller, each line's
// rate, VAT and gross amount, the VAT per rate and the gross total: read back from Chromium's PDF.
// The figures are worked by hand (VAT = gross − round(gross / (1 + rate))).

describeApi('VAT rates and the purchase receipt', (t) => {
  let office = '';
  const printer = pdfPrinter();
  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);
  const putSettings = (fields: Record<string, string>, language = 'en') =>
    withForm(as(t.http.put('/api/settings')).set('Accept-Language', language), fields);
  const putItem = async (name: string, fields: Record<string, string>, language = 'en') =>
    withForm(as(t.http.put(`/api/items/${await itemId(t.db, name)}`)).set('Accept-Language', language), fields);
  before(async () => {
    office = await t.office();
  });
  after(() => printer.close());

  it('keeps the newspaper’s rate (7 % until chosen) and an item’s own in percent; refuses what is no rate, in German too', async () => {
    const start = await t.http.get('/api/settings');
    assert.equal(start.body.vatRate, 7, 'the reduced rate for newspapers in Germany');
    assert.equal(start.body.newspaperAddress, '');

    const austria = await putSettings({ vatRate: '10', newspaperAddress: 'Stumpergasse 1\n1060 Wien' });
    assert.equal(austria.status, 200, JSON.stringify(austria.body));
    assert.equal(austria.body.vatRate, 10);
    assert.equal((await t.http.get('/api/settings')).body.newspaperAddress, 'Stumpergasse 1\n1060 Wien');
    assert.equal((await t.db('settings').first('vat_rate')).vat_rate, 1000, 'stored in hundredths of a percent');

    const refused = await putSettings({ vatRate: '7.125' }, 'de');
    assert.equal(refused.status, 400);
    assert.equal(
      refused.body.errors.vatRate,
      'Bitte den Mehrwertsteuersatz in Prozent zwischen 0 und 100 eingeben, zum Beispiel 7 oder 5,5.',
    );
    const empty = await putSettings({ vatRate: '' });
    assert.equal(empty.status, 400);
    assert.equal(
      empty.body.errors.vatRate,
      'Please enter the VAT rate in percent between 0 and 100, for example 7 or 5.5.',
    );
    assert.equal((await putSettings({ vatRate: '101' })).status, 400);
    assert.equal((await t.http.get('/api/settings')).body.vatRate, 10, 'a refused rate changes nothing');

    const own = await putItem('Kalender 2027', { vatRate: '5,5' });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.vatRate, 5.5);
    const itemRefused = await putItem('Kalender 2027', { vatRate: 'sieben' }, 'de');
    assert.equal(itemRefused.status, 400);
    assert.equal(
      itemRefused.body.errors.vatRate,
      'Bitte den Mehrwertsteuersatz in Prozent zwischen 0 und 100 eingeben, zum Beispiel 7 oder 5,5.',
    );
    const back = await putItem('Kalender 2027', { vatRate: '' });
    assert.equal(back.body.vatRate, null, 'empty: the newspaper’s rate');
    const zeitung = await as(t.http.get(`/api/items/${await itemId(t.db, 'Zeitung')}`));
    assert.equal(zeitung.body.vatRate, null);
  });

  it('prints the Kaufbeleg with the seller, each line’s rate, VAT and gross, the VAT per rate and the total, on one page', async function () {
    this.timeout(90_000);
    // An Austrian newspaper (10 %), the calendar at the standard rate of 20 %.
    await putSettings({ vatRate: '10', newspaperAddress: 'Stumpergasse 1\n1060 Wien' });
    assert.equal((await putItem('Kalender 2027', { vatRate: '20' })).status, 200);
    const vendor = await vendorId(t.db, 'DEMO-6');
    await bookPaidOrder(t.db, vendor, new Date(), { prints: 4, digital: 0, tip: 0 });
    const shown = await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-6' }));
    const visit = await as(t.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-6',
      tillId: shown.body.tills[0].id,
      items: [
        { itemId: await itemId(t.db, 'Zeitung'), quantity: 3 },
        { itemId: await itemId(t.db, 'Kalender 2027'), quantity: 1 },
      ],
      cash: 0,
      payOut: false,
      expectedCredit: shown.body.credit,
    });
    assert.equal(visit.status, 201, JSON.stringify(visit.body));
    // 3 × 1,50 € at 10 %: net round(409,09) = 409, VAT 41; 5,00 € at 20 %: net round(416,67) = 417, VAT 83.
    assert.deepEqual(
      visit.body.lines.map((l: { itemName: string; amount: number; vatRate: number; vat: number }) => [
        l.itemName,
        l.amount,
        l.vatRate,
        l.vat,
      ]),
      [
        ['Zeitung', 450, 10, 41],
        ['Kalender 2027', 500, 20, 83],
      ],
    );
    assert.deepEqual(visit.body.vatTotals, [
      { rate: 20, gross: 500, vat: 83 },
      { rate: 10, gross: 450, vat: 41 },
    ]);

    // A rate changed later leaves the receipt as it was: the sale keeps the rate it was booked at.
    await putSettings({ vatRate: '7' });
    await putItem('Kalender 2027', { vatRate: '' });

    const html = await as(t.http.get(`/api/counter/visits/${visit.body.id}/receipt`));
    assert.equal(html.status, 200);
    const printed = await printer.print(html.text, `kaufbeleg-${t.engine}`);
    assert.equal(printed.pages, 1, 'one page');
    const text = printed.text;
    assert.match(text, /Kaufbeleg/);
    assert.match(text, /Verkauft von\s+Straßenblatt Demo\n\s+Stumpergasse 1\n\s+1060 Wien\n/);
    assert.match(text, /Position\s+Menge\s+MwSt-Satz\s+MwSt\s+Betrag \(brutto\)/);
    assert.match(text, /3 × Zeitung à 1,50 €\s+3\s+10 %\s+0,41 €\s+4,50 €/);
    assert.match(text, /1 × Kalender 2027 à 5,00 €\s+1\s+20 %\s+0,83 €\s+5,00 €/);
    assert.match(text, /Darin MwSt 20 % auf 5,00 €\s+0,83 €/);
    assert.match(text, /Darin MwSt 10 % auf 4,50 €\s+0,41 €/);
    assert.match(text, /Summe \(brutto\)\s+1,24 €\s+9,50 €/);

    const english = await as(t.http.get(`/api/counter/visits/${visit.body.id}/receipt`).query({ lang: 'en' }));
    const printedEn = await printer.print(english.text, `purchase-receipt-${t.engine}`);
    assert.equal(printedEn.pages, 1);
    assert.match(printedEn.text, /Sold by\s+Straßenblatt Demo/);
    assert.match(printedEn.text, /3 × Zeitung at €1.50\s+3\s+10%\s+€0.41\s+€4.50/);
    assert.match(printedEn.text, /Total \(gross\)\s+€1.24\s+€9.50/);
  });

  it('books a counter sale at the item’s rate, else the newspaper’s', async () => {
    await putSettings({ vatRate: '7' });
    await putItem('Kalender 2027', { vatRate: '19' });
    const vendor = await vendorId(t.db, 'DEMO-7');
    await bookPaidOrder(t.db, vendor, new Date(), { prints: 4, digital: 0, tip: 0 });
    const shown = await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-7' }));
    const visit = await as(t.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-7',
      tillId: shown.body.tills[0].id,
      items: [
        { itemId: await itemId(t.db, 'Zeitung'), quantity: 1 },
        { itemId: await itemId(t.db, 'Kalender 2027'), quantity: 1 },
      ],
      cash: 0,
      payOut: false,
      expectedCredit: shown.body.credit,
    });
    assert.equal(visit.status, 201, JSON.stringify(visit.body));
    const rows = await t
      .db('ledger_rows as r')
      .join('items as i', 'i.id', 'r.item_id')
      .where({ 'r.counter_visit_id': visit.body.id })
      .orderBy('i.name')
      .select('i.name', 'r.vat_rate');
    assert.deepEqual(
      rows.map((r: { name: string; vat_rate: number }) => [r.name, r.vat_rate]),
      [
        ['Kalender 2027', 1900],
        ['Zeitung', 700],
      ],
    );
  });
});
