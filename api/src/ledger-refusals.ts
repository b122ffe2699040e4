import { DomainError, type FieldErrors } from './errors.ts';
import {
  CreditNotZero,
  LedgerError,
  LedgerRefusal,
  NothingToPayOut,
  PayoutAlreadyReversed,
  PayoutNotFound,
  StaleAmount,
} from './ledger/errors.ts';
import { money, tr } from './language/messages.ts';

// The money rules' refusals (ledger/errors.ts) as domain errors, which http/ answers like every
// other: app.ts hands this to the error handler, so http/ needs to know nothing of the ledger. Once
// a ledger error is a DomainError itself, with its sentence and figures, it needs no translation here.

/** What a person reads for a refusal of the money rules; undefined for any other error. */
export function ledgerRefusal(error: unknown): DomainError | undefined {
  if (!(error instanceof LedgerError)) return undefined;
  if (error instanceof NothingToPayOut) {
    const errors: FieldErrors = { vendor: 'This vendor has no credit to pay out.' };
    const last = error.lastPayout;
    if (!last) return new DomainError('conflict', 'No credits to pay out', errors);
    // Most often a payout race: the other tab's payout, so the loser can see the voucher and not pay twice.
    const message = tr('No credits to pay out: {staff} paid out {amount} on {time} (receipt {number}).', {
      staff: last.authorisedBy,
      amount: money(last.amount),
      time: last.localTime,
      number: last.voucher,
    });
    return new DomainError('conflict', message, errors, { lastPayout: last });
  }
  if (error instanceof StaleAmount) {
    const amount = money(error.currentAmount);
    return new DomainError(
      'conflict',
      tr('The credit has changed in the meantime: it is now {amount}. Please check the amount and pay out again.', {
        amount,
      }),
      { expectedAmount: tr('The credit is now {amount}.', { amount }) },
      // The figure that is open now, so the payout page can show it for a new confirmation.
      { currentAmount: error.currentAmount },
    );
  }
  if (error instanceof PayoutNotFound) {
    return new DomainError('unknown', tr('There is no payout with the id {id}.', { id: error.payoutId }));
  }
  if (error instanceof PayoutAlreadyReversed) {
    return new DomainError('conflict', 'This payout has already been reversed.');
  }
  if (error instanceof LedgerRefusal) {
    // Refusals with their own sentence and kind (the counter, refunds, disputes) and the figures to show again.
    return new DomainError(error.refusal, error.text, error.errors, error.details);
  }
  if (error instanceof CreditNotZero) {
    const message = tr(
      'This vendor cannot be deleted: the credit is not zero ({credit}). Please pay it out or settle the debt first.',
      { credit: money(error.credit) },
    );
    return new DomainError('conflict', message);
  }
  return new DomainError('conflict', 'This vendor has been deleted; no money can be booked for them.');
}
