import assert from 'node:assert/strict';
import { vatByRate, vatIncluded } from '../../api/src/ledger/vat.ts';

// The VAT in a gross price: net = round(gross / (1 + rate)) half up in whole cents, VAT = gross − net,
// rates in hundredths of a percent. The figures are worked by hand.

describe('VAT included in a gross price', () => {
  it('takes the VAT out of the price per line, rounded half up on the net amount', () => {
    const cases: [gross: number, rate: number, vat: number][] = [
      [150, 700, 10], // 1,50 € at 7 %: net 140,19 → 140
      [300, 700, 20], // 3,00 € at 7 %: net 280,37 → 280
      [300, 1000, 27], // 3,00 € at 10 %: net 272,73 → 273
      [500, 1900, 80], // 5,00 € at 19 %: net 420,17 → 420
      [100, 550, 5], // 1,00 € at 5,5 %: net 94,79 → 95
      [3, 10000, 1], // at 100 % the net is 1,5 → 2 (half up)
      [1, 700, 0],
      [0, 700, 0],
      [999, 0, 0],
    ];
    for (const [gross, rate, vat] of cases) assert.equal(vatIncluded(gross, rate), vat, `${gross} at ${rate}`);
  });

  it('is symmetric for a negative amount (a refund takes back the VAT it charged)', () => {
    assert.equal(vatIncluded(-300, 700), -20);
    assert.equal(vatIncluded(-3, 10000), -1);
  });

  it('refuses what is no amount in cents or no rate', () => {
    assert.throws(() => vatIncluded(1.5, 700), RangeError);
    assert.throws(() => vatIncluded(100, 7.5), RangeError);
    assert.throws(() => vatIncluded(100, -1), RangeError);
    assert.throws(() => vatIncluded(100, 10001), RangeError);
  });

  it('sums several lines per rate, each line rounded on its own', () => {
    // Three lines of 1,50 € at 7 %: 3 × 10 cents, not the 29 cents of 4,50 € taken at once.
    assert.deepEqual(
      vatByRate([
        { gross: 150, rate: 700 },
        { gross: 500, rate: 1900 },
        { gross: 150, rate: 700 },
        { gross: 150, rate: 700 },
      ]),
      [
        { rate: 1900, gross: 500, vat: 80 },
        { rate: 700, gross: 450, vat: 30 },
      ],
    );
    assert.equal(vatIncluded(450, 700), 29);
  });
});
