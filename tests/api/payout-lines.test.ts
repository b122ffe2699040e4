import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { describeApi } from '../support/env.ts';
import { listenBooksShop, noFeeCard, sell } from '../support/sales.ts';
import type { ListeningShop } from '../support/shop-server.ts';

// One payout prints one set of lines: the payout receipt and the receipt of the counter visit that
// paid it out show the same quantity per item, a refund taking back the pieces its sale counted.

/** The lines of a receipt's table as [label, quantity], read from its HTML. */
function receiptLines(html: string, tableId: string): [string, string][] {
  const table = new RegExp(`<table id="${tableId}">([\\s\\S]*?)</table>`).exec(html);
  assert.ok(table, `the receipt has the table ${tableId}`);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table[1])?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) => {
    const cells = [...row.matchAll(/<td( class="num")?[^>]*>([\s\S]*?)<\/td>/g)];
    const label = cells.filter(([, num]) => !num).at(-1)?.[2] ?? '';
    const quantity = cells.find(([, num]) => num)?.[2] ?? '';
    return [label, quantity];
  });
}

describeApi('payout lines: the payout receipt and the counter receipt of one payout agree', (t) => {
  let shop: ListeningShop;
  let office = '';
  before(async () => {
    shop = await listenBooksShop(t);
    office = await t.office();
  });
  after(() => shop.close());
  beforeEach(() => t.reset());

  const as = <R extends supertest.Test>(request: R) => request.set('Authorization', office);

  it('prints the same quantity per item on both receipts of a payout that settled a refund: sold less refunded', async () => {
    const refunded = await sell(shop, t.db, {
      vendor: 'DEMO-17',
      items: { Zeitung: 2, 'Digitale Ausgabe': 1 },
      card: noFeeCard,
    });
    await sell(shop, t.db, { vendor: 'DEMO-17', items: { Zeitung: 3 }, tip: 100, card: noFeeCard });
    const refund = await as(shop.http.post(`/api/orders/${refunded.id}/refund/`));
    assert.equal(refund.status, 200, JSON.stringify(refund.body));

    const counter = await as(t.http.get('/api/counter/vendor').query({ vendor: 'DEMO-17' }));
    assert.equal(counter.status, 200, JSON.stringify(counter.body));
    assert.equal(counter.body.credit, 3 * 300 + 100);
    const visit = await as(t.http.post('/api/counter/visits')).send({
      visitId: randomUUID(),
      vendor: 'DEMO-17',
      tillId: counter.body.tills[0].id,
      items: [],
      cash: 0,
      payOut: true,
      expectedCredit: counter.body.credit,
    });
    assert.equal(visit.status, 201, JSON.stringify(visit.body));
    assert.equal(visit.body.payout.amount, 1000);

    const visitReceipt = await as(t.http.get(`/api/counter/visits/${visit.body.id}/receipt`));
    assert.equal(visitReceipt.status, 200);
    const payoutReceipt = await as(t.http.get(`/api/payouts/${visit.body.payout.id}/receipt`));
    assert.equal(payoutReceipt.status, 200);
    const onVisit = receiptLines(visitReceipt.text, 'receipt-settled');
    const onPayout = receiptLines(payoutReceipt.text, 'receipt-rows');
    assert.deepEqual(onPayout, onVisit, 'both receipts print the same lines');
    const zeitung = onPayout.filter(([label]) => label === 'Zeitung');
    assert.deepEqual(zeitung, [['Zeitung', '3']], '5 sold, 2 of them refunded: one line of 3');
    assert.deepEqual(
      onPayout.filter(([label]) => label.startsWith('Digitale Ausgabe')),
      [
        ['Digitale Ausgabe – Lizenz', '0'],
        ['Digitale Ausgabe', '0'],
      ],
      'the refunded digital copy and its licence share count nothing',
    );

    const payout = await as(t.http.get(`/api/payouts/${visit.body.payout.id}`));
    const listed = payout.body.items
      .filter((item: { kind: string }) => item.kind === 'item')
      .map((item: { itemName: string; quantity: number }) => [item.itemName, String(item.quantity)]);
    assert.deepEqual(
      listed,
      onPayout.filter(([label]) => label === 'Zeitung' || label.startsWith('Digitale Ausgabe')),
      'the payouts list counts the same pieces',
    );
  });
});
