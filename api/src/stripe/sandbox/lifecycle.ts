import type { Knex } from 'knex';
import { StripeApiError } from './errors.ts';
import { balanceTransaction, newId, unixNow, type BalanceTransaction, type Charge } from './objects.ts';
import { insertObject, listObjects, saveObject, type StripeObject } from './store.ts';
import { stripeEvent, type StripeEvent } from './webhooks.ts';

// What happens to a payment afterwards at the card's bank, as the sandbox plays it: disputes
// (chargebacks and inquiries) and early fraud warnings. Which test card asks for what is cards.ts.

/** How long the newspaper has to answer a dispute with evidence. */
const evidenceDays = 7;
// Stripe's dispute fees (https://docs.stripe.com/disputes/how-disputes-work#dispute-fees and
// https://stripe.com/pricing): the fee for receiving a dispute is taken with the withdrawal and never
// returned, not even when the dispute is won; the countered-dispute fee, charged since 2025 when
// evidence is submitted, is returned with the money of a dispute won.
/** The fee for receiving a dispute (https://stripe.com/de/pricing: 20,00 € per dispute). */
export const SANDBOX_DISPUTE_FEE = 2000;
/** The fee for countering a dispute with evidence; Stripe names no euro amount, so the dispute fee's. */
export const SANDBOX_COUNTERED_DISPUTE_FEE = 2000;

export interface Dispute extends StripeObject {
  object: 'dispute';
  amount: number;
  charge: string;
  currency: string;
  status: string;
  balance_transactions: BalanceTransaction[];
  is_charge_refundable: boolean;
}

export interface EarlyFraudWarning extends StripeObject {
  object: 'radar.early_fraud_warning';
  actionable: boolean;
  charge: string;
}

/** The evidence fields of the pinned API version's Dispute.Evidence, all empty. */
const evidenceFields = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_communication',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'customer_signature',
  'duplicate_charge_documentation',
  'duplicate_charge_explanation',
  'duplicate_charge_id',
  'product_description',
  'receipt',
  'refund_policy',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'service_documentation',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_documentation',
  'shipping_tracking_number',
  'uncategorized_file',
  'uncategorized_text',
] as const;

/** An inquiry (Stripe's `warning_…` statuses) withdraws nothing until it is escalated to a chargeback. */
export const isInquiry = (dispute: Dispute) => dispute.status.startsWith('warning_');

/** A chargeback whose money is gone from the balance now: open, lost, or (its money back) won not. */
export const chargedBack = (dispute: Dispute) => !isInquiry(dispute) && dispute.status !== 'won';

/**
 * The money a chargeback takes: the disputed amount and the dispute fee, one balance transaction of
 * the dispute (https://docs.stripe.com/disputes/how-disputes-work: Stripe "debits the disputed amount,
 * plus a dispute fee"; https://docs.stripe.com/reports/reporting-categories: type adjustment, category dispute).
 */
const withdrawal = (dispute: Dispute) =>
  balanceTransaction({
    amount: -dispute.amount,
    currency: dispute.currency,
    type: 'adjustment',
    reportingCategory: 'dispute',
    source: dispute.id,
    description: `Chargeback withdrawal for ${dispute.charge}`,
    fees: [{ amount: SANDBOX_DISPUTE_FEE, description: 'Dispute fee' }],
  });

/** The countered-dispute fee: a balance transaction of the dispute that moves no money of the charge. */
const counteredFee = (dispute: Dispute) =>
  balanceTransaction({
    amount: 0,
    currency: dispute.currency,
    type: 'adjustment',
    reportingCategory: 'dispute',
    source: dispute.id,
    description: `Countered dispute fee for ${dispute.charge}`,
    fees: [{ amount: SANDBOX_COUNTERED_DISPUTE_FEE, description: 'Countered dispute fee' }],
  });

const isCounteredFee = (txn: BalanceTransaction) => txn.amount === 0 && txn.fee > 0;

/**
 * The money back on a dispute won (https://docs.stripe.com/testing#evidence): the disputed amount and
 * the countered-dispute fee, as a negative fee of the same balance transaction, category
 * dispute_reversal; the fee for receiving the dispute stays taken.
 */
const reinstatement = (dispute: Dispute) => {
  const fee = dispute.balance_transactions.filter(isCounteredFee).reduce((sum, txn) => sum + txn.fee, 0);
  return balanceTransaction({
    amount: dispute.amount,
    currency: dispute.currency,
    type: 'adjustment',
    reportingCategory: 'dispute_reversal',
    source: dispute.id,
    description: `Chargeback reversal for ${dispute.charge}`,
    fees: fee ? [{ amount: -fee, description: 'Countered dispute fee refund' }] : [],
  });
};

export interface DisputeRequest {
  /** The disputed amount; the charge's amount unless given. */
  amount?: number;
  reason?: string;
  /** An inquiry instead of a chargeback. */
  inquiry?: boolean;
}

/** Withdraws a chargeback's money; its balance transaction is a row of its own too, listed and retrieved by id. */
async function withdraw(trx: Knex.Transaction, dispute: Dispute): Promise<void> {
  const txn = withdrawal(dispute);
  await insertObject(trx, txn);
  dispute.balance_transactions = [...dispute.balance_transactions, txn];
  dispute.is_charge_refundable = false;
}

/**
 * Opens a dispute on `charge` (locked by the caller), as the card's bank does: a chargeback takes
 * the money and the fee at once (`charge.dispute.created`, `charge.dispute.funds_withdrawn`); an
 * inquiry takes nothing (https://docs.stripe.com/disputes/how-disputes-work#inquiries). A refunded
 * charge can be disputed too.
 */
export async function openDispute(
  trx: Knex.Transaction,
  charge: Charge,
  request: DisputeRequest = {},
): Promise<{ dispute: Dispute; events: StripeEvent[] }> {
  const amount = request.amount ?? charge.amount;
  if (amount < 1 || amount > charge.amount)
    throw new StripeApiError(400, 'invalid_request_error', `A dispute of ${charge.id} is 1 to ${charge.amount}.`, {
      param: 'amount',
    });
  const created = unixNow();
  const dispute: Dispute = {
    id: newId('dp_'),
    object: 'dispute',
    amount,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: { ...Object.fromEntries(evidenceFields.map((field) => [field, null])), enhanced_evidence: {} },
    evidence_details: {
      due_by: created + evidenceDays * 24 * 60 * 60,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: null,
    },
    intended_submission_method: null,
    is_charge_refundable: Boolean(request.inquiry),
    livemode: false,
    metadata: {},
    network_reason_code: null,
    payment_intent: charge.payment_intent,
    reason: request.reason ?? 'fraudulent',
    status: request.inquiry ? 'warning_needs_response' : 'needs_response',
  };
  if (!request.inquiry) await withdraw(trx, dispute);
  const events = [stripeEvent('charge.dispute.created', dispute)];
  if (!request.inquiry) events.push(stripeEvent('charge.dispute.funds_withdrawn', dispute));
  await insertObject(trx, dispute);
  charge.disputed = true;
  await saveObject(trx, charge);
  events.push(...(await settleFraudWarnings(trx, charge)));
  return { dispute, events };
}

/**
 * Stripe's test evidence (https://docs.stripe.com/testing#evidence): `winning_evidence` closes the
 * dispute as won, `losing_evidence` as lost (an inquiry closes without escalation either way),
 * `escalate_inquiry_evidence` turns an inquiry into a chargeback.
 */
export type TestEvidence = 'winning_evidence' | 'losing_evidence' | 'escalate_inquiry_evidence';

export const testEvidence = (text: string | undefined): TestEvidence | undefined =>
  text === 'winning_evidence' || text === 'losing_evidence' || text === 'escalate_inquiry_evidence' ? text : undefined;

const openStatuses = ['needs_response', 'warning_needs_response'];

export const notOpenDispute = (dispute: Dispute) =>
  new StripeApiError(400, 'invalid_request_error', `This dispute is already closed (${dispute.status}).`);

/** Takes the evidence of POST /v1/disputes/<id> and, submitted, answers the dispute as Stripe's test mode does. */
export async function answerDispute(
  trx: Knex.Transaction,
  dispute: Dispute,
  uncategorizedText: string | undefined,
  submit: boolean,
): Promise<StripeEvent[]> {
  if (!openStatuses.includes(dispute.status)) throw notOpenDispute(dispute);
  const previous = { status: dispute.status };
  dispute.evidence = { ...(dispute.evidence as object), uncategorized_text: uncategorizedText ?? null };
  const details = dispute.evidence_details as Record<string, unknown>;
  details.has_evidence = uncategorizedText !== undefined;
  if (!submit) return [];
  details.submission_count = Number(details.submission_count) + 1;
  details.submission_method = 'manual';
  const evidence = testEvidence(uncategorizedText);
  const events: StripeEvent[] = [];
  // Countering a chargeback costs its fee once, at the first submission; an inquiry costs none.
  if (!isInquiry(dispute) && !dispute.balance_transactions.some(isCounteredFee)) {
    const txn = counteredFee(dispute);
    await insertObject(trx, txn);
    dispute.balance_transactions = [...dispute.balance_transactions, txn];
  }
  if (isInquiry(dispute) && evidence === 'escalate_inquiry_evidence') {
    dispute.status = 'needs_response';
    details.submission_count = 0;
    events.push(stripeEvent('charge.dispute.updated', dispute, previous));
    await withdraw(trx, dispute);
    events.push(stripeEvent('charge.dispute.funds_withdrawn', dispute));
    return events;
  }
  if (evidence === 'winning_evidence' || evidence === 'losing_evidence') {
    return close(trx, dispute, evidence === 'winning_evidence' ? 'won' : 'lost', previous);
  }
  dispute.status = isInquiry(dispute) ? 'warning_under_review' : 'under_review';
  return [stripeEvent('charge.dispute.updated', dispute, previous)];
}

/**
 * Closes a dispute: an inquiry as `warning_closed`, a chargeback as won (its money and fee back,
 * `charge.dispute.funds_reinstated`) or lost.
 */
export async function close(
  trx: Knex.Transaction,
  dispute: Dispute,
  outcome: 'won' | 'lost',
  previous: Record<string, unknown> = { status: dispute.status },
): Promise<StripeEvent[]> {
  dispute.status = isInquiry(dispute) ? 'warning_closed' : outcome;
  const events = [stripeEvent('charge.dispute.updated', dispute, previous)];
  if (dispute.status === 'won') {
    const txn = reinstatement(dispute);
    await insertObject(trx, txn);
    dispute.balance_transactions = [...dispute.balance_transactions, txn];
  }
  events.push(stripeEvent('charge.dispute.closed', dispute));
  if (dispute.status === 'won') events.push(stripeEvent('charge.dispute.funds_reinstated', dispute));
  return events;
}

export const disputesOf = async (trx: Knex.Transaction, chargeId: string) =>
  (await listObjects<Dispute>(trx, 'dispute')).filter((dispute) => dispute.charge === chargeId);

/**
 * A refund of the whole charge resolves its open inquiries (https://docs.stripe.com/disputes/how-disputes-work#inquiries:
 * refunding the payment in full marks the inquiry resolved), and its fraud warnings are no longer actionable.
 */
export async function afterFullRefund(trx: Knex.Transaction, charge: Charge): Promise<StripeEvent[]> {
  const events: StripeEvent[] = [];
  for (const dispute of await disputesOf(trx, charge.id)) {
    if (dispute.status !== 'warning_needs_response') continue;
    events.push(...(await close(trx, dispute, 'lost')));
    await saveObject(trx, dispute);
  }
  events.push(...(await settleFraudWarnings(trx, charge)));
  return events;
}

/** An early fraud warning from the card's issuer (Stripe's test card 4000 0000 0000 5423, https://docs.stripe.com/testing#disputes). */
export async function warnOfFraud(trx: Knex.Transaction, charge: Charge): Promise<StripeEvent[]> {
  const warning: EarlyFraudWarning = {
    id: newId('issfr_'),
    object: 'radar.early_fraud_warning',
    actionable: true,
    charge: charge.id,
    created: unixNow(),
    // Stripe does not say which fraud type its test card reports; the issuer's most common one.
    fraud_type: 'made_with_stolen_card',
    livemode: false,
    payment_intent: charge.payment_intent,
  };
  await insertObject(trx, warning);
  return [stripeEvent('radar.early_fraud_warning.created', warning)];
}

/**
 * A warning is actionable while its charge is neither disputed nor fully refunded (the pinned API's
 * EarlyFraudWarning.actionable); when that ends, `radar.early_fraud_warning.updated` says so.
 */
async function settleFraudWarnings(trx: Knex.Transaction, charge: Charge): Promise<StripeEvent[]> {
  const events: StripeEvent[] = [];
  const warnings = (await listObjects<EarlyFraudWarning>(trx, 'radar.early_fraud_warning')).filter(
    (warning) => warning.charge === charge.id && warning.actionable,
  );
  for (const warning of warnings) {
    warning.actionable = false;
    await saveObject(trx, warning);
    events.push(stripeEvent('radar.early_fraud_warning.updated', warning, { actionable: true }));
  }
  return events;
}
