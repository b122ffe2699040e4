import assert from 'node:assert/strict';
import { parseEuros } from '../../admin/src/shared/money.ts';

// Euros as the office types them into the back office, in German or English, with or without
// thousands: every way that means one amount gives the same cents, and what could mean two amounts
// is refused rather than guessed.
describe('back office: typed euros', () => {
  it('reads amounts with and without decimals', () => {
    for (const [text, cents] of [
      ['2', 200],
      ['1,50', 150],
      ['1.50', 150],
      ['1,5', 150],
      [' 0,05 ', 5],
      ['50,00 €', 5000],
      ['€50.00', 5000],
    ] as const)
      assert.equal(parseEuros(text), cents, text);
  });

  it('reads thousands as German and English staff write them', () => {
    for (const [text, cents] of [
      ['1.000,50', 100050],
      ['1000,50', 100050],
      ['1,000.50', 100050],
      ['1000.50', 100050],
      ['1 000,50', 100050],
      ['1\u00a0000,50', 100050],
      ['1.000.000', 100000000],
      ['1 000', 100000],
      ['12.345.678,90', 1234567890],
    ] as const)
      assert.equal(parseEuros(text), cents, text);
  });

  it('refuses a thousand that is three decimals in the other language', () => {
    for (const text of ['1.000', '1,000', '12,505', '12.505'])
      assert.equal(parseEuros(text), undefined, `${text} could be 1000 times more or less`);
  });

  it('refuses what is not one amount', () => {
    for (const text of ['', 'abc', '-1', '1,5055', '1.000.50', '1,000,50', '1.00,50', '10.00.000', '1.0000,5', '1e3'])
      assert.equal(parseEuros(text), undefined, text);
  });
});
