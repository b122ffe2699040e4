import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Knex } from 'knex';
import { DomainError } from '../../api/src/foundations/errors.ts';
import {
  bookDisputeState,
  decideDisputeBearer,
  disputeFee,
  type DisputeBooking,
} from '../../api/src/ledger/dispute.ts';
import { DisputeDecided, NothingToBear, NotRefundable, RefundExceedsOrder } from '../../api/src/ledger/errors.ts';
import {
  assertRefundable,
  bookStripeRefund,
  splitRefund,
  statusAfterRefunds,
  type RefundableRow,
} from '../../api/src/ledger/refund.ts';

// The refund and dispute rules the ledger decides (ledger/refund.ts, ledger/dispute.ts), without a
// database: a decision that books nothing must not touch the transaction, so it is given none.

const noTransaction = new Proxy({} as Knex.Transaction, {
  get: () => assert.fail('nothing is booked, so the transaction is not used'),
  apply: () => assert.fail('nothing is booked, so the transaction is not used'),
});
const order = { id: 1, vendor_id: 1 };
const dispute = (state: Partial<DisputeBooking>): DisputeBooking => ({
  id: 'du_1',
  amount: 400,
  bearer: null,
  vendor_amount: 0,
  withdrawn_at: new Date(),
  reinstated_at: null,
  booked_unnamed: false,
  ...state,
});

const sum = (parts: Map<number, number>, rows: readonly RefundableRow[], paid: boolean) =>
  rows.filter((row) => (row.kind !== 'licence') === paid).reduce((total, row) => total + (parts.get(row.id) ?? 0), 0);

describe('ledger: refund and dispute rules', () => {
  it('refunds only a paid card order without a dispute, and books only a refund that succeeded', async () => {
    assert.throws(() => assertRefundable({ status: 'pending', stripe_payment_intent_id: 'pi_1' }), NotRefundable);
    assert.throws(() => assertRefundable({ status: 'paid', stripe_payment_intent_id: null }), NotRefundable);
    assert.throws(() => assertRefundable({ status: 'paid', stripe_payment_intent_id: 'pi_1' }, true), NotRefundable);
    assertRefundable({ status: 'paid', stripe_payment_intent_id: 'pi_1' });
    const paid = { id: 1, status: 'paid', amount_total: 400, amount_refunded: 0 };
    for (const [refund, orderNow, booked] of [
      [{ id: 're_1', status: 'pending', amount: 400 }, paid, 0],
      [{ id: 're_1', status: 'failed', amount: 400 }, paid, 0],
      [{ id: 're_1', status: 'succeeded', amount: 400 }, paid, 400],
      [{ id: 're_1', status: 'succeeded', amount: 400 }, { ...paid, status: 'refunded', amount_refunded: 400 }, 0],
    ] as const) {
      assert.equal(
        await bookStripeRefund(noTransaction, orderNow, refund, booked, 'office'),
        0,
        JSON.stringify([refund, booked]),
      );
    }
    assert.equal(statusAfterRefunds(paid, 399), 'paid');
    assert.equal(statusAfterRefunds(paid, 400), 'refunded');
  });

  it('splits a refund over the sales and the tip by what is left of each, to the cent, and the licence share alike', () => {
    const rows: RefundableRow[] = [
      { id: 1, kind: 'sale', amount: 300, remaining: 300 },
      { id: 2, kind: 'sale', amount: 500, remaining: 500 },
      { id: 3, kind: 'licence', amount: 100, remaining: 100 },
      { id: 4, kind: 'tip', amount: 100, remaining: 100 },
    ];
    // 8,00 € of 9,00 €: each of the customer's rows gives back 8/9 of itself; the rest cents go to the
    // largest fractions (300·8/9 = 266.67, 500·8/9 = 444.44, 100·8/9 = 88.89).
    assert.deepEqual(
      [...splitRefund(rows, 800)],
      [
        [1, 267],
        [2, 444],
        [4, 89],
        [3, 88],
      ],
    );
    // Then the last euro takes all that is left of every row, the licence share included.
    const left = rows.map((row) => ({ ...row, remaining: row.amount - (splitRefund(rows, 800).get(row.id) ?? 0) }));
    assert.deepEqual(
      [...splitRefund(left, 100)],
      [
        [1, 33],
        [2, 56],
        [4, 11],
        [3, 12],
      ],
    );
    assert.throws(() => splitRefund(left, 101), RefundExceedsOrder);
  });

  it('gives back exactly the refund from the customer’s rows, never more of a row than is left, and all of every row at the end', () => {
    const row = fc.record({
      kind: fc.constantFrom('sale', 'tip', 'licence'),
      amount: fc.integer({ min: 1, max: 5000 }),
    });
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 5 }),
        (drawn, weights) => {
          let rows: RefundableRow[] = drawn.map((r, i) => ({ id: i + 1, ...r, remaining: r.amount }));
          const total = rows.filter((r) => r.kind !== 'licence').reduce((s, r) => s + r.amount, 0);
          fc.pre(total > 0);
          // Refunds in the weights' proportions, the last one taking what is left.
          const weightSum = weights.reduce((s, w) => s + w, 0);
          let open = total;
          weights.forEach((weight, index) => {
            const amount = index === weights.length - 1 ? open : Math.floor((total * weight) / weightSum);
            if (amount > open) return;
            const parts = splitRefund(rows, amount);
            assert.equal(sum(parts, rows, true), amount);
            for (const r of rows) assert.ok((parts.get(r.id) ?? 0) <= r.remaining);
            rows = rows.map((r) => ({ ...r, remaining: r.remaining - (parts.get(r.id) ?? 0) }));
            open -= amount;
          });
          assert.deepEqual(
            rows.map((r) => r.remaining),
            rows.map(() => 0),
          );
        },
      ),
    );
  });

  it('sums the dispute fees taken less those returned, and books nothing for an inquiry or what is booked', async () => {
    assert.equal(
      disputeFee([
        { id: 'txn_1', amount: -400, fee: 1500 },
        { id: 'txn_2', amount: 0, fee: 1500 },
        { id: 'txn_3', amount: 400, fee: -1500 },
      ]),
      1500,
    );
    const inquiry = await bookDisputeState(noTransaction, order, dispute({ withdrawn_at: null }), {
      balanceTransactions: [],
    });
    assert.deepEqual(inquiry, { withdrawal: null, won: false });
    const unnamed = await bookDisputeState(
      noTransaction,
      order,
      dispute({ reinstated_at: new Date(), booked_unnamed: true }),
      {
        balanceTransactions: [
          { id: 'txn_1', amount: -400, fee: 1500 },
          { id: 'txn_2', amount: 400, fee: 0 },
        ],
      },
    );
    assert.deepEqual(unnamed, { withdrawal: null, won: false }, 'withdrawn and returned before rows were named');
  });

  it('lets staff decide who bears a dispute once, and refuses when there is nothing to bear', async () => {
    assert.equal(await decideDisputeBearer(noTransaction, order, dispute({ bearer: 'vendor' }), 'vendor', 'x'), null);
    await assert.rejects(
      decideDisputeBearer(noTransaction, order, dispute({ bearer: 'vendor' }), 'newspaper', 'x'),
      DisputeDecided,
    );
    await assert.rejects(
      decideDisputeBearer(noTransaction, order, dispute({ withdrawn_at: null }), 'vendor', 'x'),
      NothingToBear,
    );
    await assert.rejects(
      decideDisputeBearer(noTransaction, order, dispute({ reinstated_at: new Date() }), 'newspaper', 'x'),
      NothingToBear,
    );
    assert.equal(await decideDisputeBearer(noTransaction, order, dispute({}), 'newspaper', 'x'), 0);
  });

  it('answers each refusal as a conflict with its sentence', () => {
    for (const [error, message] of [
      [new NotRefundable('pending'), 'Only a paid order can be refunded; this one is pending.'],
      [
        new NotRefundable('disputed'),
        'This payment has an open dispute: Stripe refunds no disputed payment, the dispute decides.',
      ],
      [new RefundExceedsOrder(901, 900), 'A refund of €9.01 is more than the €9.00 not yet refunded of this order.'],
      [new DisputeDecided('vendor'), 'This dispute was already decided: the vendor bears it.'],
      [new DisputeDecided('newspaper'), 'This dispute was already decided: the newspaper bears it.'],
      [new NothingToBear('won'), 'This dispute was won and the money is back: there is nothing to bear.'],
      [new NothingToBear('not_withdrawn'), 'Stripe has not taken money for this dispute (yet): nothing to bear.'],
    ] as const) {
      assert.ok(error instanceof DomainError);
      assert.deepEqual([error.refusal, String(error.text)], ['conflict', message]);
    }
  });
});
