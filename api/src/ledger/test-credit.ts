import { CounterError } from './errors.ts';

// In test mode behind a public address (STRIPE_SANDBOX=true) every card payment is made with a test
// card in the sandbox or at Stripe's test mode: the credit it brings was paid by nobody. A till holds
// real cash, so that credit never reaches it: no payout, and no copies paid from it at the counter
// (copies paid in cash are real sales and stay possible). A start on this machine only (the demo)
// pays it out, as the office's day is shown there.

/** The credit is test money and cannot be taken as cash. */
export class TestCreditNotCash extends CounterError {
  constructor() {
    super(
      'conflict',
      'This is a test installation: credit from test payments is never paid out in cash, nor used to pay for copies.',
    );
  }
}

/** Refuses to turn `amount` cents of a vendor's credit into cash or copies when that credit is test money. */
export function refuseTestCreditAsCash(creditIsTestMoney: boolean | undefined, amount: number): void {
  if (creditIsTestMoney && amount > 0) throw new TestCreditNotCash();
}
