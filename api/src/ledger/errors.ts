// What the money rules refuse, as facts about the books, not as HTTP answers: api/src/ledger-refusals.ts
// says what each means for the person asking, and http/ its status. Nothing here knows of requests.

import { money, tr, type Text } from '../language/messages.ts';
import type { Bearer } from './dispute.ts';

/** A money rule refused what was asked. */
export class LedgerError extends Error {}

/** A payout as the loser of a payout race needs to know it: who paid, when, how much, which voucher. */
export interface LastPayout {
  id: number;
  /** The payout's voucher (ledger/vouchers.ts). */
  voucher: string;
  amount: number;
  authorisedBy: string;
  createdAt: string;
  /** The time in the newspaper's time zone, as `YYYY-MM-DD HH:MM`, for a message in any language. */
  localTime: string;
}

/** The vendor's open credit is zero or a debt: there is nothing to hand out. */
export class NothingToPayOut extends LedgerError {
  constructor(
    readonly vendorId: number,
    /** The vendor's last payout that stands, when there is one: usually what emptied the credit. */
    readonly lastPayout?: LastPayout,
  ) {
    super(`Vendor ${vendorId} has no credit to pay out.`);
  }
}

/** The staff member saw a different figure than the one that is open now (a sale arrived meanwhile). */
export class StaleAmount extends LedgerError {
  constructor(readonly currentAmount: number) {
    super(`The open credit is now ${currentAmount} cents.`);
  }
}

export class PayoutNotFound extends LedgerError {
  constructor(readonly payoutId: number) {
    super(`There is no payout ${payoutId}.`);
  }
}

export class PayoutAlreadyReversed extends LedgerError {
  constructor(readonly payoutId: number) {
    super(`Payout ${payoutId} has already been reversed.`);
  }
}

/** A vendor whose credit is not zero cannot be deleted: the money would vanish with them. */
export class CreditNotZero extends LedgerError {
  constructor(readonly credit: number) {
    super(`The vendor's credit is ${credit} cents, not zero.`);
  }
}

/** No money is booked for a deleted vendor: a payment that arrives for one is left to staff. */
export class VendorDeleted extends LedgerError {
  constructor(readonly vendorId: number) {
    super(`Vendor ${vendorId} has been deleted.`);
  }
}

/**
 * A money rule refused what was asked, for the person who asked: `refusal` says what kind (bad input,
 * something unknown, a conflict with the books as they are now); the HTTP layer turns each kind into
 * a status once.
 */
export class LedgerRefusal extends LedgerError {
  constructor(
    readonly refusal: 'invalid' | 'unknown' | 'conflict',
    readonly text: Text,
    readonly errors?: Record<string, Text>,
    /** Extra figures for the screen, e.g. the credit or the till balance as it is now. */
    readonly details?: Record<string, number>,
  ) {
    super(String(text));
  }
}

/** A refusal of the counter or the cash book, for the person at the counter. */
export class CounterError extends LedgerRefusal {}

/**
 * Only a paid order can be refunded: before it is paid, or once refunded, nothing is to give back; a
 * payment with an open dispute neither (Stripe refuses it: the dispute decides).
 */
export class NotRefundable extends LedgerRefusal {
  constructor(readonly status: string) {
    super(
      'conflict',
      status === 'disputed'
        ? 'This payment has an open dispute: Stripe refunds no disputed payment, the dispute decides.'
        : tr('Only a paid order can be refunded; this one is {status}.', { status }),
    );
  }
}

/** A refund of more than is left of the order: the books would give back money the customer never paid. */
export class RefundExceedsOrder extends LedgerRefusal {
  constructor(
    readonly amount: number,
    readonly open: number,
  ) {
    super(
      'conflict',
      tr('A refund of {amount} is more than the {open} not yet refunded of this order.', {
        amount: money(amount),
        open: money(open),
      }),
    );
  }
}

/** Staff already decided who bears a dispute, the other way; a decision stands. */
export class DisputeDecided extends LedgerRefusal {
  constructor(readonly bearer: Bearer) {
    super(
      'conflict',
      bearer === 'vendor'
        ? 'This dispute was already decided: the vendor bears it.'
        : 'This dispute was already decided: the newspaper bears it.',
    );
  }
}

/**
 * A dispute with no money for the chosen bearer to bear: Stripe has taken none (yet), gave it back when
 * it was won, or (for the vendor) the sale was refunded already, so the vendor's credit gave it back once.
 */
export class NothingToBear extends LedgerRefusal {
  constructor(readonly why: 'not_withdrawn' | 'won' | 'refunded') {
    super(
      'conflict',
      why === 'won'
        ? 'This dispute was won and the money is back: there is nothing to bear.'
        : why === 'refunded'
          ? 'The vendor’s credit already gave this sale back (refunded or borne in another dispute): the vendor cannot bear it a second time.'
          : 'Stripe has not taken money for this dispute (yet): nothing to bear.',
    );
  }
}

/**
 * A submission's request id came again with other figures (another vendor, amount or till) than it
 * was booked with: it is not the same submission, and the first one stands.
 */
export class RequestReused extends CounterError {
  constructor() {
    super(
      'conflict',
      'This submission was already booked with other figures. Please reload the page to see the booking, and book again if something is missing.',
    );
  }
}
