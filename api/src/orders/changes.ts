import type { Knex } from 'knex';
import type { OrderChange } from './queries.ts';

// The customer's success page waits for the payment's booking in one request (long polling) instead
// of asking every two seconds: the booking wakes the waiting request in this process at once, so the
// receipt shows "paid" the moment it is booked, and a purchase costs a few requests instead of one
// per poll. The booking hands the waiting request what changed, so it need not read the order again.
// A booking made by another process (several on one PostgreSQL) is found by re-reading the order
// every `recheckMs`; nothing else tells this process about it.

/** How often a waiting request re-reads its order, for bookings made by another process. */
export const recheckMs = 1000;
/** The longest wait a customer may ask for: well within a proxy's usual 30 to 60 s. */
export const longestWaitSeconds = 10;
/** Beyond this many waiting requests in the process, a request answers at once, as before long polling. */
const mostWaiting = 2000;
/**
 * Beyond this many for one order, too: a customer has a success page and perhaps a second tab, and a
 * stranger with one order's token cannot take every waiting place (more orders are rate-limited).
 */
export const waitingPerOrder = 4;

type Wake = (change?: OrderChange) => void;

const waiting = new WeakMap<Knex, Map<number, Set<Wake>>>();
/** Every waiting request's wake, for the shutdown. */
const wakers = new Set<Wake>();
let waitingCount = 0;
let released = false;

/** After a committed change of the order: its waiting requests answer now. */
export function orderChanged(db: Knex, orderId: number, change: OrderChange): void {
  for (const wake of waiting.get(db)?.get(orderId) ?? []) wake(change);
}

/** At shutdown: every waiting request answers now, and no new one waits. */
export function releaseWaiting(): void {
  released = true;
  for (const wake of [...wakers]) wake();
}

/**
 * Waits until the order changes in this process (the change) or `ms` pass (true: read it again).
 * False when the request must not wait (any more): the customer left (`signal`), the process is
 * stopping, the time is up, or too many requests wait already (in the process or for this order).
 */
function orderChange(db: Knex, orderId: number, ms: number, signal: AbortSignal): Promise<OrderChange | boolean> {
  if (released || signal.aborted || ms <= 0 || waitingCount >= mostWaiting) return Promise.resolve(false);
  let byOrder = waiting.get(db);
  if (!byOrder) waiting.set(db, (byOrder = new Map<number, Set<Wake>>()));
  const ofOrder = byOrder.get(orderId) ?? new Set<Wake>();
  if (ofOrder.size >= waitingPerOrder) return Promise.resolve(false);
  byOrder.set(orderId, ofOrder);
  waitingCount++;
  return new Promise<OrderChange | boolean>((resolve) => {
    const wake: Wake = (change) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
      ofOrder.delete(wake);
      wakers.delete(wake);
      if (!ofOrder.size) byOrder.delete(orderId);
      waitingCount--;
      resolve(!released && !signal.aborted && (change ?? true));
    };
    // The timer and the abort end the wait without a change (the abort's event is none).
    const stop = () => wake();
    const timer = setTimeout(stop, ms);
    signal.addEventListener('abort', stop);
    ofOrder.add(wake);
    wakers.add(wake);
  });
}

/**
 * `first`, or once it was pending, `read`'s answer as soon as the order is no longer pending or
 * `seconds` (at most `longestWaitSeconds`) have passed; read again with the change when the order
 * changed in this process, and without one every `recheckMs`, for a change made by another.
 */
export async function whenSettled<T extends { status: string; number: number }>(
  db: Knex,
  first: T,
  seconds: number,
  signal: AbortSignal,
  read: (change?: OrderChange) => Promise<T | undefined>,
): Promise<T> {
  const until = Date.now() + Math.min(seconds, longestWaitSeconds) * 1000;
  let answer = first;
  for (;;) {
    if (answer.status !== 'pending') return answer;
    const change = await orderChange(db, answer.number, Math.min(recheckMs, until - Date.now()), signal);
    if (!change) return answer;
    answer = (await read(change === true ? undefined : change)) ?? answer;
  }
}
