import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { clientConfig, hotRows } from '../db/connection.ts';
import { stripeCurrency } from '../money/currency.ts';
import { oneRow } from '../foundations/one-row.ts';
import { installationCurrency } from '../settings/currency.ts';
import type { EventType } from './types.ts';

// Events are written in the caller's transaction, beside the bookings they report: one event row
// and one delivery per active endpoint subscribed to its type. A booking that rolls back leaves no
// event; one that commits is delivered by the sender (delivery.ts), however often the process
// restarts. Payloads carry ids, amounts in the currency's minor unit and licence ids, never a
// customer's address.

/**
 * Woken after an event is committed, so the sender need not wait for its next round: the sender of
 * the database the event was written to (a process serving many papers runs one sender per paper).
 * Keyed by the knex's configuration, which its transactions share.
 */
const wakes = new WeakMap<object, () => void>();

/** The sender of `db` in this process listens here (one per database). */
export function onEventCommitted(db: Knex, listener: (() => void) | undefined): void {
  if (listener) wakes.set(clientConfig(db), listener);
  else wakes.delete(clientConfig(db));
}

/** The outermost transaction: only its commit makes the event visible to the sender. */
function outermost(trx: Knex.Transaction): Knex.Transaction {
  let top = trx as Knex.Transaction & { parentTransaction?: Knex.Transaction };
  while (top.parentTransaction) top = top.parentTransaction as typeof top;
  return top;
}

/** Wakes this process's sender once `db`'s transaction (or the one it is part of) has committed; at once outside one. */
export function wakeSenderAfterCommit(db: Knex): void {
  const wake = () => wakes.get(clientConfig(db))?.();
  if (!db.isTransaction) return wake();
  outermost(db as Knex.Transaction).executionPromise?.then(
    () => wake(),
    () => undefined,
  );
}

/**
 * An event and its deliveries as the CTEs `event` and `deliveries` of a statement: one event row, and
 * one delivery per active endpoint subscribed to its type. Its data is `dataSql`, a trusted SQL
 * expression (with its `bindings`) that makes a JSON object.
 */
function eventCtes(type: EventType, dataSql: string, bindings: Knex.Value[]) {
  const id = randomUUID();
  return {
    id,
    sql: `event as (insert into webhook_events (id, type, data) select ?::uuid, ?, (${dataSql})::jsonb returning id),
     deliveries as (
       insert into webhook_deliveries (event_id, endpoint_id)
       select event.id, e.id from event cross join webhook_endpoints e where e.active and ? = any(e.event_types)
       returning 1)`,
    bindings: [id, type, ...bindings, type],
  };
}

/**
 * After the statement that stored an event (its `deliveries` counted): the sender is woken once the
 * transaction commits. No endpoint takes it: nothing to send, and the sender's look would find none.
 */
export function eventStored(trx: Knex.Transaction, deliveries: number): void {
  if (deliveries) wakeSenderAfterCommit(trx);
}

/** Stores an event and its deliveries in `trx`, in one statement; answers the event's id. */
async function storeEvent(trx: Knex.Transaction, type: EventType, dataSql: string, bindings: Knex.Value[]) {
  const ctes = eventCtes(type, dataSql, bindings);
  const stored = oneRow(
    await hotRows<{ deliveries: number }>(
      trx,
      `with ${ctes.sql} select count(*)::int as deliveries from deliveries`,
      ctes.bindings,
    ),
  );
  eventStored(trx, stored.deliveries);
  return ctes.id;
}

/** Stores an event and its deliveries in `trx`; answers the event's id. */
export function emitEvent(trx: Knex.Transaction, type: EventType, data: Record<string, unknown>): Promise<string> {
  return storeEvent(trx, type, '?', [JSON.stringify(data)]);
}

/**
 * The currency of a payload's amounts as an order's payload writes it (Stripe's lower case, "chf"):
 * the installation's, in which the counter's cash and the books are kept.
 */
const payloadCurrency = async (trx: Knex.Transaction) => stripeCurrency(await installationCurrency(trx));

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A time as JavaScript's toISOString writes it (UTC, milliseconds, Z), in SQL. */
const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The order.paid event, as the CTEs `event` and `deliveries` of the statement that marks the order paid
 * (`paid`: the name of its CTE that answers the paid order's row), so the event carries the time the
 * order was paid. What was bought from which vendor, without the customer. The statement answers
 * the count of `deliveries` for eventStored.
 */
export function orderPaidEvent(paid: string) {
  return eventCtes(
    'order.paid',
    `select json_build_object('orderId', o.id, 'vendor', v.license_id, 'amount', o.amount_total, 'tip', o.tip,
       'currency', o.currency,
       'items', coalesce((select json_agg(json_build_object('itemId', e.item_id, 'name', i.name,
           'quantity', e.quantity, 'unitPrice', e.unit_price, 'amount', e.amount) order by e.id)
         from order_entries e join items i on i.id = e.item_id
         where e.order_id = o.id and e.kind = 'sale'), '[]'),
       'paidAt', ${isoSql('o.paid_at')})
     from ${paid} o join vendors v on v.id = o.vendor_id`,
    [],
  );
}

/** A paid order has been refunded in full and its bookings reversed. */
export async function emitOrderRefunded(
  trx: Knex.Transaction,
  refund: { orderId: number; refundId: string; amount: number; currency: string },
): Promise<void> {
  const order = oneRow(
    await trx('orders as o')
      .join('vendors as v', 'v.id', 'o.vendor_id')
      .where('o.id', refund.orderId)
      .select<{ license_id: string }[]>('v.license_id'),
  );
  await emitEvent(trx, 'order.refunded', {
    orderId: refund.orderId,
    vendor: order.license_id,
    amount: refund.amount,
    currency: refund.currency,
    refundId: refund.refundId,
  });
}

interface PayoutFacts {
  id: number;
  receipt_number: string;
  license_id: string;
  amount: number | string;
  till_id: number;
  created_at: Date;
  reversed_at: Date | null;
  reversal_reason: string | null;
}

async function payoutFacts(trx: Knex.Transaction, payoutId: number): Promise<PayoutFacts> {
  return oneRow(
    await trx('payouts as p')
      .join('vendors as v', 'v.id', 'p.vendor_id')
      .where('p.id', payoutId)
      .select<PayoutFacts[]>(
        'p.id',
        'p.receipt_number',
        'v.license_id',
        'p.amount',
        'p.till_id',
        'p.created_at',
        'p.reversed_at',
        'p.reversal_reason',
      ),
  );
}

/** A vendor's credit has been paid out in cash. */
export async function emitPayout(trx: Knex.Transaction, payoutId: number): Promise<void> {
  const payout = await payoutFacts(trx, payoutId);
  await emitEvent(trx, 'payout.created', {
    payoutId: payout.id,
    receiptNumber: payout.receipt_number,
    vendor: payout.license_id,
    amount: Number(payout.amount),
    currency: await payloadCurrency(trx),
    tillId: payout.till_id,
    paidAt: iso(payout.created_at),
  });
}

/** A payout has been reversed: its amount is the vendor's credit again. */
export async function emitPayoutReversed(trx: Knex.Transaction, payoutId: number): Promise<void> {
  const payout = await payoutFacts(trx, payoutId);
  await emitEvent(trx, 'payout.reversed', {
    payoutId: payout.id,
    receiptNumber: payout.receipt_number,
    vendor: payout.license_id,
    amount: Number(payout.amount),
    currency: await payloadCurrency(trx),
    reason: payout.reversal_reason,
    reversedAt: iso(payout.reversed_at),
  });
}

/** A vendor has bought copies at the counter (the payout of the rest, if any, is its own event). */
export async function emitCounterSale(trx: Knex.Transaction, visitId: string): Promise<void> {
  const visit = oneRow(
    await trx('counter_visits as c').join('vendors as v', 'v.id', 'c.vendor_id').where('c.id', visitId).select<
      {
        license_id: string;
        till_id: number;
        copies_amount: number | string;
        from_credit: number | string;
        cash_paid: number | string;
        created_at: Date;
      }[]
    >('v.license_id', 'c.till_id', 'c.copies_amount', 'c.from_credit', 'c.cash_paid', 'c.created_at'),
  );
  const items = await trx('ledger_rows as r')
    .join('items as i', 'i.id', 'r.item_id')
    .where({ 'r.counter_visit_id': visitId, 'r.kind': 'counter_sale' })
    .orderBy('r.id')
    .select<{ itemId: number; name: string; quantity: number; unitPrice: number; amount: number | string }[]>(
      'r.item_id as itemId',
      'i.name',
      'r.quantity',
      'r.unit_price as unitPrice',
      'r.amount',
    );
  await emitEvent(trx, 'counter.sale', {
    visitId,
    vendor: visit.license_id,
    tillId: visit.till_id,
    amount: Number(visit.copies_amount),
    fromCredit: Number(visit.from_credit),
    cash: Number(visit.cash_paid),
    currency: await payloadCurrency(trx),
    items: items.map((item) => ({ ...item, amount: Number(item.amount) })),
    soldAt: iso(visit.created_at),
  });
}

/** A till's day has been closed: the count against the cash book. */
export async function emitDayClosed(trx: Knex.Transaction, closeId: number): Promise<void> {
  const close = oneRow(
    await trx('till_closes as c').join('tills as t', 't.id', 'c.till_id').where('c.id', closeId).select<
      {
        till_id: number;
        name: string;
        day: string;
        opening_balance: number | string;
        expected: number | string;
        counted: number | string;
        difference: number | string;
        created_at: Date;
      }[]
    >('c.till_id', 't.name', trx.raw(`to_char(c.day, 'YYYY-MM-DD') as day`), 'c.opening_balance', 'c.expected', 'c.counted', 'c.difference', 'c.created_at'),
  );
  await emitEvent(trx, 'counter.day_closed', {
    closeId,
    tillId: close.till_id,
    till: close.name,
    day: close.day,
    openingBalance: Number(close.opening_balance),
    expected: Number(close.expected),
    counted: Number(close.counted),
    difference: Number(close.difference),
    currency: await payloadCurrency(trx),
    closedAt: iso(close.created_at),
  });
}
