import type { Knex } from 'knex';

// What a booking causes that the world outside the books may hear of. The ledger names the events
// and stays free of integrations; the caller hands in `publish`, which runs inside the booking's
// transaction, so an outgoing event (the webhooks' outbox row) commits or rolls back with the
// booking it reports.

/** The events the ledger's bookings cause. */
export type LedgerEvent =
  | { type: 'counter.sale'; visitId: string }
  | { type: 'payout.created'; payoutId: number }
  | { type: 'payout.reversed'; payoutId: number }
  | { type: 'counter.day_closed'; closeId: number };

/** Told of each event inside the transaction that booked it; a failure rolls the booking back. */
export type PublishLedgerEvent = (trx: Knex.Transaction, event: LedgerEvent) => Promise<void>;
