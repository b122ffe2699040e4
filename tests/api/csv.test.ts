import assert from 'node:assert/strict';
import supertest from 'supertest';
import { paymentBatches, payments } from '../../api/src/accounting/queries.ts';
import { buildApp } from '../../api/src/app.ts';
import { bookHistory, bookPaidOrder } from '../support/books.ts';
import { describeApi, type ApiTest } from '../support/env.ts';

// The CSV downloads open in a German spreadsheet with the right columns and amounts.
// Each file is parsed back here the way such a program reads it: BOM, `;`, quoted fields, decimal comma.

const zone = 'Europe/Berlin';

/** Reads a CSV as a German spreadsheet does; refuses anything that is not one. */
function parseCsv(text: string): { header: string[]; rows: string[][] } {
  assert.ok(text.startsWith('\uFEFF'), 'UTF-8 byte order mark');
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
  }
  assert.equal(field + record.join(''), '', 'the file ends with a line break');
  const [header, ...rows] = records;
  for (const row of rows) assert.equal(row.length, header.length, `a row of ${row.length} fields: ${row.join(';')}`);
  return { header, rows };
}

/** "1.234,50" or "-0,50" → cents; the export writes no thousands separator, so "1234,50". */
function cents(text: string): number {
  assert.match(text, /^-?\d+,\d{2}$/, `an amount with a decimal comma: ${text}`);
  const negative = text.startsWith('-');
  const [euros, rest] = text.replace('-', '').split(',');
  return (negative ? -1 : 1) * (Number(euros) * 100 + Number(rest));
}

const column = (parsed: { header: string[]; rows: string[][] }, name: string) => {
  const index = parsed.header.indexOf(name);
  assert.ok(index >= 0, `a column "${name}" in ${parsed.header.join(';')}`);
  return parsed.rows.map((row) => row[index]);
};

async function midnight(t: ApiTest, day: string): Promise<Date> {
  const { rows } = await t.db.raw('select (?::date)::timestamp at time zone ? as at', [day, zone]);
  return rows[0].at;
}

describeApi('CSV exports', (t) => {
  let http: supertest.Agent;
  let office: string;
  let may: { from: Date; to: Date };
  before(async function () {
    this.timeout(120_000);
    await bookHistory(t.db);
    http = supertest.agent(buildApp({ db: t.db, config: { ...t.config, timeZone: zone } }).callback());
    office = await t.office();
    const created = await http
      .post('/api/vendors')
      .set('Authorization', office)
      .send({ licenseId: 'CSV-1', firstName: '=HYPERLINK("x")', lastName: 'Semi;colon' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await bookPaidOrder(t.db, created.body.id, new Date('2026-05-15T10:00:00Z'), { prints: 2, digital: 1, tip: 150 });
    may = { from: await midnight(t, '2026-05-01'), to: await midnight(t, '2026-06-01') };
  });

  const download = async (path: string, query: Record<string, string>) => {
    const res = await http
      .get(path)
      .query({ ...query, format: 'csv' })
      .set('Authorization', office)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      });
    assert.equal(res.status, 200, String(res.body));
    assert.match(res.headers['content-type'], /^text\/csv; charset=utf-8/);
    return { parsed: parseCsv(res.body as string), disposition: res.headers['content-disposition'] };
  };

  it('exports every ledger row of a period with its columns, amounts and neutralised formulas', async () => {
    const { parsed, disposition } = await download('/api/payments/', { from: '2026-05-01', to: '2026-05-31' });
    assert.equal(disposition, 'attachment; filename="buchungen_2026-05-01_2026-05-31.csv"');
    assert.deepEqual(parsed.header, [
      'Buchung',
      'Datum',
      'Art',
      'Von',
      'Von Lizenz',
      'An',
      'An Lizenz',
      'Artikel',
      'Menge',
      'Einzelpreis',
      'Betrag',
      'Bestellung',
      'Auszahlung',
      'Storno von',
      'Freigegeben von',
    ]);

    const reference = await t
      .db('ledger_rows')
      .where('created_at', '>=', may.from)
      .where('created_at', '<', may.to)
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('id', 'amount', 'created_at');
    assert.deepEqual(
      column(parsed, 'Buchung').map(Number),
      reference.map((r) => Number(r.id)),
      'every row once, oldest first',
    );
    assert.deepEqual(
      column(parsed, 'Betrag').map(cents),
      reference.map((r) => Number(r.amount)),
    );
    assert.ok(column(parsed, 'Datum').every((d) => /^\d{2}\.\d{2}\.2026 \d{2}:\d{2}:\d{2}$/.test(d)));
    assert.equal(
      column(parsed, 'Datum')[0],
      '01.05.2026 00:00:00',
      'local time: the first row is at midnight in Berlin',
    );

    // The vendor named like a formula: as text in every row that names them, sender or receiver.
    const at = (name: string) => parsed.header.indexOf(name);
    const named = parsed.rows.flatMap((row) =>
      [
        ['Von', 'Von Lizenz'],
        ['An', 'An Lizenz'],
      ]
        .filter(([, licence]) => row[at(licence)] === 'CSV-1')
        .map(([name]) => row[at(name)]),
    );
    const account = await t
      .db('ledger_accounts as a')
      .join('vendors as v', 'v.id', 'a.vendor_id')
      .where('v.license_id', 'CSV-1')
      .first('a.id');
    const [{ n }] = await t
      .db('ledger_rows')
      .where((q) => {
        q.where('sender_id', account.id).orWhere('receiver_id', account.id);
      })
      .count({ n: '*' });
    assert.equal(named.length, Number(n));
    assert.ok(
      named.every((name) => name === `'=HYPERLINK("x") Semi;colon (CSV-1)`),
      named.join(' | '),
    );
    const digital = parsed.rows.find(
      (row) => row[at('An Lizenz')] === 'CSV-1' && row[at('Artikel')] === 'Digitale Ausgabe',
    )!;
    assert.deepEqual([digital[at('Menge')], digital[at('Einzelpreis')], digital[at('Betrag')]], ['1', '3,00', '3,00']);
  });

  it('exports the vendors with their credit, filtered like the list, the formula-like name as text', async () => {
    const { parsed } = await download('/api/vendors/', { filter: JSON.stringify({ q: 'CSV-1' }) });
    assert.deepEqual(parsed.header, [
      'Lizenznummer',
      'Vorname',
      'Nachname',
      'E-Mail',
      'Telefon',
      'Guthaben',
      'Deaktiviert',
    ]);
    assert.equal(parsed.rows.length, 1);
    const listed = await http
      .get('/api/vendors/')
      .query({ filter: JSON.stringify({ q: 'CSV-1' }) })
      .set('Authorization', office);
    const [row] = parsed.rows;
    assert.equal(row[0], 'CSV-1');
    assert.equal(row[1], `'=HYPERLINK("x")`);
    assert.equal(cents(row[5]), listed.body[0].credit);
    assert.notEqual(listed.body[0].credit, 0, 'the vendor has credit from the paid order');
  });

  it('exports the filtered rows only, like the list', async () => {
    const { parsed } = await download('/api/payments/', {
      filter: JSON.stringify({ from: '2026-05-01', to: '2026-05-31', kind: 'sales', vendor: 'CSV-1' }),
    });
    assert.deepEqual(column(parsed, 'Art'), ['Verkauf', 'Verkauf', 'Trinkgeld/Spende']);
    assert.equal(
      column(parsed, 'Betrag')
        .map(cents)
        .reduce((a, b) => a + b, 0),
      2 * 300 + 300 + 150,
    );
  });

  it('streams a long export in batches that continue exactly after each other, ties in time included', async () => {
    const all = await payments(t.db)
      .orderBy([{ column: 'r.created_at' }, { column: 'r.id' }])
      .select('r.id');
    const seen: number[] = [];
    for await (const batch of paymentBatches(t.db, () => t.db('ledger_rows as r'), 7)) {
      assert.ok(batch.length <= 7);
      seen.push(...batch.map((row) => Number(row.id)));
    }
    assert.deepEqual(
      seen,
      all.map((row) => Number(row.id)),
    );
    const times = await t.db('ledger_rows').groupBy('created_at').havingRaw('count(*) > 1').count({ n: '*' });
    assert.ok(times.length > 0, 'rows share a time (one order books several), so the cursor needs its id');
  });

  it('exports the accounts of a period for the bookkeeper, closing balances summing to zero', async () => {
    const { parsed, disposition } = await download('/api/payments/accounts/', { from: '2026-05-01', to: '2026-05-31' });
    assert.equal(disposition, 'attachment; filename="konten_2026-05-01_2026-05-31.csv"');
    assert.deepEqual(parsed.header, [
      'Konto',
      'Kontoart',
      'Lizenz',
      'Anfangsbestand',
      'Eingänge',
      'Ausgänge',
      'Endbestand',
    ]);
    const json = (
      await http
        .get('/api/payments/accounts/')
        .query({ from: '2026-05-01', to: '2026-05-31' })
        .set('Authorization', office)
    ).body;
    assert.deepEqual(
      column(parsed, 'Endbestand').map(cents),
      json.accounts.map((a: { closing: number }) => a.closing),
    );
    assert.deepEqual(
      column(parsed, 'Anfangsbestand').map(cents),
      json.accounts.map((a: { opening: number }) => a.opening),
    );
    assert.equal(
      column(parsed, 'Endbestand')
        .map(cents)
        .reduce((a, b) => a + b, 0),
      0,
    );
    assert.deepEqual(column(parsed, 'Konto').slice(0, 4), [
      'Kundschaft',
      'Zeitung (Organisation)',
      'Kasse',
      'Kartenanbieter',
    ]);
    // The kinds in words, not the ledger's names (customers, orga, cash).
    assert.deepEqual(
      [...new Set(column(parsed, 'Kontoart'))],
      ['Kundschaft', 'Zeitung (Organisation)', 'Kasse', 'Kartenanbieter', 'Verkäufer·in'],
    );
    assert.ok(column(parsed, 'Konto').includes(`'=HYPERLINK("x") Semi;colon (CSV-1)`));
  });

  it('exports the statistics per item and as a series', async () => {
    const json = (
      await http
        .get('/api/payments/statistics/')
        .query({ from: '2026-05-01', to: '2026-05-31' })
        .set('Authorization', office)
    ).body;
    const items = await download('/api/payments/statistics/', { from: '2026-05-01', to: '2026-05-31' });
    assert.equal(items.disposition, 'attachment; filename="statistik_artikel_2026-05-01_2026-05-31.csv"');
    assert.deepEqual(items.parsed.header, ['Artikel', 'Menge', 'Betrag']);
    assert.deepEqual(
      column(items.parsed, 'Betrag').map(cents),
      json.items.map((i: { amount: number }) => i.amount),
    );
    assert.ok(column(items.parsed, 'Artikel').includes('Trinkgeld/Spende'));

    const series = await download('/api/payments/statistics/', {
      from: '2026-05-01',
      to: '2026-05-31',
      table: 'series',
    });
    assert.deepEqual(series.parsed.header, ['Zeitraum ab', 'Bestellungen', 'Menge', 'Betrag']);
    assert.equal(series.parsed.rows.length, 31);
    assert.deepEqual(series.parsed.rows[0].slice(0, 1), ['01.05.2026']);
    assert.deepEqual(
      column(series.parsed, 'Betrag').map(cents),
      json.series.map((p: { amount: number }) => p.amount),
    );
    assert.deepEqual(
      column(series.parsed, 'Bestellungen').map(Number),
      json.series.map((p: { orders: number }) => p.orders),
    );
  });
});
