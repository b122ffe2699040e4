import type { Knex } from 'knex';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { isCountry, presets } from '../../country/presets.ts';
import { invalidParam, StripeApiError } from './errors.ts';
import { metadata, onlyKnown, requiredText, text, type Params } from './form.ts';
import { newId, unixNow } from './objects.ts';
import { getObject, insertObject, onAccount, saveObject, type StripeObject } from './store.ts';
import { deliverDue, queueEvents, stripeEvent, type StripeEvent } from './webhooks.ts';

// Stripe Connect as the sandbox speaks it: Standard accounts of this platform
// (https://docs.stripe.com/api/accounts/create), onboarded through Account Links
// (https://docs.stripe.com/api/account_links), and acted on with the Stripe-Account header
// (https://docs.stripe.com/connect/authentication). A new account cannot take charges until its
// owner went through onboarding, as on Stripe; its objects live apart from the platform's (store.ts).

/** A connected account, with the fields the sandbox keeps of Stripe's account object. */
export interface Account extends StripeObject {
  object: 'account';
  type: 'standard';
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  country: string;
  default_currency: string;
  requirements: { currently_due: string[]; past_due: string[]; disabled_reason: string | null };
}

/** An account link's single-use address, kept by the sandbox only (Stripe lists no account links). */
interface AccountLinkRecord extends StripeObject {
  object: 'sandbox_account_link';
  account: string;
  refresh_url: string;
  return_url: string;
  expires_at: number;
  used: boolean;
}

/** What Stripe asks of a new Standard account before it may charge (shown, never filled in here). */
const onboardingRequirements = ['business_profile.url', 'external_account', 'tos_acceptance.date'];

/** Stripe's account links expire a few minutes after they are made. */
const linkLifetimeSeconds = 300;

/** Accounts are the platform's objects, whichever account a request acts on. */
const platformAccount = (trx: Knex.Transaction | Db, id: string) =>
  onAccount(null, () => getObject<Account>(trx, 'account', id));

/** POST /v1/accounts: a new Standard account of the platform, not onboarded yet. */
export async function createAccount(trx: Knex.Transaction, params: Params, config: Config): Promise<Account> {
  onlyKnown(params, ['type', 'country', 'email', 'default_currency', 'metadata', 'expand']);
  const type = requiredText(params, 'type');
  if (type !== 'standard')
    throw invalidParam('type', 'The local Stripe sandbox connects only Standard accounts (type "standard").');
  const country = (text(params, 'country') ?? config.country).toUpperCase();
  if (!isCountry(country)) throw invalidParam('country', `Country '${country}' is unknown or not supported.`);
  const currency = presets[country].currency.toLowerCase();
  const requested = text(params, 'default_currency')?.toLowerCase();
  // The default currency must be one the account can settle in: the sandbox's accounts settle only in their country's.
  if (requested !== undefined && requested !== currency)
    throw invalidParam(
      'default_currency',
      `${requested} is not a supported currency for ${country} accounts; ${currency} is.`,
    );
  const account: Account = {
    id: newId('acct_', 16),
    object: 'account',
    type: 'standard',
    business_profile: { name: null, url: null },
    capabilities: {},
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    country,
    created: unixNow(),
    default_currency: currency,
    email: text(params, 'email', { max: 800 }) ?? null,
    metadata: metadata(params),
    requirements: {
      currently_due: onboardingRequirements,
      past_due: onboardingRequirements,
      disabled_reason: 'requirements.past_due',
    },
  };
  await onAccount(null, () => insertObject(trx, account));
  return account;
}

export const retrieveAccount = (trx: Knex.Transaction, id: string) => platformAccount(trx, id);

/**
 * POST /v1/account_links. A Standard account keeps Stripe's Dashboard, so Stripe makes only
 * `account_onboarding` links for it ("You can't create them [account_update] for accounts that have
 * access to a Stripe-hosted Dashboard"); the link is single-use and expires after five minutes.
 */
export async function createAccountLink(
  trx: Knex.Transaction,
  params: Params,
  config: Config,
  checkUrl: (name: string, url: string) => Promise<void>,
): Promise<StripeObject> {
  onlyKnown(params, ['account', 'type', 'refresh_url', 'return_url', 'collect', 'expand']);
  const accountId = requiredText(params, 'account');
  const type = requiredText(params, 'type');
  if (type !== 'account_onboarding')
    throw invalidParam(
      'type',
      type === 'account_update'
        ? 'You cannot create `account_update` type Account Links for accounts that have access to a Stripe-hosted Dashboard.'
        : `Invalid type: must be one of account_onboarding or account_update.`,
    );
  const refreshUrl = requiredText(params, 'refresh_url', { max: 5000 });
  const returnUrl = requiredText(params, 'return_url', { max: 5000 });
  await checkUrl('refresh_url', refreshUrl);
  await checkUrl('return_url', returnUrl);
  const account = await platformAccount(trx, accountId).catch((error: unknown) => {
    if (error instanceof StripeApiError && error.status === 404)
      throw invalidParam('account', `No such account: '${accountId}'`, 'resource_missing');
    throw error;
  });
  const created = unixNow();
  const record: AccountLinkRecord = {
    id: newId('alu_', 32),
    object: 'sandbox_account_link',
    account: account.id,
    refresh_url: refreshUrl,
    return_url: returnUrl,
    expires_at: created + linkLifetimeSeconds,
    used: false,
  };
  await onAccount(null, () => insertObject(trx, record));
  return {
    id: record.id,
    object: 'account_link',
    created,
    expires_at: record.expires_at,
    url: `${config.publicUrl}/stripe-sandbox/onboard/${record.id}`,
  };
}

/** Onboarding done: the account may charge and be paid out; Stripe tells the platform with `account.updated`. */
function onboard(account: Account): StripeEvent {
  const previous = {
    charges_enabled: account.charges_enabled,
    payouts_enabled: account.payouts_enabled,
    details_submitted: account.details_submitted,
    requirements: account.requirements,
  };
  account.charges_enabled = true;
  account.payouts_enabled = true;
  account.details_submitted = true;
  account.requirements = { currently_due: [], past_due: [], disabled_reason: null };
  return stripeEvent('account.updated', account, previous, account.id);
}

/**
 * The connected account a request names in its Stripe-Account header, or null without one. Stripe
 * refuses an account that is not this platform's (or does not exist) with 403 `account_invalid`
 * before it looks at anything else.
 */
export async function requestedAccount(db: Db, header: string, maskedKey: string): Promise<string | null> {
  if (header === '') return null;
  const known = await db('stripe_sandbox_objects')
    .where({ id: header, type: 'account' })
    .whereNull('account')
    .first<{ id: string } | undefined>('id');
  if (known) return known.id;
  throw new StripeApiError(
    403,
    'invalid_request_error',
    `The provided key '${maskedKey}' does not have access to account '${header}' (or that account does not exist). Application access may have been revoked.`,
    { code: 'account_invalid' },
  );
}

/** A Checkout Session on a connected account: refused until the account may charge, as Stripe refuses it. */
export async function chargingAccount(trx: Knex.Transaction, id: string): Promise<Account> {
  const account = await platformAccount(trx, id);
  if (!account.charges_enabled)
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Your account cannot currently make charges. To find out why charge creation is currently disabled, look at the \`requirements.disabled_reason\` property on this account (/v1/accounts/${id}).`,
    );
  return account;
}

/**
 * A visit of an account link's address: while the link is valid it completes onboarding and sends
 * the owner to `return_url`; visited again or too late, to `refresh_url` (where the platform makes a
 * new link), as Stripe does. Answers where the visitor goes, undefined for a link that never existed.
 */
export async function visitAccountLink(db: Db, config: Config, id: string): Promise<string | undefined> {
  const outcome = await onAccount(null, () =>
    db.transaction(async (trx) => {
      const link = await getObject<AccountLinkRecord>(trx, 'sandbox_account_link', id, { lock: true }).catch(
        () => undefined,
      );
      if (!link) return undefined;
      if (link.used || link.expires_at < unixNow()) return { to: link.refresh_url, events: [] };
      link.used = true;
      await saveObject(trx, link);
      const account = await getObject<Account>(trx, 'account', link.account, { lock: true });
      const events = account.details_submitted ? [] : [onboard(account)];
      await saveObject(trx, account);
      await queueEvents(trx, events);
      return { to: link.return_url, events };
    }),
  );
  if (outcome?.events.length) deliverDue(db, config);
  return outcome?.to;
}
