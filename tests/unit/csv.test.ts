import assert from 'node:assert/strict';
import { type CsvColumn, csvHeader, csvLine, minorToDecimal, periodFilename } from '../../api/src/foundations/csv.ts';
import { wallClockFormat } from '../support/wall-clock.ts';

// The CSV writer as a German spreadsheet program reads its output.

const berlin = { timeZone: 'Europe/Berlin', language: 'de', currency: 'EUR' } as const;

describe('CSV writer', () => {
  it('writes cents as euros with a decimal comma, exactly', () => {
    assert.deepEqual(
      [0, 5, -50, 1250, 123456, -100001, 9007199254740991].map((n) => minorToDecimal(n, 'EUR')),
      ['0,00', '0,05', '-0,50', '12,50', '1234,56', '-1000,01', '90071992547409,91'],
    );
  });

  it('writes the same amounts with a decimal point for the journal’s importers, and yen without one', () => {
    assert.deepEqual(
      [0, 5, -50, 1347, -100001].map((n) => minorToDecimal(n, 'CHF', '.')),
      ['0.00', '0.05', '-0.50', '13.47', '-1000.01'],
    );
    assert.equal(minorToDecimal(600, 'JPY', '.'), '600');
  });

  it('writes amounts with the digits of the installation’s currency: francs with two, yen with none', () => {
    const columns: CsvColumn<{ amount: number }>[] = [{ header: 'Amount', value: (r) => r.amount, format: 'cents' }];
    assert.equal(csvLine(columns, { amount: 1345 }, { ...berlin, currency: 'CHF' }), '"13,45"\r\n');
    assert.equal(csvLine(columns, { amount: 500 }, { ...berlin, currency: 'JPY' }), '"500"\r\n');
    assert.equal(csvLine(columns, { amount: -1 }, { ...berlin, currency: 'JPY' }), '"-1"\r\n');
  });

  it('quotes every field, doubles quotes, keeps separators and line breaks inside, and turns formulas into text', () => {
    const columns: CsvColumn<{ text: string | null }>[] = [{ header: 'Text "1"', value: (r) => r.text }];
    assert.equal(csvHeader(columns as CsvColumn<unknown>[]), '\uFEFF"Text ""1"""\r\n');
    const line = (text: string | null) => csvLine(columns, { text }, berlin);
    assert.equal(line('a;b\r\nc "d"'), '"a;b\r\nc ""d"""\r\n');
    assert.equal(line(null), '""\r\n');
    for (const formula of ['=HYPERLINK("x")', '+1', '-1+2', '@SUM(A1)', '\tx', '\rx'])
      assert.equal(line(formula), `"'${formula.replace(/"/g, '""')}"\r\n`);
  });

  it("writes times and days in the newspaper's zone, numbers with a comma", () => {
    const columns: CsvColumn<{ at: Date; n: number; ok: boolean }>[] = [
      { header: 'at', value: (r) => r.at, format: 'date' },
      { header: 'day', value: (r) => r.at, format: 'day' },
      { header: 'n', value: (r) => r.n },
      { header: 'ok', value: (r) => r.ok },
    ];
    assert.equal(
      csvLine(columns, { at: new Date('2026-05-31T22:00:00Z'), n: 1.5, ok: true }, berlin),
      '"01.06.2026 00:00:00";"01.06.2026";"1,5";"ja"\r\n',
    );
  });

  it('writes the local time Intl gives, on both nights of a clock change, quarter hour by quarter hour', () => {
    const columns: CsvColumn<{ at: Date }>[] = [{ header: 'at', value: (r) => r.at, format: 'date' }];
    const intl = wallClockFormat('de-DE', 'Europe/Berlin');
    for (const night of ['2026-03-28T20:00:00Z', '2026-10-24T20:00:00Z']) {
      for (let quarter = 0; quarter < 40; quarter++) {
        const at = new Date(Date.parse(night) + quarter * 900_000 + 59_999);
        assert.equal(csvLine(columns, { at }, berlin), `"${intl.format(at).replace(',', '')}"\r\n`, at.toISOString());
      }
    }
  });

  it('names a download after the local days of its period', () => {
    const period = { from: new Date('2026-04-30T22:00:00Z'), to: new Date('2026-05-31T22:00:00Z') };
    assert.equal(periodFilename('buchungen', period, 'Europe/Berlin'), 'buchungen_2026-05-01_2026-05-31.csv');
    assert.equal(periodFilename('konten', {}, 'Europe/Berlin'), 'konten.csv');
  });
});
