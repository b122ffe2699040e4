import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { invalidParam, StripeApiError } from './errors.ts';
import { hash, integer, list, metadata, missing, onlyKnown, requiredText, text, type Params } from './form.ts';
import { getObject, type StripeObject } from './store.ts';

// Stripe's objects as the sandbox builds them: the fields our adapter and the SDK's types rely on,
// with Stripe's names and meanings.

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-style id: prefix and random letters and digits (a session id is also the pay page's secret). */
export function newId(prefix: string, length = 24): string {
  let id = '';
  while (id.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 × 62: dropping higher bytes keeps every character equally likely.
      if (byte < 248 && id.length < length) id += alphabet[byte % 62];
    }
  }
  return prefix + id;
}

export const unixNow = () => Math.floor(Date.now() / 1000);

export interface LineItem {
  id: string;
  object: 'item';
  description: string;
  quantity: number;
  currency: string;
  amount_subtotal: number;
  amount_total: number;
  price: { id: string; object: 'price'; currency: string; unit_amount: number; product: string };
}

export interface CheckoutSession extends StripeObject {
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  expires_at: number;
  customer_email: string | null;
  locale: string | null;
  success_url: string | null;
  cancel_url: string | null;
  payment_intent: string | null;
  url: string | null;
  /** Kept with the session; Stripe shows it only when expanded. */
  line_items: { object: 'list'; data: LineItem[]; has_more: false; url: string };
  /** `payment_intent_data` of the create call, given to the payment intent on payment. */
  payment_intent_data: { metadata: Record<string, string>; description: string | null };
}

export interface Charge extends StripeObject {
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  disputed: boolean;
  currency: string;
  balance_transaction: string | null;
  payment_intent: string;
}

/** A balance transaction: one movement of money in the account's Stripe balance. */
export interface BalanceTransaction extends StripeObject {
  object: 'balance_transaction';
  amount: number;
  available_on: number;
  created: number;
  currency: string;
  fee: number;
  net: number;
  source: string;
  status: 'available' | 'pending';
  type: string;
}

const minExpiry = 30 * 60;
const maxExpiry = 24 * 60 * 60;
// The caller computes expires_at a moment before the check: a minute of slack keeps an exact 30 minutes valid.
const expirySlack = 60;

/**
 * The pinned API version's `ui_mode`s (stripe-node's Checkout.SessionCreateParams.UiMode): the hosted
 * page is `hosted_page`, the default. The sandbox shows only the hosted page.
 */
const uiModes = ['elements', 'embedded_page', 'form', 'hosted_page'] as const;

function uiMode(params: Params): 'hosted_page' {
  const mode = text(params, 'ui_mode') ?? 'hosted_page';
  if (!(uiModes as readonly string[]).includes(mode)) {
    const [last, ...others] = [...uiModes].reverse();
    throw invalidParam('ui_mode', `Invalid ui_mode: must be one of ${others.reverse().join(', ')}, or ${last}`);
  }
  if (mode !== 'hosted_page')
    throw invalidParam(
      'ui_mode',
      `The local Stripe sandbox shows only the hosted page (ui_mode hosted_page), not ${mode}.`,
    );
  return mode;
}

/**
 * Create parameters the sandbox takes; the presentational ones at the end change nothing here. None
 * that the pinned API version dropped: `payment_method_types` is gone since 2026-09-30.endive, and
 * Stripe answers it as an unknown parameter.
 */
const sessionParams = [
  'allowed_payment_method_types',
  'cancel_url',
  'client_reference_id',
  'customer_email',
  'expand',
  'expires_at',
  'line_items',
  'locale',
  'metadata',
  'mode',
  'payment_intent_data',
  'payment_method_configuration',
  'success_url',
  'submit_type',
  'billing_address_collection',
  'custom_text',
  'ui_mode',
] as const;

function lineItem(param: unknown, index: number): LineItem {
  const where = `line_items[${index}]`;
  if (typeof param !== 'object' || param === null || Array.isArray(param))
    throw invalidParam(where, `Invalid object: ${where} must be a hash.`);
  const item = param as Params;
  if (item.price !== undefined)
    throw invalidParam(`${where}[price]`, 'The local Stripe sandbox only takes price_data, not stored prices.');
  onlyKnown(item, ['price_data', 'quantity'], where);
  const priceWhere = `${where}[price_data]`;
  const priceData = hash(item, 'price_data', where);
  if (!priceData) throw missing('price_data', where);
  onlyKnown(priceData, ['currency', 'unit_amount', 'product_data'], priceWhere);
  const currency = requiredText(priceData, 'currency', { max: 3, parent: priceWhere }).toLowerCase();
  const unitAmount = integer(priceData, 'unit_amount', { min: 0, parent: priceWhere });
  if (unitAmount === undefined) throw missing('unit_amount', priceWhere);
  const productWhere = `${priceWhere}[product_data]`;
  const productData = hash(priceData, 'product_data', priceWhere);
  if (!productData) throw missing('product_data', priceWhere);
  onlyKnown(productData, ['name', 'description', 'images', 'metadata'], productWhere);
  const name = requiredText(productData, 'name', { max: 250, parent: productWhere });
  const quantity = integer(item, 'quantity', { min: 1, parent: where });
  if (quantity === undefined) throw missing('quantity', where);
  const amount = unitAmount * quantity;
  return {
    id: newId('li_'),
    object: 'item',
    description: name,
    quantity,
    currency,
    amount_subtotal: amount,
    amount_total: amount,
    price: { id: newId('price_'), object: 'price', currency, unit_amount: unitAmount, product: newId('prod_') },
  };
}

/** A new open Checkout Session from the create call's parameters. */
export function createSession(
  params: Params,
  payPageUrl: (id: string) => string,
  /** The currencies the account settles in (SANDBOX_CURRENCIES). */
  accountCurrencies: readonly string[],
): CheckoutSession {
  onlyKnown(params, sessionParams);
  const mode = requiredText(params, 'mode');
  if (mode !== 'payment') throw invalidParam('mode', 'The local Stripe sandbox supports only mode "payment".');
  const items = (list(params, 'line_items') ?? []).map(lineItem);
  const [first] = items;
  if (!first) throw missing('line_items');
  const currency = first.currency;
  if (items.some((item) => item.currency !== currency))
    throw invalidParam('line_items', 'All line items must use the same currency.');
  // Stripe refuses a currency the account cannot take with "Invalid currency: …" naming the ones it
  // can (https://docs.stripe.com/currencies#presentment-currencies: a charge's currency must be one the
  // account supports); this account takes only the currencies it settles in.
  if (!accountCurrencies.includes(currency))
    throw invalidParam(
      'line_items[0][price_data][currency]',
      `Invalid currency: ${currency}. Your account currently supports these currencies: ${accountCurrencies.join(', ')}.`,
    );
  const successUrl = absoluteUrl(params, 'success_url', true)!;
  const cancelUrl = absoluteUrl(params, 'cancel_url', false);

  const created = unixNow();
  const expiresAt = integer(params, 'expires_at') ?? created + maxExpiry;
  if (expiresAt < created + minExpiry - expirySlack || expiresAt > created + maxExpiry + expirySlack) {
    throw invalidParam(
      'expires_at',
      'The `expires_at` timestamp must be between 30 minutes and 24 hours after the Checkout Session is created.',
    );
  }
  const customerEmail = text(params, 'customer_email', { max: 800 }) ?? null;
  if (customerEmail !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(customerEmail))
    throw invalidParam('customer_email', `Invalid email address: ${customerEmail}`);
  const intentData = hash(params, 'payment_intent_data') ?? {};
  onlyKnown(intentData, ['metadata', 'description'], 'payment_intent_data');

  const ui = uiMode(params);
  const allowed = allowedMethods(params);
  const configuration = text(params, 'payment_method_configuration', { max: 100 });
  if (configuration !== undefined && !/^pmc_[A-Za-z0-9]+$/.test(configuration)) {
    throw invalidParam(
      'payment_method_configuration',
      `No such payment method configuration: '${configuration}'`,
      'resource_missing',
    );
  }
  const id = newId('cs_test_', 40);
  const amount = items.reduce((sum, item) => sum + item.amount_total, 0);
  return {
    id,
    object: 'checkout.session',
    amount_subtotal: amount,
    amount_total: amount,
    cancel_url: cancelUrl,
    client_reference_id: text(params, 'client_reference_id', { max: 200 }) ?? null,
    created,
    currency,
    customer_details: null,
    customer_email: customerEmail,
    expires_at: expiresAt,
    line_items: { object: 'list', data: items, has_more: false, url: `/v1/checkout/sessions/${id}/line_items` },
    livemode: false,
    locale: text(params, 'locale', { max: 10 }) ?? null,
    metadata: metadata(params),
    mode: 'payment',
    payment_intent: null,
    payment_intent_data: {
      metadata: metadata(intentData, 'payment_intent_data'),
      description: text(intentData, 'description', { max: 1000, parent: 'payment_intent_data' }) ?? null,
    },
    allowed_payment_method_types: allowed,
    payment_method_configuration_details: configuration ? { id: configuration, parent: null } : null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    status: 'open',
    submit_type: text(params, 'submit_type') ?? null,
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: ui,
    url: payPageUrl(id),
  };
}

/**
 * The pinned version's filter of the methods Checkout offers (it replaced `payment_method_types`:
 * https://docs.stripe.com/api/checkout/sessions/create?api-version=2026-10-28.endive#create_checkout_session-allowed_payment_method_types).
 * Stripe refuses it beside a payment method configuration, which decides the methods itself. The
 * sandbox's page takes cards only, so a list without `card` has nothing it could offer.
 */
function allowedMethods(params: Params): string[] | null {
  const given = list(params, 'allowed_payment_method_types');
  if (given === undefined) return null;
  const types = given.map((type, index) => {
    if (typeof type !== 'string' || !/^[a-z_]{2,40}$/.test(type))
      throw invalidParam(`allowed_payment_method_types[${index}]`, 'Invalid payment method type.');
    return type;
  });
  if (params.payment_method_configuration !== undefined)
    throw invalidParam(
      'allowed_payment_method_types',
      'You cannot pass `allowed_payment_method_types` together with `payment_method_configuration`.',
    );
  if (!types.includes('card'))
    throw invalidParam('allowed_payment_method_types', 'The local Stripe sandbox offers cards only: include `card`.');
  return types;
}

function absoluteUrl(params: Params, name: string, required: boolean): string | null {
  const value = required ? requiredText(params, name, { max: 5000 }) : text(params, name, { max: 5000 });
  if (value === undefined) return null;
  // {CHECKOUT_SESSION_ID} is Stripe's placeholder; it is not a valid URL character sequence as such.
  const probe = value.replaceAll('{CHECKOUT_SESSION_ID}', 'x');
  if (!URL.canParse(probe) || !/^https?:$/.test(new URL(probe).protocol))
    throw invalidParam(name, `Not a valid URL: ${name}`, 'url_invalid');
  return value;
}

/** Stripe's card fee in the sandbox: 1.5 % of the amount (rounded to the cent) plus 25 cents. */
const sandboxFee = (amount: number) => Math.round((amount * 15) / 1000) + 25;

const day = 24 * 60 * 60;

export interface Movement {
  amount: number;
  currency: string;
  /** Stripe's `type` and `reporting_category` (https://docs.stripe.com/reports/reporting-categories). */
  type: string;
  reportingCategory: string;
  /** The object that moved the money: a charge, refund, dispute or payout. */
  source: string;
  description: string | null;
  /** Stripe's fees on it, each a `stripe_fee` of fee_details (a negative one is a fee given back). */
  fees?: { amount: number; description: string }[];
  /** When the money becomes available; at once unless given. */
  availableOn?: number;
}

/** The balance transaction of one movement of money, as Stripe records each one. */
export function balanceTransaction(movement: Movement): BalanceTransaction {
  const created = unixNow();
  const fees = movement.fees ?? [];
  const fee = fees.reduce((sum, f) => sum + f.amount, 0);
  const availableOn = movement.availableOn ?? created;
  return {
    id: newId('txn_'),
    object: 'balance_transaction',
    amount: movement.amount,
    available_on: availableOn,
    balance_type: 'payments',
    created,
    currency: movement.currency,
    description: movement.description,
    exchange_rate: null,
    fee,
    fee_details: fees.map((f) => ({
      amount: f.amount,
      application: null,
      currency: movement.currency,
      description: f.description,
      type: 'stripe_fee',
    })),
    net: movement.amount - fee,
    reporting_category: movement.reportingCategory,
    source: movement.source,
    status: availableOn <= created ? 'available' : 'pending',
    type: movement.type,
  };
}

/** The charge's own balance transaction with the card fee; its money is available two days later. */
export const chargeTransaction = (charge: Charge) =>
  balanceTransaction({
    amount: charge.amount,
    currency: charge.currency,
    type: 'charge',
    reportingCategory: 'charge',
    source: charge.id,
    description: null,
    fees: [{ amount: sandboxFee(charge.amount), description: 'Stripe processing fees' }],
    availableOn: unixNow() + 2 * day,
  });

/** The payment intent and charge of a successful card payment on `session`. */
export function payment(session: CheckoutSession, last4: string): { intent: StripeObject; charge: Charge } {
  const created = unixNow();
  const intentId = newId('pi_');
  const charge: Charge = {
    id: newId('ch_'),
    object: 'charge',
    amount: session.amount_total,
    amount_captured: session.amount_total,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: session.customer_email, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: 'SANDBOX',
    captured: true,
    created,
    currency: session.currency,
    customer: null,
    description: session.payment_intent_data.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: {},
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: intentId,
    payment_method: newId('pm_'),
    payment_method_details: {
      type: 'card',
      card: {
        amount_authorized: session.amount_total,
        authorization_code: null,
        brand: 'visa',
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        electronic_commerce_indicator: null,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        funding: 'credit',
        installments: null,
        last4,
        mandate: null,
        network: 'visa',
        network_transaction_id: null,
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
    },
    receipt_email: session.customer_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
  const intent: StripeObject = {
    id: intentId,
    object: 'payment_intent',
    amount: session.amount_total,
    amount_capturable: 0,
    amount_received: session.amount_total,
    capture_method: 'automatic_async',
    created,
    currency: session.currency,
    description: session.payment_intent_data.description,
    latest_charge: charge.id,
    livemode: false,
    metadata: session.payment_intent_data.metadata,
    payment_method_types: ['card'],
    status: 'succeeded',
  };
  return { intent, charge };
}

export interface Refund extends StripeObject {
  object: 'refund';
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  balance_transaction: string;
  status: 'pending' | 'succeeded' | 'failed';
}

const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

/** An amount as Stripe words it in messages: €7.00. */
export const moneyText = (amount: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

/**
 * A refund of `charge` (its whole unrefunded amount, or `amount` of it) from the create call's
 * parameters, with its balance transaction: the refunded amount leaves the balance at once. As at
 * Stripe the card fee is not given back (https://docs.stripe.com/refunds), and a charge can be
 * refunded in several parts but never beyond its amount.
 */
export function createRefund(params: Params, charge: Charge): { refund: Refund; txn: BalanceTransaction } {
  const unrefunded = charge.amount - charge.amount_refunded;
  if (unrefunded <= 0) {
    throw new StripeApiError(400, 'invalid_request_error', `Charge ${charge.id} has already been refunded.`, {
      code: 'charge_already_refunded',
    });
  }
  const amount = integer(params, 'amount', { min: 1 }) ?? unrefunded;
  if (amount > unrefunded) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Refund amount (${moneyText(amount, charge.currency)}) is greater than unrefunded amount on charge (${moneyText(unrefunded, charge.currency)})`,
      { param: 'amount' },
    );
  }
  const reason = text(params, 'reason') ?? null;
  if (reason !== null && !(refundReasons as readonly string[]).includes(reason)) {
    throw invalidParam('reason', `Invalid reason: must be one of ${refundReasons.join(', ')}`);
  }
  const id = newId('re_');
  const txn = balanceTransaction({
    amount: -amount,
    currency: charge.currency,
    type: 'refund',
    reportingCategory: 'refund',
    source: id,
    description: 'REFUND FOR CHARGE',
  });
  const refund: Refund = {
    id,
    object: 'refund',
    amount,
    balance_transaction: txn.id,
    charge: charge.id,
    created: txn.created,
    currency: charge.currency,
    customer: null,
    customer_account: null,
    metadata: metadata(params),
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  return { refund, txn };
}

/**
 * The object as the API shows it now: a session without the fields Stripe shows only on request, a
 * balance transaction `available` once its day has come.
 */
export function present(object: StripeObject): StripeObject {
  if (object.object === 'balance_transaction') {
    const txn = object as BalanceTransaction;
    return { ...txn, status: txn.available_on <= unixNow() ? 'available' : 'pending' };
  }
  if (object.object !== 'checkout.session') return object;
  const { line_items: _items, payment_intent_data: _intentData, ...shown } = object as CheckoutSession;
  return shown;
}

/** Which fields of which object hold another object's id and can be expanded, with its type. */
const expandable: Record<string, Record<string, string>> = {
  'checkout.session': { payment_intent: 'payment_intent' },
  payment_intent: { latest_charge: 'charge' },
  charge: { balance_transaction: 'balance_transaction', payment_intent: 'payment_intent' },
  balance_transaction: { source: 'source' },
  refund: {
    charge: 'charge',
    payment_intent: 'payment_intent',
    balance_transaction: 'balance_transaction',
    failure_balance_transaction: 'balance_transaction',
  },
  dispute: { charge: 'charge', payment_intent: 'payment_intent' },
  'radar.early_fraud_warning': { charge: 'charge', payment_intent: 'payment_intent' },
  payout: { balance_transaction: 'balance_transaction', failure_balance_transaction: 'balance_transaction' },
};

/** The type of a balance transaction's source, by its id's prefix. */
const sourceTypes: Record<string, string> = { ch_: 'charge', re_: 'refund', dp_: 'dispute', po_: 'payout' };

/** The object as the API answers it, with the `expand[]` paths (`a.b.c`, up to four levels) inlined. */
export async function expand(trx: Knex.Transaction, object: StripeObject, paths: string[]): Promise<StripeObject> {
  const out: StripeObject = { ...present(object) };
  const byField = new Map<string, string[]>();
  for (const path of paths) {
    const [field = '', ...rest] = path.split('.');
    if (rest.length > 3) throw invalidParam('expand', `You cannot expand more than 4 levels of a property (${path}).`);
    byField.set(field, [...(byField.get(field) ?? []), ...(rest.length ? [rest.join('.')] : [])]);
  }
  for (const [field, rest] of byField) {
    if (object.object === 'checkout.session' && field === 'line_items' && rest.length === 0) {
      out.line_items = (object as CheckoutSession).line_items;
      continue;
    }
    const type = expandable[object.object]?.[field];
    if (!type) throw invalidParam('expand', `This property cannot be expanded (${field}).`);
    const id = out[field];
    if (typeof id !== 'string') continue;
    const target = type === 'source' ? sourceTypes[id.slice(0, 3)] : type;
    if (target) out[field] = await expand(trx, await getObject(trx, target, id), rest);
  }
  return out;
}

/** A session past its expiry is expired when next looked at (Stripe expires them in the background). */
export function isDue(session: CheckoutSession): boolean {
  return session.status === 'open' && session.expires_at <= unixNow();
}

export function markExpired(session: CheckoutSession): void {
  session.status = 'expired';
  session.url = null;
}

export const notOpen = (session: CheckoutSession) =>
  new StripeApiError(
    400,
    'invalid_request_error',
    `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has status "${session.status}".`,
    {
      code: 'checkout_session_not_open',
    },
  );
