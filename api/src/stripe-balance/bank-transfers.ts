import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import { bookStripePayout } from '../ledger/bank-transfer.ts';
import { stripeCurrency } from '../money/currency.ts';
import { installationCurrency } from '../settings/currency.ts';
import { matchesKeyMode, recentPayouts, withRateLimitBackoff, type Stripe } from '../stripe/adapter.ts';

// Stripe's payouts to the newspaper's bank, booked from Stripe's state of the payout (an event only
// says "look again"): a payout paid once, one that failed or was cancelled after it was paid given
// back once (ledger/bank-transfer.ts). Payouts of another mode or currency than the shop's (the
// installation's, in which its books are kept) are not the shop's money.

/** Books what Stripe says of a payout; answers what it booked (null: nothing new). */
export async function applyPayout(db: Knex, config: Config, payout: Stripe.Payout): Promise<'paid' | 'failed' | null> {
  if (!matchesKeyMode(config, payout) || payout.currency !== stripeCurrency(await installationCurrency(db)))
    return null;
  const booked = await bookStripePayout(db, { id: payout.id, status: payout.status, amount: payout.amount });
  if (booked) log.info('Stripe payout booked', { payout: payout.id, status: payout.status, amount: payout.amount });
  return booked;
}

/** How far back a sweep asks Stripe for payouts: a payout is paid or failed within days of its creation. */
const windowMs = 10 * 24 * 60 * 60 * 1000;

/**
 * The safety net under the payout events: every payout Stripe created in the last days, applied as
 * its event would be (booked once, by its id). Answers how many were applied and how many failed.
 */
export async function sweepStripePayouts(
  db: Knex,
  config: Config,
  now = new Date(),
): Promise<{ applied: number; failed: number }> {
  // Stripe's 429 holds the sweep back a little instead of ending it.
  const payouts = await withRateLimitBackoff(() => recentPayouts(db, config, new Date(now.getTime() - windowMs)));
  let failed = 0;
  for (const payout of payouts) {
    try {
      await withRateLimitBackoff(() => applyPayout(db, config, payout));
    } catch (error) {
      failed++;
      log.warn('applying a payout from Stripe failed', { error: String((error as Error)?.message ?? error) });
    }
  }
  return { applied: payouts.length - failed, failed };
}
