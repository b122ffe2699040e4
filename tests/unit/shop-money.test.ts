import assert from 'node:assert/strict';
import { formatMoney, maxTip, moneyInput, parseMoney } from '../../shop-widget/src/money.ts';

// The shop's money as a customer types and reads it: integer cents, no float on the way.
describe('shop widget: money', () => {
  it('formats cents as "3,00 €" in German and "€3.00" in English', () => {
    assert.equal(formatMoney(300, 'de'), '3,00\u00a0€');
    assert.equal(formatMoney(300, 'en'), '€3.00');
    assert.equal(formatMoney(5, 'de'), '0,05\u00a0€');
    assert.equal(formatMoney(123456789, 'de'), '1.234.567,89\u00a0€');
    assert.equal(formatMoney(123456789, 'en'), '€1,234,567.89');
    assert.equal(formatMoney(0, 'en'), '€0.00');
  });

  it('reads "1,50" and "1.50" alike, and other ways people type euros', () => {
    for (const text of ['1,50', '1.50', '1,5', ' 1.5 ', '1,50 €', '€1.50', '01,50']) {
      assert.deepEqual(parseMoney(text), { cents: 150 }, text);
    }
    assert.deepEqual(parseMoney('2'), { cents: 200 });
    assert.deepEqual(parseMoney('2,'), { cents: 200 });
    assert.deepEqual(parseMoney(',99'), { cents: 99 });
    assert.deepEqual(parseMoney('0'), { cents: 0 });
  });

  it('keeps every cent where floats would lose one', () => {
    // 1.15 * 100 is 114.99999999999999 in floating point, 0.29 * 100 is 28.999999999999996
    assert.deepEqual(parseMoney('1,15'), { cents: 115 });
    assert.deepEqual(parseMoney('0.29'), { cents: 29 });
    assert.deepEqual(parseMoney('4,35'), { cents: 435 });
    for (let cents = 0; cents <= 10_000; cents++) {
      assert.deepEqual(parseMoney(moneyInput(cents, cents % 2 ? 'de' : 'en')), { cents });
    }
  });

  it('refuses negative amounts, fractions of a cent and what is not an amount', () => {
    assert.deepEqual(parseMoney('-1'), { problem: 'negative' });
    assert.deepEqual(parseMoney('−1,00'), { problem: 'negative' }, 'the typographic minus too');
    assert.deepEqual(parseMoney('1,505'), { problem: 'cents' });
    assert.deepEqual(parseMoney('0.001'), { problem: 'cents' });
    for (const text of ['abc', '1,50,1', '1.000,00', '1e3', '+1', '.', ',', '0x10', '1 2']) {
      assert.deepEqual(parseMoney(text), { problem: 'invalid' }, text);
    }
    assert.deepEqual(parseMoney(''), { problem: 'empty' });
    assert.deepEqual(parseMoney('  '), { problem: 'empty' });
  });

  it('refuses an amount above the limit, also one too long to read as a number', () => {
    assert.deepEqual(parseMoney('146,99', 14699), { cents: 14699 });
    assert.deepEqual(parseMoney('147,00', 14699), { problem: 'tooHigh' });
    assert.deepEqual(parseMoney('99999999999999999999'), { problem: 'tooHigh' });
  });

  it('bounds the tip so the order stays below the maximum order amount', () => {
    assert.equal(maxTip(300, 15000), 14699, 'total 149,99 € is the most an order may be');
    assert.equal(maxTip(15000, 15000), 0);
    assert.equal(maxTip(20000, 15000), 0, 'never negative');
  });

  it('shows a chosen tip again as the customer would type it', () => {
    assert.equal(moneyInput(150, 'de'), '1,50');
    assert.equal(moneyInput(150, 'en'), '1.50');
    assert.equal(moneyInput(5, 'de'), '0,05');
  });
});
