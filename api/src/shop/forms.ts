import type { Knex } from 'knex';
import type { ParameterizedContext } from 'koa';
import type { Config } from '../foundations/config.ts';
import { DomainError } from '../foundations/errors.ts';
import { clientBucket } from '../http/client-address.ts';
import { domainRefusal, HttpError, refusalText } from '../http/errors.ts';
import type { AppDeps, AppState } from '../http/routes.ts';
import { parse } from '../http/validate.ts';
import { tr, type Language } from '../language/messages.ts';
import { placeOrder } from '../orders/place.ts';
import { findOrderByToken, orderReceipt } from '../orders/queries.ts';
import { orderInput } from '../orders/schema.ts';
import { isSessionOf, verifyWithStripe } from '../orders/verify-throttle.ts';

// The shop without its script: the forms of a vendor's shop post here, the visit (cart, tip, terms,
// address) lives in a cookie of that vendor's path, and "Pay" places the order as the API does and
// sends the browser on to the card page. The rules are the widget's own (shop-widget/src/form.ts).

/** The shop's page's context: no route parameters. */
type AppContext = ParameterizedContext<AppState, AppDeps>;

/** The widget's visit as the server keeps it between forms (shop-widget/src/boot.ts `Visit`). */
export type Visit = Record<string, unknown>;

const cookieName = 'shop_visit';
/** A visit is a few numbers and an address; a form body of a few fields. Anything larger is no visit. */
const maxCookie = 2048;
const maxBody = 8 * 1024;

/** The cookie holds the visit at one vendor: its path is that vendor's shop. */
const cookiePath = (licenceId: string) => `/v/${encodeURIComponent(licenceId)}`;

/** The visit the browser keeps at this vendor, as the widget will check it; undefined if none. */
export function keptVisit(ctx: AppContext): unknown {
  const raw = ctx.cookies.get(cookieName);
  if (!raw || raw.length > maxCookie) return undefined;
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the visit for the vendor's shop: for the session only, never read by a script, sent along
 * only from the shop's own pages. The refusal of a form is shown once, not kept.
 */
export function keepVisit(ctx: AppContext, licenceId: string, visit: Visit | undefined): void {
  const { refusal: _shownOnce, ...kept } = visit ?? {};
  ctx.cookies.set(cookieName, visit ? Buffer.from(JSON.stringify(kept)).toString('base64url') : null, {
    path: cookiePath(licenceId),
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl.startsWith('https:'),
    overwrite: true,
  });
}

/** Whether an Origin or Referer names this shop: the address it was asked at, or PUBLIC_URL's. */
function isShopAddress(ctx: AppContext, address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false; // "null": a sandboxed frame, a redirect from elsewhere, a file
  }
  return url.host === ctx.get('Host') || url.origin === new URL(ctx.config.publicUrl).origin;
}

/**
 * Whether the browser says the form was sent from the shop's own page. Any website can make a
 * visitor's browser post a form here; thirty auto-submitted Pay forms a minute would use up the order
 * limit of everyone behind that visitor's address. A browser that sends Sec-Fetch-Site (which no page
 * can set) says in it where the post comes from; it sends Origin too, but as "null" from the shop's
 * pages, whose Referrer-Policy is no-referrer (Fetch, "serializing a request origin"). A post without
 * Sec-Fetch-Site is an old browser's: its Origin, or else its Referer (if any), must be the shop.
 */
function sentFromShopPage(ctx: AppContext): boolean {
  const site = ctx.get('Sec-Fetch-Site');
  const origin = ctx.get('Origin');
  if (site) return site === 'same-origin' && (origin === 'null' || isShopAddress(ctx, origin));
  if (origin) return isShopAddress(ctx, origin);
  const referer = ctx.get('Referer');
  return !referer || isShopAddress(ctx, referer);
}

/** A form's fields, as browsers send forms (application/x-www-form-urlencoded), or a 4xx saying why not. */
export async function formFields(ctx: AppContext): Promise<URLSearchParams> {
  if (!sentFromShopPage(ctx))
    throw new HttpError(403, tr('This form was sent from another website. Please use the form on the shop’s page.'));
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new HttpError(415, tr('Please send the form from the shop’s page.'));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBody)
      throw new HttpError(413, tr('The request is too large; at most {kb} KB are accepted.', { kb: maxBody / 1024 }));
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

interface Checkout {
  lines: { item: { id: number }; quantity: number }[];
  tip: number;
  digital?: unknown;
}

/**
 * "Pay" without the script: the order as the widget would send it to POST /api/orders. Answers the
 * card page's address, or the refusal in the reader's language.
 */
export async function payWithoutScript(
  ctx: AppContext,
  order: { vendor: string; summary: Checkout; email: string; cartId: string; lang: Language },
): Promise<{ checkoutUrl: string } | { refusal: string; status: number }> {
  try {
    const input = parse(orderInput, {
      vendor: order.vendor,
      entries: order.summary.lines.map((line) => ({ item: line.item.id, quantity: line.quantity })),
      tip: order.summary.tip,
      // A digital edition's address, or the receipt's one the pay form gave (empty: none).
      email: order.email || null,
      locale: order.lang,
      cartId: order.cartId,
    });
    const placed = await placeOrder(ctx.db, ctx.config, input, clientBucket(ctx, ctx.config));
    return { checkoutUrl: placed.checkoutUrl };
  } catch (error) {
    if (error instanceof DomainError) {
      const refused = domainRefusal(error);
      return { refusal: await refusalText(ctx.db, refused.body.message, order.lang), status: refused.status };
    }
    if (error instanceof HttpError && error.status < 500)
      return { refusal: await refusalText(ctx.db, error.text, order.lang), status: error.status };
    throw error;
  }
}

const pagesAfterPayment = new Set(['/success', '/paymentconfirmation', '/failure']);

/**
 * The order a page after the card page names (`/success`, `/paymentconfirmation`, `/failure`), for
 * the page a browser without the script gets: on `/success`, Stripe is asked first (as the success
 * page's script asks), so a charged card shows as paid even before Stripe's event arrives. Undefined
 * for any other page, or a token of no order.
 */
export async function orderOfPage(
  db: Knex,
  config: Config,
  pathname: string,
  query: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  if (!pagesAfterPayment.has(pathname)) return undefined;
  const order = await findOrderByToken(db, query.order);
  if (!order) return undefined;
  const sessionId = query.session_id;
  if (pathname === '/success' && isSessionOf(order, sessionId)) await verifyWithStripe(db, config, order, sessionId);
  const receipt = await orderReceipt(db, order.token, { mailServer: Boolean(config.smtpUrl) });
  // As the API sends it: the widget reads dates as strings.
  return receipt ? (JSON.parse(JSON.stringify(receipt)) as Record<string, unknown>) : undefined;
}
