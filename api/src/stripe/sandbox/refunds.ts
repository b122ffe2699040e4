import type { Knex } from 'knex';
import { outcomeOf } from './cards.ts';
import { invalidParam, StripeApiError } from './errors.ts';
import { text, type Params } from './form.ts';
import { afterFullRefund, chargedBack, disputesOf } from './lifecycle.ts';
import { balanceTransaction, createRefund, type Charge, type Refund } from './objects.ts';
import { getObject, insertObject, saveObject } from './store.ts';
import { stripeEvent, type StripeEvent } from './webhooks.ts';

// Refunds as Stripe makes them: whole or in parts up to the charge's amount, each with its own
// balance transaction, refused while the charge is charged back, and with the test cards' later
// outcomes (https://docs.stripe.com/testing#refunds).

/** The charge a refund's parameters name (`payment_intent` or `charge`), locked for the transaction. */
async function chargeToRefund(trx: Knex.Transaction, params: Params): Promise<Charge> {
  const intentId = text(params, 'payment_intent');
  let chargeId = text(params, 'charge');
  if (!intentId && !chargeId)
    throw invalidParam(
      'payment_intent',
      'One of the following params should be provided for this request: payment_intent or charge.',
    );
  if (intentId) {
    const intent = await getObject(trx, 'payment_intent', intentId);
    if (chargeId && chargeId !== intent.latest_charge)
      throw invalidParam('charge', `The charge ${chargeId} does not belong to the PaymentIntent ${intentId}.`);
    chargeId = intent.latest_charge as string;
  }
  return getObject<Charge>(trx, 'charge', chargeId!, { lock: true });
}

/**
 * A refund of a payment: `charge.refunded` and `refund.created` follow. Card 7726's refund begins
 * `pending`, card 5126's begins `succeeded` (both finished later by `finishRefund`). A charge whose
 * money a chargeback took is not refunded (https://docs.stripe.com/error-codes: `charge_disputed`).
 */
export async function refundCharge(
  trx: Knex.Transaction,
  params: Params,
): Promise<{ refund: Refund; events: StripeEvent[] }> {
  const charge = await chargeToRefund(trx, params);
  if ((await disputesOf(trx, charge.id)).some(chargedBack)) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Charge ${charge.id} has been charged back; cannot issue a refund.`,
      { code: 'charge_disputed' },
    );
  }
  const { refund, txn } = createRefund(params, charge);
  if (outcomeOf(charge) === 'refund_pending') refund.status = 'pending';
  await insertObject(trx, txn);
  await insertObject(trx, refund);
  const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += refund.amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  await saveObject(trx, charge);
  // https://docs.stripe.com/api/events/types: charge.refunded "occurs whenever a charge is refunded,
  // including partial refunds"; refund.created carries the refund.
  const events = [stripeEvent('charge.refunded', charge, previous), stripeEvent('refund.created', refund)];
  if (charge.refunded) events.push(...(await afterFullRefund(trx, charge)));
  return { refund, events };
}

/**
 * Sandbox-only: "some time later" for the asynchronous refund cards. Card 7726's pending refund
 * succeeds (`refund.updated`); card 5126's refund, succeeded so far, fails (`refund.updated`,
 * `refund.failed`): its amount comes back to the balance with a `refund_failure` balance transaction
 * (the refund's failure_balance_transaction) and leaves the charge's amount_refunded. Both send
 * `charge.refund.updated` too, the pinned API's event for a refund updated on a card.
 */
export async function finishRefund(
  trx: Knex.Transaction,
  refundId: string,
): Promise<{ refund: Refund; events: StripeEvent[] }> {
  const refund = await getObject<Refund>(trx, 'refund', refundId, { lock: true });
  const charge = await getObject<Charge>(trx, 'charge', refund.charge, { lock: true });
  const outcome = outcomeOf(charge);
  const events: StripeEvent[] = [];
  if (outcome === 'refund_pending' && refund.status === 'pending') {
    refund.status = 'succeeded';
    events.push(
      stripeEvent('refund.updated', refund, { status: 'pending' }),
      stripeEvent('charge.refund.updated', refund, { status: 'pending' }),
    );
  } else if (outcome === 'refund_fails' && refund.status === 'succeeded') {
    const txn = balanceTransaction({
      amount: refund.amount,
      currency: refund.currency,
      type: 'refund_failure',
      reportingCategory: 'refund_failure',
      source: refund.id,
      description: 'REFUND FAILURE',
    });
    await insertObject(trx, txn);
    Object.assign(refund, {
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
      failure_balance_transaction: txn.id,
    });
    charge.amount_refunded -= refund.amount;
    charge.refunded = false;
    await saveObject(trx, charge);
    const previous = { status: 'succeeded' };
    events.push(
      stripeEvent('refund.updated', refund, previous),
      stripeEvent('charge.refund.updated', refund, previous),
      stripeEvent('refund.failed', refund),
    );
  } else {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Refund ${refund.id} (${refund.status}) has nothing to finish: only a pending refund of card 4000 0000 0000 7726 or a refund of card 4000 0000 0000 5126 that has not failed yet.`,
    );
  }
  await saveObject(trx, refund);
  return { refund, events };
}
