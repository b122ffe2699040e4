// What the money rules refuse, as domain errors (api/src/foundations/errors.ts): the kind of refusal, the
// sentence for the person asking and the figures to show again; http/ answers them as it answers
// every other domain error. Nothing here knows of requests.

import { DomainError, type FieldErrors, type RefusalKind } from '../foundations/errors.ts';
import { money, tr, type Text } from '../language/messages.ts';
import type { Bearer } from './kinds.ts';

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

/** A money rule refused what was asked. */
export class LedgerError extends DomainError {}

/**
 * The vendor's open credit is zero or a debt: there is nothing to hand out. Most often a payout race:
 * the message names the other tab's payout, so the loser can see the voucher and not pay twice.
 */
export class NothingToPayOut extends LedgerError {
  constructor(
    readonly vendorId: number,
    /** The vendor's last payout that stands, when there is one: usually what emptied the credit. */
    readonly lastPayout?: LastPayout,
  ) {
    super(
      'conflict',
      lastPayout
        ? tr('No credits to pay out: {staff} paid out {amount} on {time} (receipt {number}).', {
            staff: lastPayout.authorisedBy,
            amount: money(lastPayout.amount),
            time: lastPayout.localTime,
            number: lastPayout.voucher,
          })
        : 'No credits to pay out',
      { vendor: 'This vendor has no credit to pay out.' },
      lastPayout ? { lastPayout } : undefined,
    );
  }
}

/** The staff member saw a different figure than the one that is open now (a sale arrived meanwhile). */
export class StaleAmount extends LedgerError {
  constructor(readonly currentAmount: number) {
    super(
      'conflict',
      tr('The credit has changed in the meantime: it is now {amount}. Please check the amount and pay out again.', {
        amount: money(currentAmount),
      }),
      { expectedAmount: tr('The credit is now {amount}.', { amount: money(currentAmount) }) },
      // The figure that is open now, so the payout page can show it for a new confirmation.
      { currentAmount },
    );
  }
}

export class PayoutNotFound extends LedgerError {
  constructor(readonly payoutId: number) {
    super('unknown', tr('There is no payout with the id {id}.', { id: payoutId }));
  }
}

export class PayoutAlreadyReversed extends LedgerError {
  constructor(readonly payoutId: number) {
    super('conflict', 'This payout has already been reversed.');
  }
}

/** A vendor whose credit is not zero cannot be deleted: the money would vanish with them. */
export class CreditNotZero extends LedgerError {
  constructor(readonly credit: number) {
    super(
      'conflict',
      tr(
        'This vendor cannot be deleted: the credit is not zero ({credit}). Please pay it out or settle the debt first.',
        { credit: money(credit) },
      ),
    );
  }
}

/** No money is booked for a deleted vendor: a payment that arrives for one is left to staff. */
export class VendorDeleted extends LedgerError {
  constructor(readonly vendorId: number) {
    super('conflict', 'This vendor has been deleted; no money can be booked for them.');
  }
}

/**
 * A money rule refused what was asked, with a sentence of its own: `refusal` says what kind (bad
 * input, something unknown, a conflict with the books as they are now), `details` the figures for
 * the screen, e.g. the credit or the till balance as it is now.
 */
export class LedgerRefusal extends LedgerError {
  constructor(
    refusal: Extract<RefusalKind, 'invalid' | 'unknown' | 'conflict'>,
    text: Text,
    errors?: FieldErrors,
    details?: Record<string, number>,
  ) {
    super(refusal, text, errors, details);
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
