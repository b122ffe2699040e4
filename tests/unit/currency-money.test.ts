import assert from 'node:assert/strict';
import {
  currencySymbol,
  formatAmount,
  formatMoney,
  formatPlain,
  minorUnitExponent,
  moneyLocale,
  stripeCurrency,
} from '../../api/src/money/currency.ts';

const nbsp = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('the currency of the books', () => {
  it('counts minor units as Stripe does: cents, and whole yen and won', () => {
    for (const code of ['EUR', 'CHF', 'GBP', 'USD', 'SEK']) assert.equal(minorUnitExponent(code), 2, code);
    for (const code of ['JPY', 'KRW', 'jpy']) assert.equal(minorUnitExponent(code), 0, code);
    assert.equal(stripeCurrency('CHF'), 'chf');
  });

  it('writes an amount for the reader’s locale', () => {
    assert.equal(nbsp(formatMoney(350, 'CHF', 'de-CH')), 'CHF 3.50');
    assert.equal(formatMoney(350, 'GBP', 'en-GB'), '£3.50');
    assert.equal(nbsp(formatMoney(350, 'EUR', 'de-DE')), '3,50 €');
    assert.equal(formatMoney(500, 'JPY', 'en'), '¥500');
    // Swiss grouping: an apostrophe, straight or typographic by the ICU version.
    assert.match(nbsp(formatMoney(123456, 'CHF', 'de-CH')), /^CHF 1['’]234\.56$/);
  });

  it('borrows the currency’s home country for the reader’s language', () => {
    assert.equal(moneyLocale('de', 'CHF'), 'de-CH');
    assert.equal(moneyLocale('en', 'GBP'), 'en-GB');
    assert.equal(moneyLocale('de', 'EUR'), 'de-DE');
    assert.equal(moneyLocale('en', 'EUR'), 'en-IE');
    assert.equal(nbsp(formatAmount(350, 'CHF', 'de')), 'CHF 3.50');
    assert.equal(formatAmount(350, 'EUR', 'en'), '€3.50');
    assert.equal(formatAmount(600, 'JPY', 'en'), '¥600');
  });

  it('shows no decimals for yen, and two for the others, in fields and CSV', () => {
    assert.equal(formatPlain(600, 'JPY', 'de-DE'), '600');
    assert.equal(formatPlain(123456, 'EUR', 'de-DE'), '1234,56');
    assert.equal(formatPlain(350, 'GBP', 'en-GB'), '3.50');
    for (const amount of [1, 99, 600, 123456]) assert.doesNotMatch(formatAmount(amount, 'JPY', 'de'), /[.,]\d{2}\b/);
  });

  it('names the currency’s sign', () => {
    assert.equal(currencySymbol('GBP', 'en-GB'), '£');
    assert.equal(currencySymbol('CHF', 'de-CH'), 'CHF');
    assert.equal(currencySymbol('EUR', 'de-DE'), '€');
  });
});
