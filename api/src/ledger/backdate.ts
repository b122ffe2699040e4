import type { Knex } from 'knex';

// The demo history and the tests book sales "in the past" through the real booking functions, which
// stamp now(), and then date what they booked. The ledger guard (migration 009) allows that only for
// rows booked by the same transaction, after allowBackdating: a committed row keeps its time.

/** Lets this transaction date the rows it books itself into the past. */
export async function allowBackdating(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`set local app.ledger_backdating = 'on'`);
}

/** Dates every row this transaction booked for the order to `at`. */
export async function backdateOrder(trx: Knex.Transaction, orderId: number, at: Date): Promise<void> {
  await trx('ledger_rows').where({ order_id: orderId }).update({ created_at: at });
}

/** Dates a payout this transaction booked, its receipt number's year, its cash row and cash-book movement to `at`. */
export async function backdatePayout(
  trx: Knex.Transaction,
  payoutId: number,
  at: Date,
  timeZone: string,
): Promise<void> {
  const receiptNumber = `to_char(?::timestamptz at time zone ?, 'YYYY') || '-' || lpad(?::text, 6, '0')`;
  await trx('payouts')
    .where({ id: payoutId })
    .update({ created_at: at, receipt_number: trx.raw(receiptNumber, [at, timeZone, payoutId]) });
  await trx('ledger_rows').where({ payout_id: payoutId, kind: 'payout' }).update({ created_at: at });
  // The cash left the till that day: its cash-book movement is dated with it.
  await trx('cash_movements')
    .whereIn('ledger_row_id', trx('ledger_rows').where({ payout_id: payoutId, kind: 'payout' }).select('id'))
    .update({ created_at: at, day: trx.raw(`(?::timestamptz at time zone ?)::date`, [at, timeZone]) });
}
