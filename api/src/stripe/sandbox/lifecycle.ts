import { newId, unixNow, type Charge } from './objects.ts';
import type { StripeObject } from './store.ts';

// What Stripe does with a payment afterwards, as the sandbox plays it: disputes (Stripe's test card
// 4000 0000 0000 0259), and refunds that stay pending or fail (cards 7726 and 3476).

/** What the test card asks to happen after the payment. */
export type Later = 'dispute' | 'refund_pending' | 'refund_fails';

/** How long the newspaper has to answer a dispute with evidence. */
const evidenceDays = 7;
/** Stripe's dispute fee in the euro area (it keeps it whatever the outcome). */
export const SANDBOX_DISPUTE_FEE = 2000;

function disputeTransaction(charge: Charge, amount: number, fee: number, created: number): StripeObject {
  return {
    id: newId('txn_'),
    object: 'balance_transaction',
    amount,
    available_on: created,
    created,
    currency: charge.currency,
    description: amount < 0 ? `Chargeback withdrawal for ${charge.id}` : `Chargeback reversal for ${charge.id}`,
    fee,
    fee_details: fee
      ? [{ amount: fee, application: null, currency: charge.currency, description: 'Dispute fee', type: 'stripe_fee' }]
      : [],
    net: amount - fee,
    reporting_category: 'dispute',
    source: charge.id,
    status: 'available',
    type: 'adjustment',
  };
}

/** The money back on a dispute won (the fee stays with Stripe). */
export const reinstatement = (dispute: StripeObject, charge: Charge) =>
  disputeTransaction(charge, dispute.amount as number, 0, unixNow());

/** A dispute of the whole charge, its amount withdrawn at once, as Stripe opens one. */
export function dispute(charge: Charge): StripeObject {
  const created = unixNow();
  return {
    id: newId('dp_'),
    object: 'dispute',
    amount: charge.amount,
    balance_transactions: [disputeTransaction(charge, -charge.amount, SANDBOX_DISPUTE_FEE, created)],
    charge: charge.id,
    created,
    currency: charge.currency,
    evidence: { uncategorized_text: null },
    evidence_details: {
      due_by: created + evidenceDays * 24 * 60 * 60,
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason: 'fraudulent',
    status: 'needs_response',
  };
}

/** Stripe's test flow: evidence `winning_evidence` wins the dispute, `losing_evidence` loses it. */
export function outcomeOfEvidence(text: string | undefined): 'won' | 'lost' | undefined {
  if (text === 'winning_evidence') return 'won';
  if (text === 'losing_evidence') return 'lost';
  return undefined;
}
