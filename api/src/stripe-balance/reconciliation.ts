import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { invalidError, serviceError } from '../foundations/errors.ts';
import { tr } from '../language/messages.ts';
import { stripeCurrency } from '../money/currency.ts';
import { installationCurrency } from '../settings/currency.ts';
import type { Period } from '../foundations/period.ts';
import { balanceTransactionsBetween, retrieveCharge, StripeFailure, type Stripe } from '../stripe/adapter.ts';
import { figures, type Difference, type Figure, type ObjectType, type Reconciliation, type Totals } from './answer.ts';
import { slicesOf } from '../foundations/event-loop.ts';

// Stripe's balance beside the books, for a period. Stripe records every movement of the newspaper's
// money there as a balance transaction (https://docs.stripe.com/api/balance_transactions): a charge
// with its card fee, a refund and a refund that failed, a dispute's withdrawal and reinstatement with
// their fees, a payout to the bank. The books hold the same movements as ledger rows, each naming
// the Stripe object it books. Both sides are read for the same period (Stripe's `created`, the row's
// booking time), figure by figure, and every Stripe object whose figure differs from the books' is
// listed: Stripe's amount and the books' amount for it. The differences of a figure add up to the
// difference of its totals, so a difference in the totals is always explained by the list.
//
// Each figure is signed as it changes Stripe's balance (money in positive, money out negative), and
// their sum is how much more (or less) Stripe should hold at the end of the period than at its start.

const objectTypeOf: Record<Figure, ObjectType> = {
  charges: 'charge',
  cardFees: 'charge',
  refunds: 'refund',
  refundFailures: 'refund',
  disputes: 'dispute',
  disputeReinstatements: 'dispute',
  disputeFees: 'dispute',
  disputeFeesReturned: 'dispute',
  payouts: 'payout',
  payoutFailures: 'payout',
  other: 'balance_transaction',
};

/** A movement of one figure of one object: what a balance transaction or a ledger row says. */
interface Movement {
  figure: Figure;
  /** What both sides name the object by: the payment for a charge, the refund, the dispute's balance transaction, the payout. */
  key: string;
  amount: number;
  object: string;
  balanceTransaction: string | null;
  orderId: number | null;
  /** The payment (`pi_…`) it belongs to, where known: it names the order. */
  payment: string | null;
  at: Date;
}

const emptyTotals = (): Totals => Object.fromEntries([...figures, 'total'].map((figure) => [figure, 0])) as Totals;

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/** The ledger rows a period booked that move Stripe's money, one row each (no sums: the ledger sums credits). */
interface BookedRow {
  kind: string;
  amount: string | number;
  stripe_ref: string | null;
  order_id: number | null;
  intent: string | null;
  sender_kind: string;
  receiver_kind: string;
  created_at: Date;
}

const stripeKinds = [
  'sale',
  'tip',
  'fee',
  'refund',
  'refund_failed',
  'dispute',
  'dispute_won',
  'dispute_fee',
  'dispute_fee_returned',
  'stripe_payout',
  'stripe_payout_failed',
];

/** The figure a ledger row adds to, signed as it changes Stripe's balance; undefined for rows Stripe never sees. */
function bookedFigure(row: BookedRow): { figure: Figure; sign: 1 | -1 } | undefined {
  const fromTransit = row.sender_kind === 'customers';
  const toTransit = row.receiver_kind === 'customers';
  switch (row.kind) {
    case 'sale':
    case 'tip':
      return fromTransit ? { figure: 'charges', sign: 1 } : undefined;
    case 'fee':
      return { figure: 'cardFees', sign: -1 };
    // A refund takes back from the vendor what the customer paid (→ customers) and from the
    // newspaper its licence share (→ vendor): only the first leaves Stripe.
    case 'refund':
      return toTransit ? { figure: 'refunds', sign: -1 } : undefined;
    case 'refund_failed':
      return fromTransit ? { figure: 'refundFailures', sign: 1 } : undefined;
    case 'dispute':
      return toTransit ? { figure: 'disputes', sign: -1 } : undefined;
    // A dispute won returns Stripe's money (customers → newspaper) and the vendor's part (newspaper → vendor).
    case 'dispute_won':
      return fromTransit ? { figure: 'disputeReinstatements', sign: 1 } : undefined;
    case 'dispute_fee':
      return { figure: 'disputeFees', sign: -1 };
    case 'dispute_fee_returned':
      return { figure: 'disputeFeesReturned', sign: 1 };
    case 'stripe_payout':
      return { figure: 'payouts', sign: -1 };
    case 'stripe_payout_failed':
      return { figure: 'payoutFailures', sign: 1 };
    default:
      return undefined;
  }
}

async function bookedMovements(db: Knex, from: Date, to: Date): Promise<Movement[]> {
  const { rows } = await db.raw<{ rows: BookedRow[] }>(
    `select r.kind, r.amount, r.stripe_ref, r.order_id, o.stripe_payment_intent_id as intent,
       sa.kind as sender_kind, ra.kind as receiver_kind, r.created_at
     from ledger_rows r
     join ledger_accounts sa on sa.id = r.sender_id
     join ledger_accounts ra on ra.id = r.receiver_id
     left join orders o on o.id = r.order_id
     where r.created_at >= ? and r.created_at < ? and r.kind in (${stripeKinds.map(() => '?').join(', ')})
       -- an order paid without Stripe (the demo's seeded history) is not Stripe's money
       and (r.order_id is null or o.stripe_payment_intent_id is not null)
     order by r.id`,
    [from, to, ...stripeKinds],
  );
  const movements: Movement[] = [];
  for await (const slice of slicesOf(rows))
    for (const row of slice) {
      const booked = bookedFigure(row);
      if (!booked) continue;
      const byPayment = booked.figure === 'charges' || booked.figure === 'cardFees';
      const key = byPayment ? row.intent! : (row.stripe_ref ?? `order_${row.order_id}`);
      movements.push({
        figure: booked.figure,
        key,
        amount: booked.sign * Number(row.amount),
        object: key,
        balanceTransaction: row.stripe_ref?.startsWith('txn_') ? row.stripe_ref : null,
        orderId: row.order_id,
        payment: row.intent,
        at: new Date(row.created_at),
      });
    }
  return movements;
}

/** The payment a charge belongs to: from the expanded source, else asked of Stripe (once per charge). */
async function paymentOfCharge(
  db: Knex,
  config: Config,
  txn: Stripe.BalanceTransaction,
): Promise<{ charge: string; intent: string | undefined }> {
  const source = txn.source;
  if (source && typeof source !== 'string' && source.object === 'charge')
    return { charge: source.id, intent: idOf(source.payment_intent) };
  const charge = idOf(source)!;
  return { charge, intent: idOf((await retrieveCharge(db, config, charge)).payment_intent) };
}

/**
 * What a balance transaction moved, figure by figure (a charge its amount and its fee); one in
 * another currency than the books' (`currency`, as Stripe writes it) is none of the shop's figures.
 */
async function stripeMovements(
  db: Knex,
  config: Config,
  txn: Stripe.BalanceTransaction,
  currency: string,
): Promise<Movement[]> {
  const at = new Date(txn.created * 1000);
  const source = idOf(txn.source) ?? txn.id;
  // An expanded refund or dispute names its payment.
  const expanded = txn.source && typeof txn.source !== 'string' ? (txn.source as { payment_intent?: unknown }) : {};
  const payment = idOf(expanded.payment_intent as string | { id: string } | null | undefined) ?? null;
  const movement = (figure: Figure, key: string, amount: number, object = source): Movement => ({
    figure,
    key,
    amount,
    object,
    balanceTransaction: txn.id,
    orderId: null,
    payment,
    at,
  });
  if (txn.currency !== currency) return [movement('other', txn.id, txn.net, txn.id)];
  const feeElsewhere = (moved: Movement[]) =>
    txn.fee ? [...moved, movement('other', txn.id, -txn.fee, txn.id)] : moved;
  switch (txn.reporting_category) {
    case 'charge': {
      const { charge, intent } = await paymentOfCharge(db, config, txn);
      const key = intent ?? charge;
      return [
        { ...movement('charges', key, txn.amount, charge), payment: intent ?? null },
        { ...movement('cardFees', key, -txn.fee, charge), payment: intent ?? null },
      ];
    }
    case 'refund':
      return feeElsewhere([movement('refunds', source, txn.amount)]);
    case 'refund_failure':
      return feeElsewhere([movement('refundFailures', source, txn.amount)]);
    // The books name a dispute's money by its balance transaction, and book each by its sign
    // (ledger/dispute.ts): the amount taken or returned, the fee taken or returned.
    case 'dispute':
    case 'dispute_reversal': {
      const moved: Movement[] = [];
      if (txn.amount) moved.push(movement(txn.amount < 0 ? 'disputes' : 'disputeReinstatements', txn.id, txn.amount));
      if (txn.fee) moved.push(movement(txn.fee > 0 ? 'disputeFees' : 'disputeFeesReturned', txn.id, -txn.fee));
      return moved;
    }
    case 'payout':
      return feeElsewhere([movement('payouts', source, txn.amount)]);
    case 'payout_reversal':
      return feeElsewhere([movement('payoutFailures', source, txn.amount)]);
    default:
      return [movement('other', txn.id, txn.net, txn.id)];
  }
}

/** Stripe's side of a period; a Stripe that cannot be asked is refused in the reader's words. */
async function stripeSide(db: Knex, config: Config, from: Date, to: Date): Promise<Movement[]> {
  try {
    const transactions = await balanceTransactionsBetween(db, config, from, to);
    const currency = stripeCurrency(await installationCurrency(db));
    const movements: Movement[] = [];
    // Oldest first, as the books list their rows.
    for (const txn of transactions.reverse()) movements.push(...(await stripeMovements(db, config, txn, currency)));
    return movements;
  } catch (error) {
    if (error instanceof StripeFailure)
      throw serviceError(tr('Stripe could not be asked for its balance transactions. Please try again later.'));
    throw error;
  }
}

/**
 * The order of each differing movement ("figure key" → order id), so staff can open it: from the
 * books' rows where they have one, else by the payment Stripe names.
 */
async function ordersOf(db: Knex, movements: Movement[], books: Movement[]): Promise<Map<string, number>> {
  const idOfMovement = (m: Movement) => `${m.figure} ${m.key}`;
  const found = new Map(books.filter((m) => m.orderId !== null).map((m) => [idOfMovement(m), m.orderId!]));
  const payments = [
    ...new Set(movements.flatMap((m) => (found.has(idOfMovement(m)) || !m.payment ? [] : [m.payment]))),
  ];
  const orders = payments.length
    ? await db('orders')
        .whereIn('stripe_payment_intent_id', payments)
        .select<{ id: number; payment: string }[]>('id', 'stripe_payment_intent_id as payment')
    : [];
  const byPayment = new Map(orders.map((order) => [order.payment, order.id]));
  for (const m of movements) {
    const order = m.payment ? byPayment.get(m.payment) : undefined;
    if (!found.has(idOfMovement(m)) && order !== undefined) found.set(idOfMovement(m), order);
  }
  return found;
}

const payoutFigures = new Set<Figure>(['payouts', 'payoutFailures']);

/**
 * Stripe's movements without the payouts that failed before they reached the bank: Stripe took
 * their money from the balance when it created them and gave it back when the bank refused them
 * (a `payout` and a `payout_failure` balance transaction of the same payout), while the books,
 * which count a payout at the bank only once Stripe reports it paid (ledger/bank-transfer.ts),
 * never moved it. A payout the books did book (paid, then failed) stays on both sides.
 */
function withoutBouncedPayouts(stripe: Movement[], books: Movement[]): Movement[] {
  const booked = new Set(books.filter((m) => payoutFigures.has(m.figure)).map((m) => m.key));
  const keysOf = (figure: Figure) => new Set(stripe.filter((m) => m.figure === figure).map((m) => m.key));
  const taken = keysOf('payouts');
  const bounced = new Set([...keysOf('payoutFailures')].filter((key) => taken.has(key) && !booked.has(key)));
  return stripe.filter((m) => !(payoutFigures.has(m.figure) && bounced.has(m.key)));
}

/** The longest period compared at once: a quarter. */
const maxDays = 92;

/** Stripe's balance transactions and the books' rows of a period, beside each other. */
export async function reconcileStripe(db: Knex, config: Config, period: Period): Promise<Reconciliation> {
  if (!period.from || !period.to)
    throw invalidError('Please choose the first and the last day to compare with Stripe.', {
      [period.from ? 'to' : 'from']: 'Please choose a day.',
    });
  // Every balance transaction of the period is asked of Stripe, a hundred per call: a longer period
  // would spend the account's rate limit that customers' payments need.
  if (period.to.getTime() - period.from.getTime() > maxDays * 24 * 60 * 60 * 1000)
    throw invalidError(tr('Please compare at most {days} days with Stripe at once.', { days: maxDays }), {
      to: tr('At most {days} days after the first day.', { days: maxDays }),
    });
  const books = await bookedMovements(db, period.from, period.to);
  const stripe = withoutBouncedPayouts(await stripeSide(db, config, period.from, period.to), books);
  const totals = { stripe: emptyTotals(), books: emptyTotals() };
  const objects = new Map<string, { stripe: number; books: number; first: Movement }>();
  for (const [side, movements] of [
    ['stripe', stripe],
    ['books', books],
  ] as const) {
    for (const movement of movements) {
      totals[side][movement.figure] += movement.amount;
      totals[side].total += movement.amount;
      const id = `${movement.figure} ${movement.key}`;
      const object = objects.get(id) ?? { stripe: 0, books: 0, first: movement };
      object[side] += movement.amount;
      objects.set(id, object);
    }
  }
  const differing = [...objects.values()].filter((object) => object.stripe !== object.books);
  const orders = await ordersOf(
    db,
    differing.map(({ first }) => first),
    books,
  );
  const differences = differing
    .map(({ stripe, books, first }): Difference => ({
      object: first.object,
      type: objectTypeOf[first.figure],
      figure: first.figure,
      balanceTransaction: first.balanceTransaction,
      orderId: orders.get(`${first.figure} ${first.key}`) ?? null,
      at: first.at.toISOString(),
      stripe,
      books,
    }))
    .sort((a, b) => a.at.localeCompare(b.at) || figures.indexOf(a.figure) - figures.indexOf(b.figure));
  return {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    stripe: totals.stripe,
    books: totals.books,
    differences,
  };
}
