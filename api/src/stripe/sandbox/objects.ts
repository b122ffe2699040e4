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
  currency: string;
  balance_transaction: string | null;
  payment_intent: string;
}

const minExpiry = 30 * 60;
const maxExpiry = 24 * 60 * 60;
// The caller computes expires_at a moment before the check: a minute of slack keeps an exact 30 minutes valid.
const expirySlack = 60;

/**
 * Create parameters the sandbox takes; the presentational ones at the end change nothing here. None
 * that the pinned API version dropped: `payment_method_types` is gone since 2026-09-30.endive, and
 * Stripe answers it as an unknown parameter.
 */
const sessionParams = [
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
export function createSession(params: Params, payPageUrl: (id: string) => string): CheckoutSession {
  onlyKnown(params, sessionParams);
  const mode = requiredText(params, 'mode');
  if (mode !== 'payment') throw invalidParam('mode', 'The local Stripe sandbox supports only mode "payment".');
  const items = (list(params, 'line_items') ?? []).map(lineItem);
  const [first] = items;
  if (!first) throw missing('line_items');
  const currency = first.currency;
  if (items.some((item) => item.currency !== currency))
    throw invalidParam('line_items', 'All line items must use the same currency.');
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
    payment_method_configuration_details: configuration ? { id: configuration, parent: null } : null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    status: 'open',
    submit_type: text(params, 'submit_type') ?? null,
    success_url: successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: payPageUrl(id),
  };
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

export function balanceTransaction(charge: Charge): StripeObject {
  const fee = sandboxFee(charge.amount);
  const created = unixNow();
  return {
    id: newId('txn_'),
    object: 'balance_transaction',
    amount: charge.amount,
    available_on: created + 2 * 24 * 60 * 60,
    created,
    currency: charge.currency,
    description: null,
    exchange_rate: null,
    fee,
    fee_details: [
      {
        amount: fee,
        application: null,
        currency: charge.currency,
        description: 'Stripe processing fees',
        type: 'stripe_fee',
      },
    ],
    net: charge.amount - fee,
    reporting_category: 'charge',
    source: charge.id,
    status: 'pending',
    type: 'charge',
  };
}

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
    balance_transaction: null,
    billing_details: { email: session.customer_email, name: null, phone: null, address: null },
    captured: true,
    created,
    currency: session.currency,
    description: session.payment_intent_data.description,
    livemode: false,
    metadata: {},
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: true,
    payment_intent: intentId,
    payment_method_details: {
      type: 'card',
      card: {
        brand: 'visa',
        country: 'US',
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        funding: 'credit',
        last4,
      },
    },
    receipt_email: session.customer_email,
    refunded: false,
    status: 'succeeded',
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
  payment_intent: string;
  balance_transaction: string;
}

const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

/**
 * A refund of `charge` from the create call's parameters (`payment_intent` or `charge` already
 * resolved by the caller), with its balance transaction. Like Stripe, the fee is not given back.
 */
export function createRefund(params: Params, charge: Charge): { refund: Refund; txn: StripeObject } {
  const unrefunded = charge.amount - charge.amount_refunded;
  if (unrefunded <= 0) {
    throw new StripeApiError(400, 'invalid_request_error', `Charge ${charge.id} has already been refunded.`, {
      code: 'charge_already_refunded',
    });
  }
  const amount = integer(params, 'amount', { min: 1 }) ?? unrefunded;
  if (amount > unrefunded) {
    throw invalidParam(
      'amount',
      `Refund amount (€${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (€${(unrefunded / 100).toFixed(2)})`,
    );
  }
  const reason = text(params, 'reason') ?? null;
  if (reason !== null && !(refundReasons as readonly string[]).includes(reason)) {
    throw invalidParam('reason', `Invalid reason: must be one of ${refundReasons.join(', ')}`);
  }
  const created = unixNow();
  const id = newId('re_');
  const txn: StripeObject = {
    id: newId('txn_'),
    object: 'balance_transaction',
    amount: -amount,
    available_on: created,
    created,
    currency: charge.currency,
    description: 'REFUND FOR CHARGE',
    exchange_rate: null,
    fee: 0,
    fee_details: [],
    net: -amount,
    reporting_category: 'refund',
    source: id,
    status: 'available',
    type: 'refund',
  };
  const refund: Refund = {
    id,
    object: 'refund',
    amount,
    balance_transaction: txn.id,
    charge: charge.id,
    created,
    currency: charge.currency,
    metadata: metadata(params),
    payment_intent: charge.payment_intent,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  return { refund, txn };
}

/** Session fields Stripe shows only on request. */
export function present(object: StripeObject): StripeObject {
  if (object.object !== 'checkout.session') return object;
  const { line_items: _items, payment_intent_data: _intentData, ...shown } = object as CheckoutSession;
  return shown;
}

/** Which fields of which object hold another object's id and can be expanded, with its type. */
const expandable: Record<string, Record<string, string>> = {
  'checkout.session': { payment_intent: 'payment_intent' },
  payment_intent: { latest_charge: 'charge' },
  charge: { balance_transaction: 'balance_transaction', payment_intent: 'payment_intent' },
  balance_transaction: { source: 'charge' },
  refund: { charge: 'charge', payment_intent: 'payment_intent', balance_transaction: 'balance_transaction' },
};

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
    if (typeof id === 'string') out[field] = await expand(trx, await getObject(trx, type, id), rest);
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
