import type { Knex } from 'knex';

// Stripe pays the newspaper's balance out to its bank account (https://docs.stripe.com/payouts). In
// the books that is one movement between two of the newspaper's own accounts: the card money in
// transit at Stripe (`customers`, DATEV's Geldtransit) goes to the bank (`bank`). The DATEV export
// debits a row's sender and credits its receiver (accounting/datev.ts), and an asset that grows is
// debited, as the card money arriving is booked customers → vendor (Soll Geldtransit). So the row
// runs bank → customers: Soll Bank, Haben Geldtransit. A failed payout runs the other way.
//
// A payout is booked once Stripe reports it `paid`, named by its id (`stripe_ref` = `po_…`); the
// database allows it once. Stripe's payout object (https://docs.stripe.com/api/payouts/object): "Some
// payouts that fail might initially show as paid, then change to failed", and a payout becomes
// `failed` or `canceled` instead of paid. A payout booked as paid that Stripe then reports failed or
// canceled is given back once (`stripe_payout_failed`); one that was never booked books nothing.

/** A payout as Stripe reports it now. */
export interface StripePayoutState {
  id: string;
  status: string;
  amount: number;
}

/** The payout states after which the money did not reach the bank (or came back from it). */
const undone = new Set(['failed', 'canceled']);

/** The ids of the `customers` and `bank` system accounts, created on first use. */
async function transitAndBank(trx: Knex.Transaction): Promise<{ customers: number; bank: number }> {
  await trx.raw(
    `insert into ledger_accounts (kind, vendor_id) values ('customers', null), ('bank', null) on conflict do nothing`,
  );
  const rows = await trx('ledger_accounts')
    .whereNull('vendor_id')
    .whereIn('kind', ['customers', 'bank'])
    .select<{ id: number; kind: 'customers' | 'bank' }[]>('id', 'kind');
  const id = (kind: 'customers' | 'bank') => rows.find((row) => row.kind === kind)!.id;
  return { customers: id('customers'), bank: id('bank') };
}

/**
 * Brings the books in line with a Stripe payout: a payout paid is booked once (bank ← money in
 * transit), one that failed or was cancelled after it was booked is given back once. Pending and
 * in-transit payouts, and payouts of nothing, book nothing. Answers what it booked (null: nothing).
 */
export async function bookStripePayout(db: Knex, payout: StripePayoutState): Promise<'paid' | 'failed' | null> {
  if (payout.amount <= 0) return null;
  const paid = payout.status === 'paid';
  if (!paid && !undone.has(payout.status)) return null;
  return db.transaction(async (trx) => {
    const accounts = await transitAndBank(trx);
    if (paid) {
      const { rows } = await trx.raw<{ rows: unknown[] }>(
        `insert into ledger_rows (sender_id, receiver_id, amount, kind, stripe_ref, authorised_by)
         values (?, ?, ?, 'stripe_payout', ?, 'Stripe')
         on conflict (stripe_ref, kind) where kind in ('stripe_payout', 'stripe_payout_failed') do nothing
         returning id`,
        [accounts.bank, accounts.customers, payout.amount, payout.id],
      );
      return rows.length ? 'paid' : null;
    }
    const { rows } = await trx.raw<{ rows: unknown[] }>(
      `insert into ledger_rows (sender_id, receiver_id, amount, kind, stripe_ref, authorised_by)
       select ?, ?, r.amount, 'stripe_payout_failed', r.stripe_ref, 'Stripe'
       from ledger_rows r where r.kind = 'stripe_payout' and r.stripe_ref = ?
       on conflict (stripe_ref, kind) where kind in ('stripe_payout', 'stripe_payout_failed') do nothing
       returning id`,
      [accounts.customers, accounts.bank, payout.id],
    );
    return rows.length ? 'failed' : null;
  });
}
