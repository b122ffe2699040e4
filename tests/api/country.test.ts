import assert from 'node:assert/strict';
import type { Db } from '../../api/src/db/connection.ts';
import { loadConfig } from '../../api/src/foundations/config.ts';
import { adoptCountry } from '../../api/src/country/installation.ts';
import { countries, presets, roundCash } from '../../api/src/country/presets.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { demoCompanies, demoPrices } from '../../seeds/demo.ts';
import { describeApi } from '../support/env.ts';
import { withForm } from '../support/fixtures.ts';

// The country of an installation: its preset's rates, rounding, coins and notes, and signing law,
// and the demo a first start seeds in it.

/** Empties the database the way a fresh install is: migrated, the settings row, nothing else. */
async function emptyDatabase(db: Db): Promise<void> {
  const { rows } = await db.raw<{ rows: { tablename: string }[] }>(
    `select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex_migrations%'`,
  );
  await db.raw(`truncate table ${rows.map((r) => `"${r.tablename}"`).join(', ')} restart identity cascade`);
  await db('settings').insert({ id: 1 });
}

describe('country presets', () => {
  it('has the newspaper rates of each country’s law, in hundredths of a percent', () => {
    const newspaper = Object.fromEntries(countries.map((c) => [c, presets[c].tax.newspaper]));
    assert.deepEqual(newspaper, { DE: 700, AT: 1000, CH: 260, GB: 0, US: 0, CA: 0, SE: 600, JP: 1000 });
    assert.deepEqual(
      countries.map((c) => presets[c].tax.standard),
      [1900, 2000, 810, 2000, 0, 0, 2500, 1000],
    );
    assert.ok(presets.US.tax.bySubdivision && presets.CA.tax.bySubdivision, 'sales tax is set per state or province');
    for (const c of countries) {
      assert.equal(presets[c].tax.tip, 0, `${c}: a tip carries no VAT`);
      assert.match(presets[c].tax.source, /^https:\/\//, `${c} cites its source`);
      assert.match(presets[c].cashRounding.source + presets[c].denominations.source, /https:\/\//);
    }
  });

  it('rounds cash to 0.05 in CHF and CAD, to whole kronor in SEK, and not at all elsewhere', () => {
    assert.equal(roundCash(1347, presets.CH.cashRounding.step), 1345);
    assert.equal(roundCash(1348, presets.CH.cashRounding.step), 1350);
    assert.equal(roundCash(1347, presets.CA.cashRounding.step), 1345);
    assert.equal(roundCash(4950, presets.SE.cashRounding.step), 5000);
    assert.equal(roundCash(4949, presets.SE.cashRounding.step), 4900);
    assert.equal(roundCash(1347, presets.DE.cashRounding.step), 1347);
    assert.equal(roundCash(1347, presets.GB.cashRounding.step), 1347);
    assert.ok(!presets.CH.denominations.values.some((v) => v < 5), 'no Swiss coin below 5 centimes');
    assert.ok(!presets.SE.denominations.values.some((v) => v < 100), 'no Swedish coin below a krona');
  });

  it('signs only in DE and AT: a Swiss installation refuses FISCAL_MODE, and takes its own time zone', () => {
    assert.deepEqual(
      countries.filter((c) => presets[c].fiscal.law !== null),
      ['DE', 'AT'],
    );
    assert.throws(() => loadConfig({ COUNTRY: 'CH', FISCAL_MODE: 'test' }), /FISCAL_MODE must be off with COUNTRY=CH/);
    assert.throws(() => loadConfig({ COUNTRY: 'XX' }), /COUNTRY must be one of/);
    const swiss = loadConfig({ COUNTRY: 'CH' });
    assert.equal(swiss.timeZone, 'Europe/Zurich');
    assert.equal(loadConfig({ COUNTRY: 'AT', FISCAL_MODE: 'test' }).fiscal.country, 'AT');
    assert.equal(loadConfig({}).country, 'DE');
  });
});

describeApi('an installation’s country', (t) => {
  it('seeds a Swiss demo at Swiss prices and rates when the first start says CH, and keeps the country once money moved', async () => {
    try {
      await emptyDatabase(t.db);
      assert.equal(await adoptCountry(t.db, 'CH'), 'CH');
      assert.equal(await seedOnFirstStart(t.db), true);
      const settings = await t.db('settings').first('country', 'vat_rate', 'max_order_amount');
      assert.equal(settings.country, 'CH');
      assert.equal(settings.vat_rate, presets.CH.tax.newspaper, 'the reduced Swiss rate on the newspaper');
      assert.equal(Number(settings.max_order_amount), demoPrices.CH.maxOrder);
      const items = await t.db('items').select('name', 'price', 'counter_price', 'vat_rate').orderBy('id');
      const byName = Object.fromEntries(items.map((item) => [item.name, item]));
      assert.equal(byName.Zeitung.price, 800, 'CHF 8 a copy');
      assert.equal(byName.Zeitung.counter_price, 400);
      assert.equal(byName['Kalender 2027'].vat_rate, presets.CH.tax.standard, 'a calendar at the normal rate');
      const till = await t.db('tills').first('opening_balance');
      assert.equal(Number(till.opening_balance), demoPrices.CH.float);
      assert.equal(
        Number(till.opening_balance) % presets.CH.denominations.values.at(-1)!,
        0,
        'the float is made of Swiss coins and notes',
      );

      const office = await t.office();
      const tillId = (await t.db('tills').first('id')).id;
      // A till in Switzerland is never switched to German signing.
      const refused = await t.http
        .put(`/api/tills/${tillId}/fiscal`)
        .set('Authorization', office)
        .set('Accept-Language', 'en')
        .send({ mode: 'test', country: 'DE' });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.match(refused.body.message, /A till in CH cannot sign/);

      // Money has moved: a later start with another COUNTRY keeps Switzerland.
      await t.db('cash_movements').insert({
        till_id: tillId,
        year: 2026,
        voucher_number: 1,
        day: '2026-01-02',
        kind: 'income',
        counterpart: 'other',
        amount: 100,
        balance: Number(till.opening_balance) + 100,
        reason: 'Spende',
        staff: 'test',
      });
      assert.equal(await adoptCountry(t.db, 'DE'), 'CH');

      // The count at the close lists the Swiss coins and notes: no 500-franc note, no 1 or 2 centimes.
      const tills = await t.http.get('/api/tills').set('Authorization', office);
      assert.deepEqual(tills.body.tills[0].denominations, presets.CH.denominations.values);
      const close = (denominations: Record<string, number>) =>
        t.http
          .post(`/api/tills/${tillId}/closes`)
          .set('Authorization', office)
          .set('Accept-Language', 'en')
          .send({ counted: demoPrices.CH.float + 100, expected: demoPrices.CH.float + 100, denominations });
      const euroNotes = await close({ 50000: 2, 100: 1 });
      assert.equal(euroNotes.status, 400, JSON.stringify(euroNotes.body));
      assert.equal(euroNotes.body.message, 'Not a coin or note of CH: 50000.');
      const swiss = await close({ 100000: 1, 100: 1 });
      assert.equal(swiss.status, 201, JSON.stringify(swiss.body));
    } finally {
      await t.reset();
    }
  });

  it('gives each country’s demo paper an address and tax numbers of that country, which the settings form takes back', async function () {
    this.timeout(120_000);
    const company = () =>
      t
        .db('settings')
        .first('company_street', 'company_postcode', 'company_town', 'company_country', 'tax_number', 'vat_id');
    const forms: Record<string, RegExp> = {
      CH: /^CHE-\d{3}\.\d{3}\.\d{3} MWST$/,
      GB: /^GB\d{9}$/,
      AT: /^ATU\d{8}$/,
      SE: /^SE\d{10}01$/,
      DE: /^DE\d{9}$/,
    };
    try {
      for (const country of countries) {
        await emptyDatabase(t.db);
        await adoptCountry(t.db, country);
        assert.equal(await seedOnFirstStart(t.db), true);
        const seeded = await company();
        const expected = demoCompanies[country];
        assert.deepEqual(seeded, {
          company_street: expected.street,
          company_postcode: expected.postcode,
          company_town: expected.town,
          company_country: expected.country,
          tax_number: expected.taxNumber,
          vat_id: expected.vatId,
        });
        if (country !== 'DE') {
          assert.notEqual(seeded.company_country, 'DEU', country);
          assert.doesNotMatch(`${seeded.tax_number} ${seeded.vat_id} ${seeded.company_town}`, /^DE|München|\/123\//);
        }
        if (forms[country]) assert.match(seeded.vat_id, forms[country], country);
        else assert.equal(seeded.vat_id, '', `${country} has no VAT number of that form`);
      }
      assert.equal(demoCompanies.CH.town, 'Basel');
      assert.equal(demoCompanies.GB.town, 'London');

      // The Swiss paper's numbers survive the settings form, written the way staff might type them.
      await emptyDatabase(t.db);
      await adoptCountry(t.db, 'CH');
      await seedOnFirstStart(t.db);
      const office = await t.office();
      const saved = await withForm(t.http.put('/api/settings').set('Authorization', office), {
        vatId: 'che 123 456 789 mwst',
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual([saved.body.vatId, saved.body.taxNumber], ['CHE-123.456.789 MWST', 'CHE-123.456.789']);
    } finally {
      await t.reset();
    }
  });

  it('seeds the German demo as before when no country is given', async () => {
    const settings = await t.db('settings').first('country', 'vat_rate');
    assert.deepEqual(settings, { country: 'DE', vat_rate: 700 });
    const paper = await t.db('items').where({ name: 'Zeitung' }).first('price', 'counter_price');
    assert.deepEqual(paper, { price: demoPrices.DE.copy, counter_price: demoPrices.DE.counterCopy });
    const tills = await t.http.get('/api/tills').set('Authorization', await t.office());
    assert.deepEqual(tills.body.tills[0].denominations, presets.DE.denominations.values, 'euro coins and notes');
  });
});
