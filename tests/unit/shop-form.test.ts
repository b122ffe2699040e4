import assert from 'node:assert/strict';
import { shopItem } from '../support/fixtures.ts';
import type { Boot, Visit } from '../../shop-widget/src/boot.ts';
import { freshVisit, readVisit, submitForm, type FormAnswer } from '../../shop-widget/src/form.ts';
import { parseRoute, type Route } from '../../shop-widget/src/route.ts';
import { env, lang } from '../../shop-widget/src/store.ts';

// The shop's forms as the server answers them without the script (shop-widget/src/form.ts): the
// same rules the screens apply with it, on the visit a cookie brought, which may be anything.

const item = shopItem;

const paper = item(1, 'Zeitung', 300, { isMainProduct: true });
const digital = item(3, 'Digitale Ausgabe', 300, { isDigital: true });
const calendar = item(4, 'Kalender 2027', 1000, { maxOrderAmount: 5 });

const at = (path: string) => parseRoute(path) as Extract<Route, { page: 'vendor' }>;
const send = (path: string, visit: Visit, fields: Record<string, string>): FormAnswer =>
  submitForm(at(path), visit, new URLSearchParams(fields));
const start = () => freshVisit({ 1: 1 });

describe('shop widget: the forms without the script', () => {
  before(() => {
    env.boot = {
      settings: { maxOrderAmount: 15000, useTipInsteadOfDonation: false } as Boot['settings'],
      vendor: { licenseId: 'DEMO-1', displayName: 'Anna', accountProofUrl: null },
      items: [paper, digital, calendar],
    };
    lang.value = 'de';
  });

  it('counts an item up and down on the screen it was sent from, and stops at its limit', () => {
    const up = send('/v/DEMO-1/shop', start(), { quantity: '4:1' });
    assert.ok('to' in up && up.to === '/v/DEMO-1/shop');
    assert.deepEqual(up.visit.cart, { 1: 1, 4: 1 });
    const many = send('/v/DEMO-1/item-available?item=4', start(), { quantity: '4:99' });
    assert.ok('to' in many && many.to === '/v/DEMO-1/item-available?item=4');
    assert.equal(many.visit.cart[4], 5);
    const none = send('/v/DEMO-1/shop', start(), { quantity: '1:-1' });
    assert.deepEqual(none.visit.cart, {});
    // An item that is not for sale changes nothing.
    assert.deepEqual(send('/v/DEMO-1/shop', start(), { quantity: '77:1' }).visit, start());
    // Each change is another order to pay: it gets its id at once, so Pay tapped twice is one order.
    assert.match(up.visit.cartId ?? '', /^[0-9a-f]{32}$/);
    assert.notEqual(send('/v/DEMO-1/shop', up.visit, { quantity: '4:2' }).visit.cartId, up.visit.cartId);
  });

  it('takes a preset tip or none, and refuses a tip where the cart is empty', () => {
    const tipped = send('/v/DEMO-1/tipping', start(), { tip: '200' });
    assert.ok('to' in tipped && tipped.to === '/v/DEMO-1/confirmation');
    assert.equal(tipped.visit.tip, 200);
    assert.equal(send('/v/DEMO-1/tipping', start(), { tip: '0' }).visit.tip, 0);
    assert.deepEqual(send('/v/DEMO-1/tipping', start(), { tip: 'other' }), {
      to: '/v/DEMO-1/custom-tip',
      visit: start(),
    });
    // A tip that is no preset is not taken from this form.
    assert.equal(send('/v/DEMO-1/tipping', start(), { tip: '99999' }).visit.tip, null);
    const empty = send('/v/DEMO-1/tipping', freshVisit({}), { tip: '200' });
    assert.ok('refused' in empty);
    assert.equal(empty.refused.field, 'tip');
    assert.match(empty.refused.text ?? '', /Spende|Trinkgeld/);
  });

  it('reads a custom tip as the screen does, and gives a refused one back with its kind', () => {
    assert.equal(send('/v/DEMO-1/custom-tip', start(), { amount: '1,50' }).visit.tip, 150);
    assert.equal(send('/v/DEMO-1/custom-tip', start(), { amount: '1.50' }).visit.tip, 150);
    const refused = send('/v/DEMO-1/custom-tip', start(), { amount: '1,5x' });
    assert.ok('refused' in refused);
    assert.deepEqual(refused.refused, { step: 'custom-tip', field: 'amount', code: 'invalid', value: '1,5x' });
    const tooHigh = send('/v/DEMO-1/custom-tip', start(), { amount: '200' });
    assert.ok('refused' in tooHigh && tooHigh.refused.code === 'tooHigh');
  });

  it('pays only with the terms, asks a digital edition’s address first, and keeps one cart id', () => {
    const tipped = { ...start(), tip: 150 };
    const noTerms = send('/v/DEMO-1/confirmation', tipped, { pay: 'order' });
    assert.ok('refused' in noTerms && noTerms.refused.field === 'terms');
    const paying = send('/v/DEMO-1/confirmation', tipped, { pay: 'order', terms: 'yes' });
    assert.ok('pay' in paying);
    assert.equal(paying.pay.total, 450);
    assert.match(paying.cartId, /^[0-9a-f]{32}$/);
    const again = send('/v/DEMO-1/confirmation', paying.visit, { pay: 'order', terms: 'yes' });
    assert.ok('pay' in again && again.cartId === paying.cartId, 'the same cart pays under the same id');
    // Another tip is another order.
    assert.notEqual(send('/v/DEMO-1/tipping', paying.visit, { tip: '100' }).visit.cartId, paying.cartId);

    const withDigital = { ...tipped, cart: { 3: 1 } };
    const asks = send('/v/DEMO-1/confirmation', withDigital, { pay: 'order', terms: 'yes' });
    assert.ok('to' in asks && asks.to === '/v/DEMO-1/confirmation');
    const wrong = send('/v/DEMO-1/confirmation', withDigital, { email: 'nobody' });
    assert.ok('refused' in wrong && wrong.refused.field === 'email' && wrong.refused.value === 'nobody');
    const given = send('/v/DEMO-1/confirmation', withDigital, { email: ' r@example.org ' });
    assert.equal(given.visit.email, 'r@example.org');
    assert.ok('pay' in send('/v/DEMO-1/confirmation', given.visit, { pay: 'order', terms: 'yes' }));
    assert.deepEqual(send('/v/DEMO-1/confirmation', withDigital, { remove: 'digital' }).visit.cart, {});
  });

  it('takes the optional address for the receipt by e-mail with Pay of printed copies only', () => {
    const print = { ...start(), tip: 0 };
    const pay = (visit: Visit, email: string) =>
      send('/v/DEMO-1/confirmation', visit, { email, terms: 'yes', pay: 'order' });
    const given = pay(print, ' r@example.org ');
    assert.ok('pay' in given, JSON.stringify(given));
    assert.equal(given.visit.email, 'r@example.org');
    // Left empty: no mail, even where the visit remembered an address.
    const none = pay({ ...print, email: 'r@example.org' }, '');
    assert.ok('pay' in none && none.visit.email === '');
    const wrong = pay(print, 'nobody');
    assert.ok('refused' in wrong && wrong.refused.field === 'email' && wrong.refused.value === 'nobody');
    assert.equal(wrong.visit.terms, true, 'the ticked terms stay ticked');
    // Without the terms the typed address is kept for the next try.
    const noTerms = send('/v/DEMO-1/confirmation', print, { email: 'r@example.org', pay: 'order' });
    assert.ok('refused' in noTerms && noTerms.refused.field === 'terms' && noTerms.visit.email === 'r@example.org');

    // A digital edition's address comes from its own step: Pay does not replace it.
    const withDigital = { ...print, cart: { 3: 1 }, email: 'd@example.org' };
    const digitalPay = pay(withDigital, 'other@example.org');
    assert.ok('pay' in digitalPay && digitalPay.visit.email === 'd@example.org');
    // An address without Pay is still the digital edition's step.
    const step = send('/v/DEMO-1/confirmation', print, { email: 's@example.org' });
    assert.ok('to' in step && step.to === '/v/DEMO-1/confirmation' && step.visit.email === 's@example.org');
  });

  it('takes from a cookie only what a visit holds', () => {
    assert.deepEqual(readVisit({ cart: { 1: 2 }, tip: 100, terms: true, email: 'r@example.org' }), {
      cart: { 1: 2 },
      tip: 100,
      terms: true,
      email: 'r@example.org',
    });
    for (const junk of [
      null,
      'text',
      [],
      { cart: [] },
      { cart: { 1: -1 } },
      { cart: { 1: 1.5 } },
      { cart: { x: 1 } },
      JSON.parse('{"cart":{"__proto__":{"polluted":1}}}'),
      { cart: { 1: { nested: { deeper: 1 } } } },
    ])
      assert.equal(readVisit(junk), undefined, JSON.stringify(junk));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // Fields beyond their bounds are left out, not taken.
    const odd = readVisit({ cart: { 1: 1 }, tip: -5, terms: 'yes', cartId: '../x', email: 'x'.repeat(300) });
    assert.deepEqual(odd, { cart: { 1: 1 }, tip: null, terms: false, email: '' });
  });
});
