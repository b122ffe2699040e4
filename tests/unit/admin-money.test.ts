import assert from 'node:assert/strict';
import { amountToInput, formatAmount, moneySign, parseAmount } from '../../admin/src/shared/money.ts';

// Amounts as the office types them into the back office, in German or English, with or without
// thousands, in the installation's currency: every way that means one amount gives the same minor
// units, and what could mean two amounts is refused rather than guessed.
describe('back office: typed amounts', () => {
  it('reads amounts with and without decimals', () => {
    for (const [text, cents] of [
      ['2', 200],
      ['1,50', 150],
      ['1.50', 150],
      ['1,5', 150],
      [' 0,05 ', 5],
      ['50,00 €', 5000],
      ['€50.00', 5000],
      ['EUR 50', 5000],
    ] as const)
      assert.equal(parseAmount(text, 'EUR'), cents, text);
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
      assert.equal(parseAmount(text, 'EUR'), cents, text);
  });

  it('refuses a thousand that is three decimals in the other language', () => {
    for (const currency of ['EUR', 'CHF', 'GBP', 'SEK'])
      for (const text of ['1.000', '1,000', '12,505', '12.505'])
        assert.equal(parseAmount(text, currency), undefined, `${text} ${currency} could be 1000 times more or less`);
  });

  it('refuses what is not one amount', () => {
    for (const text of ['', 'abc', '-1', '1,5055', '1.000.50', '1,000,50', '1.00,50', '10.00.000', '1.0000,5', '1e3'])
      assert.equal(parseAmount(text, 'EUR'), undefined, text);
  });

  it('reads francs, pounds and kronor in their hundredths, with their own signs', () => {
    for (const [text, currency, minor] of [
      ['CHF 3.50', 'CHF', 350],
      ['3,50 CHF', 'CHF', 350],
      ['chf 12', 'CHF', 1200],
      ["1'000.50", 'CHF', 100050],
      ['1’000.50', 'CHF', 100050],
      ['£3.50', 'GBP', 350],
      ['3,5 £', 'GBP', 350],
      ['GBP 1,000.00', 'GBP', 100000],
      ['SEK 30', 'SEK', 3000],
      ['1 234,50', 'SEK', 123450],
    ] as const)
      assert.equal(parseAmount(text, currency), minor, `${text} ${currency}`);
  });

  it('refuses another currency’s sign', () => {
    for (const [text, currency] of [
      ['€3.50', 'CHF'],
      ['3,50 €', 'GBP'],
      ['£3', 'CHF'],
      ['CHF 3', 'SEK'],
      ['¥500', 'EUR'],
    ] as const)
      assert.equal(parseAmount(text, currency), undefined, `${text} in ${currency}`);
  });

  it('reads yen as whole yen and refuses decimals', () => {
    for (const [text, minor] of [
      ['500', 500],
      ['¥500', 500],
      ['500 JPY', 500],
      ['1,000', 1000],
      ['1.000', 1000],
      ['12,345,678', 12345678],
      ['1 000', 1000],
    ] as const)
      assert.equal(parseAmount(text, 'JPY'), minor, text);
    for (const text of ['5.00', '5,5', '5.5', '1,000.50', '1.000,5', '-5', 'abc', ''])
      assert.equal(parseAmount(text, 'JPY'), undefined, text);
  });

  it('writes amounts to edit with the currency’s decimals, and back', () => {
    for (const [minor, currency, locale, text] of [
      [150, 'EUR', 'de', '1,50'],
      [150, 'EUR', 'en', '1.50'],
      [350, 'CHF', 'de', '3.50'],
      [350, 'GBP', 'de', '3,50'],
      [350, 'GBP', 'en', '3.50'],
      [3000, 'SEK', 'de', '30,00'],
      [500, 'JPY', 'de', '500'],
      [123456, 'JPY', 'en', '123456'],
    ] as const) {
      assert.equal(amountToInput(minor, currency, locale), text, `${minor} ${currency} ${locale}`);
      assert.equal(parseAmount(text, currency), minor, `${text} ${currency} back`);
    }
  });

  it('shows amounts and the field’s sign in the currency, with no euro outside the euro', () => {
    const space = /[\s\u00a0\u202f]/g;
    for (const [minor, currency, locale, shown, sign] of [
      [350, 'EUR', 'de', '3,50 €', '€'],
      [350, 'EUR', 'en', '€3.50', '€'],
      [350, 'CHF', 'de', 'CHF 3.50', 'CHF'],
      [350, 'CHF', 'en', 'CHF 3.50', 'CHF'],
      [350, 'GBP', 'en', '£3.50', '£'],
      [350, 'GBP', 'de', '3,50 £', '£'],
      [500, 'JPY', 'en', '¥500', '¥'],
      [3000, 'SEK', 'en', 'SEK 30.00', 'SEK'],
    ] as const) {
      assert.equal(formatAmount(minor, currency, locale).replace(space, ' '), shown, `${currency} ${locale}`);
      assert.equal(moneySign(currency, locale), sign, `${currency} ${locale}`);
    }
  });
});
