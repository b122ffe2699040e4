import type { Knex } from 'knex';
import { conflictError } from '../foundations/errors.ts';
import { tr } from '../language/messages.ts';
import { recordEvent } from '../protocol/record.ts';
import type { Stripe } from './adapter.ts';

// A paper's own Stripe account, connected to the platform's (Stripe Connect, Standard accounts:
// the paper keeps its own Dashboard and can leave with it). The platform creates the account and an
// onboarding link (https://docs.stripe.com/api/account_links); the paper's office fills in Stripe's
// form; once Stripe lets the account charge, the paper's settings name it and every sale is a direct
// charge on it (https://docs.stripe.com/connect/direct-charges). Every call here is the platform's own.

/** A new Standard account of the platform for a paper of `country`, not able to charge until onboarded. */
export const createConnectedAccount = (stripe: Stripe, country: string, email?: string) =>
  stripe.accounts.create({ type: 'standard', country, ...(email ? { email } : {}) });

/**
 * A single-use onboarding link for the account, valid a few minutes; Stripe sends the office back
 * to the back office when done (`return_url`), and to the same place for a fresh link when it expired.
 */
export const onboardingLink = (stripe: Stripe, account: string, publicUrl: string) =>
  stripe.accountLinks.create({
    account,
    type: 'account_onboarding',
    refresh_url: `${publicUrl}/backoffice`,
    return_url: `${publicUrl}/backoffice`,
  });

/**
 * The paper sells on `account` from now on (null: on the platform's own account again). Refused while
 * Stripe does not let the account charge, and when the account settles in another currency than
 * the paper's books: every sale would be refused. `actor`: the command that did it, for the protocol.
 */
export async function useConnectedAccount(
  db: Knex,
  stripe: Stripe,
  account: string | null,
  actor = 'npm run stripe-connect',
): Promise<void> {
  if (account !== null) {
    const found = await stripe.accounts.retrieve(account);
    if (!found.charges_enabled)
      throw conflictError(
        tr('Stripe does not let the account {account} take payments yet: its owner finishes the onboarding first.', {
          account,
        }),
      );
    const { currency } = await db('settings').where({ id: 1 }).first<{ currency: string }>('currency');
    if (found.default_currency?.toUpperCase() !== currency)
      throw conflictError(
        tr('The account {account} settles in {accountCurrency}, the paper’s books are in {currency}.', {
          account,
          accountCurrency: (found.default_currency ?? '').toUpperCase(),
          currency,
        }),
      );
  }
  await db.transaction(async (trx) => {
    const before = await trx('settings')
      .where({ id: 1 })
      .forUpdate()
      .first<{ stripe_account: string | null }>('stripe_account');
    await trx('settings').where({ id: 1 }).update({ stripe_account: account, updated_at: trx.fn.now() });
    // Where the paper's money goes is the office's business to see: in the protocol, from the console.
    await recordEvent(trx, {
      action: 'stripe.account_connected',
      actor,
      recordType: 'settings',
      recordId: 1,
      details: { from: before.stripe_account, to: account },
    });
  });
}
