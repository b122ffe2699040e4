import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { log } from '../foundations/log.ts';
import { matchesKeyMode, retrieveSession, StripeFailure, type Stripe } from '../stripe/adapter.ts';
import type { OrderRow } from './queries.ts';
import { claimWindow } from './rate-limit.ts';
import { applySession } from './settle.ts';

// The success page's verify call is public: whoever holds a receipt link may send it, as often as
// they like. Three limits keep it from turning into Stripe calls (Stripe limits an account's requests,
// and a shop that floods it is refused for its real customers too):
//
// - Stripe is asked about an order at most once per window of `lookupWindowSeconds`. The window is a
//   row in rate_limits claimed by an insert the primary key lets in once, so it holds across every
//   server process on the database. Within one process, concurrent requests for the same order share
//   one look-up in flight; a request in a window already claimed (here or by another process) answers
//   the order as the database has it now, and with `wait` it waits for the booking like any receipt.
// - Stripe is asked only about a pending order whose session can still be paid or can still tell
//   something new: one placed within the last day (a Checkout Session lives at most 24 hours).
//   Expired, failed and older pending orders are answered from the database; the reconciliation job
//   (reconcile.ts) asks Stripe about those that are due.
// - Each client address may send `verifyRateLimit` verify calls a minute, counted in each process
//   without a write by the route (routes.ts, with http/rate-limit.ts's token buckets): each of
//   PROCESS_COUNT processes allows its share. Beyond it the answer is 429 with Retry-After.

/** Stripe is asked about one order at most once per this many seconds, across all processes. */
export const lookupWindowSeconds = 5;

/**
 * Verify calls per client address and minute. The success page asks about once every 12 seconds
 * (each ask waits up to 10 s); many customers may share one address (a mobile carrier's, a venue's
 * Wi-Fi), so the limit is generous: it stops a flood, not a crowd.
 */
export const verifyRateLimit = 300;

/** The longest a Checkout Session lives: an older pending order is the reconciliation job's. */
const sessionLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * The order after the verify call's look-up, and whether Stripe said in it that the card was charged:
 * true with a pending order when Stripe has the money but its booking has not landed (it failed, and
 * the webhook or the reconciliation job books it), so the customer may show the vendor that much.
 */
export interface Verified {
  order: OrderRow;
  charged: boolean;
}

// One map of look-ups in flight per running app (each has its own configuration object): a
// process's own.
const inFlight = new WeakMap<Config, Map<string, Promise<Verified>>>();

/** Whether Stripe may still have news about the order that the reconciliation job would not bring soon. */
const worthAsking = (order: OrderRow, now: number) =>
  order.status === 'pending' && now - new Date(order.created_at).getTime() < sessionLifetimeMs;

/**
 * The order after asking Stripe about it on the customer's behalf, when it is worth asking and no one
 * asked within the window; else the order as given (the database's state a moment ago).
 */
/**
 * Whether `sessionId` (from the address Stripe sent the customer back to) may be this order's: one
 * of an order that has not stored its session yet may be, another order's never is.
 */
export const isSessionOf = (order: OrderRow, sessionId: unknown): sessionId is string =>
  typeof sessionId === 'string' &&
  sessionId !== '' &&
  (!order.stripe_session_id || order.stripe_session_id === sessionId);

export function verifyWithStripe(db: Db, config: Config, order: OrderRow, sessionId: string): Promise<Verified> {
  if (!worthAsking(order, Date.now())) return Promise.resolve({ order, charged: false });
  let running = inFlight.get(config);
  if (!running) inFlight.set(config, (running = new Map<string, Promise<Verified>>()));
  // By order and session: the handler checked the session id against the order's, so this is the
  // order alone, unless the order has no session stored yet (then a wrong id fails only its own asker).
  const key = `${order.id} ${sessionId}`;
  const shared = running.get(key);
  if (shared) return shared;
  const lookup = (async () => {
    if (!(await claimWindow(db, 'verify_lookup', String(order.id), lookupWindowSeconds)))
      return { order, charged: false };
    return settleForCustomer(db, config, order, sessionId);
  })().finally(() => running.delete(key));
  running.set(key, lookup);
  return lookup;
}

/**
 * Asks Stripe now on the customer's behalf and books what it says, as settle.ts does for the webhook.
 * When Stripe cannot be reached the receipt still answers (pending); the success page asks again, and
 * the job and the webhook settle it anyway. When Stripe says the card was charged but the booking
 * fails (the database busy or going away under load), the answer still says charged.
 */
async function settleForCustomer(db: Db, config: Config, order: OrderRow, sessionId: string): Promise<Verified> {
  let session: Stripe.Checkout.Session;
  try {
    session = await retrieveSession(db, config, order.stripe_session_id ?? sessionId);
  } catch (error) {
    if (!(error instanceof StripeFailure)) throw error;
    log.warn('verifying a payment failed', { order: order.id, type: error.type });
    return { order, charged: false };
  }
  // Stripe's word, for this order (the metadata Stripe keeps for us names it) and this shop's mode;
  // applySession refuses any other session.
  const charged =
    session.payment_status === 'paid' &&
    session.metadata?.order === String(order.id) &&
    matchesKeyMode(config, session);
  try {
    return { order: await applySession(db, config, order.id, session), charged };
  } catch (error) {
    if (!charged) throw error;
    log.error('booking a payment Stripe reported failed', {
      order: order.id,
      error: String((error as Error)?.message ?? error),
    });
    return { order, charged };
  }
}
