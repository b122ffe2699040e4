import type { Charge } from './objects.ts';

// The test cards the sandbox's pay page takes, and what each makes happen to the payment afterwards.
// All but 0010 are Stripe's own test cards with the behaviour Stripe documents for them
// (https://docs.stripe.com/testing: "Simulate a dispute", "Simulate an asynchronous refund").
// A payment remembers its card only as Stripe does, by the card's last four digits on the charge
// (payment_method_details.card.last4), so no field of the sandbox's own is kept on Stripe's objects.

export type CardOutcome =
  /** Paid. */
  | 'succeeds'
  /** Refused: "Your card was declined." */
  | 'declined'
  /** Refused: "Your card has insufficient funds." */
  | 'insufficient_funds'
  /** Sandbox only, not a Stripe card: paid, the fee held back until released on request. */
  | 'fee_held'
  /** Paid, then disputed as fraudulent (a chargeback: the money is withdrawn). */
  | 'dispute'
  /** Paid, then disputed more than once, each dispute a chargeback of its own. */
  | 'multiple_disputes'
  /** Paid, then an inquiry: a dispute that withdraws nothing unless it is escalated. */
  | 'inquiry'
  /** Paid, then the issuer's early fraud warning. */
  | 'early_fraud_warning'
  /** Paid; a refund of it begins pending and later succeeds. */
  | 'refund_pending'
  /** Paid; a refund of it begins succeeded and later fails. */
  | 'refund_fails';

export interface TestCard {
  number: string;
  outcome: CardOutcome;
}

/** The cards, as the pay page lists them; any other number is refused as incorrect. */
export const testCards: readonly TestCard[] = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'declined' },
  { number: '4000 0000 0000 9995', outcome: 'insufficient_funds' },
  // Sandbox only (not in Stripe's list): Stripe has no card whose fee waits, but live Stripe often
  // books the fee later; this card keeps it back until POST /stripe-sandbox/sessions/<id>/release-fee.
  { number: '4000 0000 0000 0010', outcome: 'fee_held' },
  // https://docs.stripe.com/testing#disputes: "Fraudulent", "Multiple disputes", "Inquiry", "Warning".
  { number: '4000 0000 0000 0259', outcome: 'dispute' },
  { number: '4000 0004 0400 0079', outcome: 'multiple_disputes' },
  { number: '4000 0000 0000 1976', outcome: 'inquiry' },
  { number: '4000 0000 0000 5423', outcome: 'early_fraud_warning' },
  // https://docs.stripe.com/testing#refunds: "Asynchronous success" and "Asynchronous failure". The
  // sandbox's "some time later" is POST /stripe-sandbox/refunds/<id>/finish.
  { number: '4000 0000 0000 7726', outcome: 'refund_pending' },
  { number: '4000 0000 0000 5126', outcome: 'refund_fails' },
];

export const digits = (number: string) => number.replace(/[\s-]/g, '');

/** The card of a number as entered on the page (spaces and dashes are optional); undefined when unknown. */
export const cardOfNumber = (entered: string) => testCards.find((card) => digits(card.number) === digits(entered));

/** The last digits of the test card whose fee waits until it is released on request. */
export const heldFeeLast4 = '0010';

/** What the card of a charge makes happen afterwards (every test card ends in other digits). */
export function outcomeOf(charge: Charge): CardOutcome {
  const last4 = (charge.payment_method_details as { card?: { last4?: string } } | undefined)?.card?.last4;
  return testCards.find((card) => digits(card.number).endsWith(last4 ?? '-'))?.outcome ?? 'succeeds';
}
