import type { Knex } from 'knex';
import type { LedgerEvent } from '../ledger/events.ts';
import { emitCounterSale, emitDayClosed, emitPayout, emitPayoutReversed } from './emit.ts';

/**
 * The ledger's events as outgoing webhook events, stored in the booking's transaction (the ledger
 * calls this inside it): the event row commits with the booking or not at all.
 */
export async function publishLedgerEvent(trx: Knex.Transaction, event: LedgerEvent): Promise<void> {
  switch (event.type) {
    case 'counter.sale':
      return emitCounterSale(trx, event.visitId);
    case 'payout.created':
      return emitPayout(trx, event.payoutId);
    case 'payout.reversed':
      return emitPayoutReversed(trx, event.payoutId);
    case 'counter.day_closed':
      return emitDayClosed(trx, event.closeId);
  }
}
