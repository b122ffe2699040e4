import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { DomainError } from '../../api/src/errors.ts';
import { ledgerRefusal } from '../../api/src/ledger-refusals.ts';
import {
  bookDisputeState,
  decideDisputeBearer,
  disputeFee,
  type DisputeBooking,
} from '../../api/src/ledger/dispute.ts';
import { DisputeDecided, NothingToBear, NotRefundable } from '../../api/src/ledger/errors.ts';
import { assertRefundable, bookStripeRefund } from '../../api/src/ledger/refund.ts';

// The refund and dispute rules the ledger decides (ledger/refund.ts, ledger/dispute.ts), without a
// database: a decision that books nothing must not touch the transaction, so it is given none.

const noTransaction = new Proxy({} as Knex.Transaction, {
  get: () => assert.fail('nothing is booked, so the transaction is not used'),
  apply: () => assert.fail('nothing is booked, so the transaction is not used'),
});
const order = { id: 1, vendor_id: 1 };
const dispute = (state: Partial<DisputeBooking>): DisputeBooking => ({
  amount: 400,
  bearer: null,
  withdrawn_at: new Date(),
  reinstated_at: null,
  ...state,
});

describe('ledger: refund and dispute rules', () => {
  it('refunds only a paid card order, and books only a whole refund that succeeded', async () => {
    assert.throws(() => assertRefundable({ status: 'pending', stripe_payment_intent_id: 'pi_1' }), NotRefundable);
    assert.throws(() => assertRefundable({ status: 'paid', stripe_payment_intent_id: null }), NotRefundable);
    assertRefundable({ status: 'paid', stripe_payment_intent_id: 'pi_1' });
    const paid = { id: 1, status: 'paid', amount_total: 400 };
    for (const [refund, orderNow] of [
      [{ status: 'succeeded', amount: 300 }, paid],
      [{ status: 'pending', amount: 400 }, paid],
      [{ status: 'failed', amount: 400 }, paid],
      [
        { status: 'succeeded', amount: 400 },
        { ...paid, status: 'refunded' },
      ],
    ] as const) {
      assert.equal(await bookStripeRefund(noTransaction, orderNow, refund, 'office'), false, JSON.stringify(refund));
    }
  });

  it('sums the dispute fee of the withdrawals only, and books nothing for an inquiry', async () => {
    assert.equal(
      disputeFee([
        { amount: -400, fee: 1500 },
        { amount: 400, fee: -1500 },
        { amount: -100, fee: 0 },
      ]),
      1500,
    );
    const booked = await bookDisputeState(noTransaction, order, dispute({ withdrawn_at: null }), {
      status: 'warning_needs_response',
      balanceTransactions: [],
    });
    assert.deepEqual(booked, { withdrawal: null, won: false });
    const twice = await bookDisputeState(noTransaction, order, dispute({ reinstated_at: new Date() }), {
      status: 'won',
      balanceTransactions: [{ amount: -400, fee: 1500 }],
    });
    assert.deepEqual(twice, { withdrawal: null, won: false }, 'withdrawn and returned already');
  });

  it('lets staff decide who bears a dispute once, and refuses when there is nothing to bear', async () => {
    assert.equal(await decideDisputeBearer(noTransaction, order, dispute({ bearer: 'vendor' }), 'vendor', 'x'), false);
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
    assert.equal(await decideDisputeBearer(noTransaction, order, dispute({}), 'newspaper', 'x'), true);
  });

  it('answers each refusal as a conflict with its sentence', () => {
    for (const [error, message] of [
      [new NotRefundable('pending'), 'Only a paid order can be refunded; this one is pending.'],
      [new DisputeDecided('vendor'), 'This dispute was already decided: the vendor bears it.'],
      [new DisputeDecided('newspaper'), 'This dispute was already decided: the newspaper bears it.'],
      [new NothingToBear('won'), 'This dispute was won and the money is back: there is nothing to bear.'],
      [new NothingToBear('not_withdrawn'), 'Stripe has not taken money for this dispute (yet): nothing to bear.'],
    ] as const) {
      const refusal = ledgerRefusal(error);
      assert.ok(refusal instanceof DomainError);
      assert.deepEqual([refusal.refusal, String(refusal.text)], ['conflict', message]);
    }
  });
});
