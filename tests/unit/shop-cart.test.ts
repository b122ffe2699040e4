import assert from 'node:assert/strict';
import { shopItem } from '../support/fixtures.ts';

import {
  cartLines,
  checkout,
  chooseEdition,
  editions,
  initialCart,
  isEmail,
  setQuantity,
} from '../../shop-widget/src/cart.ts';
import { parseRoute } from '../../shop-widget/src/route.ts';
import { afterPaymentTexts } from '../../shop-widget/src/pages/after-payment-texts.ts';
import { fill, pickLanguage, texts } from '../../shop-widget/src/texts.ts';

const item = shopItem;

// As the demo newspaper sells them (GET /api/items/, higher order first).
const paper = item(1, 'Zeitung', 300, { isMainProduct: true });
const digital = item(3, 'Digitale Ausgabe', 300, { isDigital: true });
const calendar = item(4, 'Kalender 2027', 1000, { maxOrderAmount: 5 });
const items = [paper, digital, calendar];
const max = 15000;

describe('shop widget: cart', () => {
  it('starts with the main item once', () => {
    assert.deepEqual(initialCart(items), { 1: 1 });
    assert.deepEqual(initialCart([calendar]), {}, 'no main item, nothing in the cart');
  });

  it('counts up and down within 0 and the item’s maximum', () => {
    let cart = initialCart(items);
    cart = setQuantity(cart, calendar, 9);
    assert.equal(cart[calendar.id], 5, 'the calendar allows 5');
    cart = setQuantity(cart, paper, -1);
    assert.equal(cart[paper.id], undefined, 'zero removes the line');
    assert.deepEqual(
      cartLines(items, setQuantity(cart, paper, 2)).map((line) => [line.item.name, line.quantity, line.amount]),
      [
        ['Zeitung', 2, 600],
        ['Kalender 2027', 5, 5000],
      ],
    );
  });

  it('sums items and tip in cents and says why a cart cannot be paid', () => {
    const ok = checkout(items, { 1: 1 }, 200, max);
    assert.equal(ok.total, 500);
    assert.equal(ok.problem, undefined);
    assert.equal(ok.digital, undefined);

    assert.equal(checkout(items, {}, 200, max).problem, 'donationOnly');
    assert.equal(checkout(items, {}, 0, max).problem, 'empty');
    assert.equal(
      checkout(items, { 4: 5, 1: 33 }, 100, max).problem,
      'tooHigh',
      '149,00 € + 1,00 € reaches the maximum',
    );
    assert.equal(checkout(items, { 4: 5, 1: 33 }, 99, max).problem, undefined, '149,99 € stays below it');
    assert.equal(checkout(items, { 3: 1 }, 0, max).digital, digital, 'a digital edition needs an e-mail address');
  });

  it('swaps print and digital edition keeping the number of copies', () => {
    const pair = editions(items);
    assert.deepEqual(pair, { print: paper, digital });
    assert.deepEqual(chooseEdition({ 1: 2, 4: 1 }, digital, paper), { 3: 2, 4: 1 });
    assert.deepEqual(chooseEdition({ 4: 1 }, paper, digital), { 4: 1, 1: 1 });
    assert.equal(editions([paper, calendar]), undefined, 'no digital edition, no choice');
  });

  it('tells a usable e-mail address from a typo', () => {
    assert.ok(isEmail('reader@example.org'));
    assert.ok(isEmail(' reader@mail.example.org '));
    for (const bad of [
      'reader',
      'reader@',
      'reader@example',
      'a b@example.org',
      '@example.org',
      'reader@@example.org',
    ]) {
      assert.ok(!isEmail(bad), bad);
    }
  });
});

describe('shop widget: routes and languages', () => {
  it('maps every public route of the specification to its screen', () => {
    assert.deepEqual(parseRoute('/v/DEMO-1'), { page: 'vendor', id: 'DEMO-1', step: 'landing-page' });
    assert.deepEqual(parseRoute('/v/DEMO-1/custom-tip/'), { page: 'vendor', id: 'DEMO-1', step: 'custom-tip' });
    assert.deepEqual(parseRoute('/v/DEMO-1/item-available?item=4'), {
      page: 'vendor',
      id: 'DEMO-1',
      step: 'item-available',
      item: 4,
    });
    assert.deepEqual(parseRoute('/v/DEMO-1/payment?order=abc'), {
      page: 'vendor',
      id: 'DEMO-1',
      step: 'payment',
      order: 'abc',
    });
    assert.deepEqual(parseRoute('/success?order=t&session_id=cs_1'), {
      page: 'success',
      order: 't',
      sessionId: 'cs_1',
    });
    assert.deepEqual(parseRoute('/failure?order=t'), { page: 'failure', order: 't' });
    assert.deepEqual(parseRoute('/paymentconfirmation?order=t'), { page: 'receipt', order: 't' });
    assert.deepEqual(parseRoute('/pdf/abc'), { page: 'pdf', id: 'abc' });
    assert.deepEqual(parseRoute('/404'), { page: 'not-found' });
    assert.deepEqual(parseRoute('/error-invalid-link'), { page: 'invalid-link' });
    // A step the vendor's shop does not know stays in that shop.
    assert.deepEqual(parseRoute('/v/DEMO-1/nonsense'), { page: 'not-found', vendor: 'DEMO-1' });
    for (const other of ['/', '/go-to-vendor', '/somewhere/else', '/v/%E0%A4%A']) {
      assert.deepEqual(parseRoute(other), { page: 'go-to-vendor' }, other);
    }
  });

  it('picks German unless the browser prefers English, and keeps a chosen language', () => {
    assert.equal(pickLanguage(null, ['de-AT', 'en']), 'de');
    assert.equal(pickLanguage(null, ['fr-FR', 'en-GB', 'de']), 'en');
    assert.equal(pickLanguage(null, ['fr', 'it']), 'de', 'German is the fallback');
    assert.equal(pickLanguage('en', ['de']), 'en');
    assert.equal(pickLanguage('xx', ['en-US']), 'en', 'an unknown stored value is ignored');
  });

  it('has every text in both languages, with the same placeholders', () => {
    for (const [key, [de, en]] of Object.entries({ ...texts, ...afterPaymentTexts })) {
      assert.ok(de && en, key);
      const names = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
      assert.deepEqual(names(de), names(en), key);
    }
    assert.equal(
      fill('needsEmail', 'en', { name: 'Digitale Ausgabe' }),
      'Your item Digitale Ausgabe needs an email address',
    );
    assert.equal(fill('invalidId', 'de'), 'Die gescannte ID ist nicht gültig');
  });
});
