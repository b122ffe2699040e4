import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { hotRows } from '../db/connection.ts';
import { conflictError, invalidError, serviceError } from '../foundations/errors.ts';
import { orderEntryRows } from '../ledger/book.ts';
import { log } from '../foundations/log.ts';
import { createCheckoutSession, idempotencyKey, type Stripe } from '../stripe/adapter.ts';
import { isEmbedOrigin } from '../shop/origins.ts';
import { checkVendorInShop } from '../shop/vendor-check.ts';
import { type PricedItemRow } from '../items/queries.ts';
import { itemName } from '../language/item-names.ts';
import { defaultQuantityLimit } from './limits.ts';
import { countRequest, refuseBeyond } from './rate-limit.ts';
import { emailAddress, type OrderInput } from './schema.ts';
import { money, tr, type Text } from '../language/messages.ts';
import { minimumCharge } from '../money/currency.ts';
import { oneRow } from '../foundations/one-row.ts';

// A new order: every rule of the shop checked with a message the customer understands, every price
// from our own data, the order committed before Stripe hears of it, then the Checkout Session.

/** How long the customer has on the card page. */
const checkoutMinutes = 30;
/**
 * Stripe wants `expires_at` at least 30 minutes after it creates the session; a minute on top keeps
 * a slow network or a clock a little ahead of Stripe's from failing every order.
 */
const clockMarginSeconds = 60;

const paymentsUnavailable = () => serviceError('Card payments are not available right now. Please try again later.');

const refuse = (field: string, message: Text) => invalidError(message, { [field]: message });

/** One line of the cart, priced from the database. */
interface PricedLine {
  item: PricedItemRow;
  quantity: number;
  /** The licence item a digital edition pays to the newspaper. */
  licence: PricedItemRow | null;
}

/**
 * The cart's items as they are for sale now (`items`: every item not deleted, by id, from the shop's
 * copy as current as the request's vendor check); refuses what cannot be bought.
 */
export function priceCart(items: Map<number, PricedItemRow>, input: OrderInput): PricedLine[] {
  if (input.entries.length === 0) {
    throw input.tip > 0
      ? refuse('entries', 'Donation only is not allowed')
      : refuse('entries', 'Please choose at least one item.');
  }
  const seen = new Set<number>();
  input.entries.forEach(({ item }, i) => {
    if (seen.has(item))
      throw refuse(`entries.${i}.item`, 'Each item can be in the order only once; please change its quantity instead.');
    seen.add(item);
  });
  return input.entries.map(({ item: id, quantity }, i) => {
    const item = items.get(id);
    const licence = item?.license_item_id == null ? null : items.get(item.license_item_id);
    // An edition whose licence item is gone cannot be sold: the newspaper's share would be lost.
    if (!item || item.disabled || licence === undefined) {
      throw refuse(
        `entries.${i}.item`,
        item ? tr('"{name}" is not available.', { name: item.name }) : tr('The item {id} is not available.', { id }),
      );
    }
    if (item.is_license_item)
      throw refuse(`entries.${i}.item`, tr('"{name}" cannot be bought on its own.', { name: item.name }));
    const limit = item.max_order_amount ?? defaultQuantityLimit;
    if (quantity > limit)
      throw refuse(
        `entries.${i}.quantity`,
        tr('You can order at most {count} × "{name}".', { count: limit, name: item.name }),
      );
    return { item, quantity, licence };
  });
}

/**
 * A digital edition is sent by e-mail; an order without one may give an address for its receipt. Any
 * address given must be one Stripe and our mail accept.
 */
function checkEmail(lines: PricedLine[], email: string | null): void {
  const digital = lines.find((line) => line.licence);
  if (digital && !email)
    throw refuse('email', tr('Your item {name} needs an email address', { name: digital.item.name }));
  if (email && !emailAddress.safeParse(email).success) throw refuse('email', 'Please enter a valid email address.');
}

/** Stripe's placeholder, filled in with the session's id when it sends the customer back. */
const sessionIdPlaceholder = '{CHECKOUT_SESSION_ID}';

/**
 * Where Stripe sends the customer back: the shop's own success and failure pages, or, for the embedded
 * widget, the embedding page with `shop_status` and `shop_order` added (the widget reads them).
 */
function returnAddresses(config: Config, token: string, returnUrl: string | null) {
  if (!returnUrl) {
    return {
      success_url: `${config.publicUrl}/success?order=${token}&session_id=${sessionIdPlaceholder}`,
      cancel_url: `${config.publicUrl}/failure?order=${token}`,
    };
  }
  const back = (status: 'success' | 'failure', extra = '') => {
    const url = new URL(returnUrl);
    // A page the customer came back to earlier still carries the last order's answer.
    for (const name of ['shop_status', 'shop_order', 'session_id']) url.searchParams.delete(name);
    url.searchParams.set('shop_status', status);
    url.searchParams.set('shop_order', token);
    const hash = url.hash;
    url.hash = '';
    // The placeholder's braces must stay literal, so it is appended rather than set as a parameter.
    return `${url.href}${extra}${hash}`;
  };
  return { success_url: back('success', `&session_id=${sessionIdPlaceholder}`), cancel_url: back('failure') };
}

/** Only a page of an origin that may embed the shop can be returned to: no open redirect via Stripe. */
async function checkReturnUrl(db: Knex, config: Config, returnUrl: string | null): Promise<void> {
  if (!returnUrl) return;
  const { origin } = new URL(returnUrl);
  if (origin === new URL(config.publicUrl).origin || (await isEmbedOrigin(db, config, origin))) return;
  throw refuse(
    'returnUrl',
    tr('The shop cannot send you back to {origin}: this website is not allowed to embed the shop.', { origin }),
  );
}

function tipLabel(locale: 'de' | 'en', useTip: boolean): string {
  if (locale === 'en') return useTip ? 'Tip' : 'Donation';
  return useTip ? 'Trinkgeld' : 'Spende';
}

export interface PlacedOrder {
  token: string;
  checkoutUrl: string;
}

/** Checks, stores and commits a new order, then opens its Stripe Checkout Session. */
export async function placeOrder(
  db: Knex,
  config: Config,
  input: OrderInput,
  clientAddress: string,
): Promise<PlacedOrder> {
  // The vendor in the vendor check's one query; the settings and items from the copy it says is current.
  const { vendorId, shop } = await checkVendorInShop(db, input.vendor);
  const { settings } = shop;
  // A closed shop is the newspaper's decision, not a fault of the server: a conflict with its state.
  if (settings.webshop_is_closed)
    throw conflictError('The shop is closed for maintenance right now. Please try again later.');
  if (vendorId === undefined) throw refuse('vendor', 'This ID is invalid');
  const lines = priceCart(shop.priced, input);
  checkEmail(lines, input.email);
  const total = lines.reduce((sum, { item, quantity }) => sum + item.price * quantity, input.tip);
  if (total >= settings.max_order_amount) {
    throw refuse(
      'entries',
      tr('The total of {total} is too high: an order must stay below {maximum}.', {
        total: money(total),
        maximum: money(settings.max_order_amount),
      }),
    );
  }
  const minimumTotal = minimumCharge(settings.currency);
  if (total < minimumTotal)
    throw refuse('entries', tr('Card payments need a total of at least {minimum}.', { minimum: money(minimumTotal) }));
  await checkReturnUrl(db, config, input.returnUrl);
  const earlier = input.cartId && (await placedForCart(db, input.cartId));
  if (earlier) return earlier;

  const token = randomBytes(32).toString('base64url');
  const expiresAt = Math.floor(Date.now() / 1000) + checkoutMinutes * 60 + clockMarginSeconds;
  // Committed before Stripe is called, so no webhook can ever arrive for an order we do not have. The
  // order, its entries and the client's count of orders in one statement: all or none, without a
  // transaction's round trips; an order beyond the limit is counted and not stored.
  const entries = orderEntryRows(0, lines, input.tip).map(({ order_id: _unknownYet, ...entry }) => entry);
  const counted = countRequest('order', clientAddress);
  // The order takes the installation's currency as it is committed, under a key share lock of the settings
  // row: a change of currency (api/src/settings/currency.ts) waits for it and then sees the order.
  const placed = oneRow(
    await hotRows<{
      requests: number;
      retry_after: number;
      order_id: number | null;
      currency: string;
      stripe_account: string | null;
    }>(
      db,
      `with counted as (${counted.sql}),
       placed as (
         insert into orders (token, vendor_id, amount_total, tip, email, locale, expires_at, cart_id, currency)
         select ?, ?, ?, ?, ?, ?, ?, ?, books.currency
         from counted, (select lower(currency) as currency from settings where id = 1 for key share) books
         where counted.requests <= ?
         on conflict (cart_id) do nothing returning id, currency
       ),
       entries as (
         insert into order_entries (order_id, kind, item_id, quantity, unit_price, amount)
         select placed.id, e.kind, e.item_id, e.quantity, e.unit_price, e.amount
         from placed cross join json_to_recordset(?::json)
           as e(kind text, item_id integer, quantity integer, unit_price integer, amount integer)
       )
       select counted.requests, counted.retry_after, (select id from placed) as order_id,
         (select stripe_account from settings where id = 1) as stripe_account,
         (select currency from placed) as currency
       from counted`,
      [
        ...counted.bindings,
        token,
        vendorId,
        total,
        input.tip,
        input.email ?? null,
        input.locale,
        new Date(expiresAt * 1000),
        input.cartId ?? null,
        config.orderRateLimit,
        JSON.stringify(entries),
      ],
    ),
  );
  refuseBeyond('order', config.orderRateLimit, placed);
  const orderId = placed.order_id;
  // Another request for the same cart inserted first: its order and checkout are this one's too.
  if (orderId === null) return (await placedForCart(db, input.cartId!))!;

  let session: Stripe.Checkout.Session;
  try {
    session = await createCheckoutSession(
      db,
      config,
      {
        mode: 'payment',
        line_items: [
          ...lines.map(({ item, quantity }) => ({
            quantity,
            price_data: {
              currency: placed.currency,
              unit_amount: item.price,
              product_data: { name: itemName(item, input.locale) },
            },
          })),
          ...(input.tip > 0
            ? [
                {
                  quantity: 1,
                  price_data: {
                    currency: placed.currency,
                    unit_amount: input.tip,
                    product_data: { name: tipLabel(input.locale, Boolean(settings.use_tip_instead_of_donation)) },
                  },
                },
              ]
            : []),
        ],
        // Stripe gets the address of a digital edition's buyer only: a receipt's address serves its mail alone.
        customer_email: lines.some((line) => line.licence) ? (input.email ?? undefined) : undefined,
        expires_at: expiresAt,
        locale: input.locale,
        metadata: { order: String(orderId) },
        // The charge names the order too, for whoever reads it in Stripe's Dashboard.
        payment_intent_data: { metadata: { order: String(orderId) } },
        client_reference_id: String(orderId),
        ...confirmingAtOnce(config),
        ...returnAddresses(config, token, input.returnUrl),
      },
      idempotencyKey({ id: orderId, token }, 'checkout'),
      placed.stripe_account,
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL');
  } catch (error) {
    // Only the kind of failure is logged: Stripe's messages may quote parts of the key.
    const e = error as { type?: string; code?: string; statusCode?: number };
    log.warn('checkout session failed', {
      order: orderId,
      type: e.type ?? String(error),
      code: e.code,
      status: e.statusCode,
    });
    await db('orders').where({ id: orderId, status: 'pending' }).update({ status: 'failed', updated_at: db.fn.now() });
    throw paymentsUnavailable();
  }
  await hotRows(db, 'update orders set stripe_session_id = ?, checkout_url = ?, updated_at = now() where id = ?', [
    session.id,
    session.url,
    orderId,
  ]);
  return { token, checkoutUrl: session.url };
}

/**
 * Only payment methods that confirm at once: a customer on the street cannot wait days for a bank
 * debit, and the vendor hands over the paper now. The Dashboard's payment method configuration when
 * STRIPE_PAYMENT_METHOD_CONFIGURATION names one (it should hold only such methods); otherwise cards,
 * which include Apple Pay and Google Pay (wallets pay with a card: "Payments made using Apple Pay in
 * Checkout are handled the same as other card payments", https://stripe.com/docs/payments/checkout/wallets).
 *
 * The pinned API version (2026-10-28.endive) no longer takes `payment_method_types` on a Checkout
 * Session; `allowed_payment_method_types` replaces it, a filter on the methods Stripe finds eligible,
 * and it cannot be combined with `payment_method_configuration`
 * (https://docs.stripe.com/changelog/endive/2026-09-30/remove-payment-method-types-checkout-sessions,
 * https://docs.stripe.com/api/checkout/sessions/create?api-version=2026-10-28.endive#create_checkout_session-allowed_payment_method_types).
 */
function confirmingAtOnce(config: Config): Partial<Stripe.Checkout.SessionCreateParams> {
  if (config.stripe.paymentMethodConfiguration)
    return { payment_method_configuration: config.stripe.paymentMethodConfiguration };
  return { allowed_payment_method_types: ['card'] };
}

/** How long a repeated "Pay" waits for the first request of its cart to hear back from Stripe. */
const cartWaitMs = 30_000;
const cartPollMs = 100;

/**
 * The order already placed for this cart, once its checkout exists; undefined when there is none.
 * A cart whose payment has ended needs a new cart id: the shop makes one when it is refused.
 */
async function placedForCart(db: Knex, cartId: string): Promise<PlacedOrder | undefined> {
  const deadline = Date.now() + cartWaitMs;
  for (;;) {
    const order = await db('orders').where({ cart_id: cartId }).first<
      | {
          token: string;
          status: string;
          checkout_url: string | null;
          expires_at: Date;
          stripe_session_id: string | null;
        }
      | undefined
    >('token', 'status', 'checkout_url', 'expires_at', 'stripe_session_id');
    if (!order) return undefined;
    if (order.status === 'paid') {
      const message = 'This cart has already been paid.';
      throw conflictError(message, { cartId: message });
    }
    const open = order.status === 'pending' && order.expires_at.getTime() > Date.now();
    if (open && order.checkout_url) return { token: order.token, checkoutUrl: order.checkout_url };
    // Stripe refused the first request's checkout: this one would meet the same.
    if (order.status === 'failed' && !order.stripe_session_id) throw paymentsUnavailable();
    if (!open) {
      const message = 'This payment has ended. Please tap "Pay" again.';
      throw conflictError(message, { cartId: message });
    }
    if (Date.now() > deadline) throw paymentsUnavailable();
    await new Promise((resolve) => setTimeout(resolve, cartPollMs));
  }
}
