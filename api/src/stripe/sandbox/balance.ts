import type { Knex } from 'knex';
import { StripeApiError } from './errors.ts';
import { onlyKnown, text, type Params } from './form.ts';
import { inRange, page, type StripeList } from './lists.ts';
import { balanceTransaction, moneyText, newId, present, unixNow, type BalanceTransaction } from './objects.ts';
import { getObject, insertObject, listObjects, saveObject, type StripeObject } from './store.ts';
import { schedulePayoutStep } from './scheduled.ts';
import { stripeEvent, type StripeEvent } from './webhooks.ts';

// The account's Stripe balance: every movement of money the sandbox makes is a balance transaction
// (charges with their fee, refunds, refund failures, dispute withdrawals and reinstatements,
// payouts), the balance is their sum, and an automatic payout takes what is available to the bank
// (https://docs.stripe.com/api/balance_transactions, https://docs.stripe.com/api/payouts).

/**
 * Which balance transactions an automatic payout paid out: Stripe keeps this to itself (no field of
 * the balance transaction names its payout) and answers it to `GET /v1/balance_transactions?payout=`,
 * so the sandbox keeps it in a record of its own that no route returns.
 */
interface PayoutContents extends StripeObject {
  object: 'sandbox_payout_contents';
  payout: string;
  balance_transactions: string[];
}

const contentsId = (payoutId: string) => `contents_${payoutId}`;

const transactions = (trx: Knex.Transaction) => listObjects<BalanceTransaction>(trx, 'balance_transaction');

/** `GET /v1/balance_transactions` with Stripe's filters `payout`, `source`, `type`, `currency`, `created`. */
export async function listBalanceTransactions(
  trx: Knex.Transaction,
  params: Params,
): Promise<StripeList<StripeObject>> {
  onlyKnown(params, [
    'payout',
    'source',
    'type',
    'currency',
    'created',
    'limit',
    'starting_after',
    'ending_before',
    'expand',
  ]);
  const payoutId = text(params, 'payout');
  const paidOut = payoutId
    ? new Set(
        (
          await getObject<PayoutContents>(trx, 'sandbox_payout_contents', contentsId(payoutId)).catch(() => {
            throw new StripeApiError(400, 'invalid_request_error', `No such payout: '${payoutId}'`, {
              code: 'resource_missing',
              param: 'payout',
            });
          })
        ).balance_transactions,
      )
    : undefined;
  const source = text(params, 'source');
  const type = text(params, 'type');
  const currency = text(params, 'currency');
  const created = inRange(params, 'created');
  const all = (await transactions(trx)).filter(
    (txn) =>
      (!paidOut || paidOut.has(txn.id)) &&
      (!source || txn.source === source) &&
      (!type || txn.type === type) &&
      (!currency || txn.currency === currency) &&
      created(txn.created),
  );
  const listed = page(all, params, '/v1/balance_transactions');
  return { ...listed, data: listed.data.map(present) };
}

type Amounts = { amount: number; currency: string; source_types: { card: number } }[];

/** `GET /v1/balance`: the net of every balance transaction, available or still pending, per currency. */
export async function balance(
  trx: Knex.Transaction,
): Promise<{ object: 'balance'; available: Amounts; livemode: false; pending: Amounts }> {
  const sums = { available: new Map<string, number>(), pending: new Map<string, number>([['eur', 0]]) };
  sums.available.set('eur', 0);
  for (const txn of (await transactions(trx)).map((t) => present(t) as BalanceTransaction)) {
    const into = sums[txn.status];
    into.set(txn.currency, (into.get(txn.currency) ?? 0) + txn.net);
    const other = sums[txn.status === 'available' ? 'pending' : 'available'];
    if (!other.has(txn.currency)) other.set(txn.currency, 0);
  }
  const amounts = (sums: Map<string, number>): Amounts =>
    [...sums].map(([currency, amount]) => ({ amount, currency, source_types: { card: amount } }));
  return { object: 'balance', available: amounts(sums.available), livemode: false, pending: amounts(sums.pending) };
}

// A payout's life at Stripe (https://docs.stripe.com/api/payouts/object, https://docs.stripe.com/payouts):
// Stripe creates it `pending` and takes its amount from the balance at once (a `payout` balance
// transaction), submits it to the bank (`in_transit`), and it is `paid` on its `arrival_date`, or
// `failed` when the bank refuses it, with a `failure_code`; the money of a failed payout comes back
// to the balance as a `payout_failure` balance transaction (reporting category `payout_reversal`,
// the payout's `failure_balance_transaction`) and goes out with the next payout. Each change is
// sent as `payout.updated`, with `payout.created`, `payout.paid` and `payout.failed` beside it
// (https://docs.stripe.com/api/events/types). Which bank account makes a payout fail is Stripe's
// list of test IBANs (https://docs.stripe.com/connect/testing#payouts): any EU country code with
// these digits.

/** The IBAN the sandbox's payouts go to unless a test names another: Stripe's test IBAN that succeeds. */
export const payoutIban = 'DE89370400440532013000';

/** Stripe's test IBANs after their country code and check digits, and the failure each brings. */
const failingIbans: Record<string, { code: string; message: string }> = {
  '370400440532013001': {
    code: 'no_account',
    message:
      'The bank account details on file are probably incorrect. No bank account could be located with those details.',
  },
  '370400440532013002': { code: 'account_closed', message: 'The bank account has been closed.' },
  '370400440532013003': {
    code: 'insufficient_funds',
    message: 'Your Stripe balance is insufficient to cover the payout.',
  },
  '370400440532013004': {
    code: 'debit_not_authorized',
    message: 'Debit transactions are not approved on the bank account.',
  },
  '370400440532013005': {
    code: 'invalid_currency',
    message: 'The bank was unable to process this payout because of its currency.',
  },
};

/** How long after its creation a payout leaves for the bank, and on which day it arrives. */
const inTransitAfterSeconds = 60 * 60;
const arrivalDays = 2;

/**
 * Sandbox-only: an automatic payout of the whole balance, as Stripe makes one on the payout
 * schedule, to the bank account `iban` (Stripe's succeeding test IBAN unless given). The days until
 * pending money becomes available pass at once (its `available_on` is now); then, per currency, the
 * net of every balance transaction not paid out yet leaves the balance: a payout `pending`
 * (`payout.created`) with a `payout` balance transaction, and `GET /v1/balance_transactions?payout=`
 * lists what it paid out (https://docs.stripe.com/payouts/reconciliation). It goes in transit and
 * arrives or fails later, on the sandbox's clock (later.ts). Refused when nothing positive is left.
 */
export async function payOutBalance(
  trx: Knex.Transaction,
  iban = payoutIban,
): Promise<{ payouts: StripeObject[]; events: StripeEvent[] }> {
  const compact = iban.replaceAll(' ', '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact))
    throw new StripeApiError(400, 'invalid_request_error', `Invalid IBAN: '${iban}'`, { param: 'iban' });
  const failure = failingIbans[compact.slice(4)] ?? null;
  const now = unixNow();
  const paid = new Set(
    (await listObjects<PayoutContents>(trx, 'sandbox_payout_contents')).flatMap((c) => c.balance_transactions),
  );
  const open = (await transactions(trx)).filter((txn) => !paid.has(txn.id));
  const byCurrency = new Map<string, BalanceTransaction[]>();
  for (const txn of open) byCurrency.set(txn.currency, [...(byCurrency.get(txn.currency) ?? []), txn]);
  const net = (txns: BalanceTransaction[]) => txns.reduce((sum, txn) => sum + txn.net, 0);
  const payable = [...byCurrency].filter(([, txns]) => net(txns) > 0);
  if (payable.length === 0) {
    const left =
      [...byCurrency].map(([currency, txns]) => moneyText(net(txns), currency)).join(', ') || moneyText(0, 'eur');
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `The local Stripe sandbox has nothing to pay out: the balance not paid out yet is ${left}.`,
      { code: 'balance_insufficient' },
    );
  }
  const payouts: StripeObject[] = [];
  const events: StripeEvent[] = [];
  for (const [currency, txns] of payable) {
    for (const txn of txns.filter((t) => t.available_on > now)) {
      Object.assign(txn, { available_on: now, status: 'available' });
      await saveObject(trx, txn);
    }
    const amount = net(txns);
    const id = newId('po_');
    const payoutTxn = balanceTransaction({
      amount: -amount,
      currency,
      type: 'payout',
      reportingCategory: 'payout',
      source: id,
      description: 'STRIPE PAYOUT',
    });
    await insertObject(trx, payoutTxn);
    const arrival = now - (now % 86_400) + arrivalDays * 86_400;
    const payout = {
      id,
      object: 'payout',
      amount,
      application_fee: null,
      application_fee_amount: null,
      arrival_date: arrival,
      automatic: true,
      balance_transaction: payoutTxn.id,
      created: now,
      currency,
      description: 'STRIPE PAYOUT',
      destination: 'ba_sandbox_bank_account',
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      livemode: false,
      metadata: {},
      method: 'standard',
      original_payout: null,
      payout_method: null,
      reconciliation_status: 'in_progress',
      reversed_by: null,
      source_type: 'card',
      statement_descriptor: null,
      status: 'pending',
      trace_id: null,
      type: 'bank_account',
    };
    events.push(stripeEvent('payout.created', payout));
    await insertObject(trx, payout);
    const contents: PayoutContents = {
      id: contentsId(id),
      object: 'sandbox_payout_contents',
      payout: id,
      balance_transactions: [...txns.map((txn) => txn.id), payoutTxn.id],
    };
    await insertObject(trx, contents);
    await schedulePayoutStep(trx, id, now + inTransitAfterSeconds, { action: 'payout_in_transit' });
    await schedulePayoutStep(trx, id, Math.max(arrival, now + inTransitAfterSeconds + 1), {
      action: 'payout_arrives',
      failureCode: failure?.code ?? null,
    });
    payouts.push(payout);
  }
  return { payouts, events };
}

/** The bank has the payout: `pending` → `in_transit`. */
export async function payoutInTransit(trx: Knex.Transaction, id: string): Promise<StripeEvent[]> {
  const payout = await getObject(trx, 'payout', id, { lock: true });
  if (payout.status !== 'pending') return [];
  Object.assign(payout, { status: 'in_transit' });
  await saveObject(trx, payout);
  return [stripeEvent('payout.updated', payout, { status: 'pending' })];
}

/**
 * The payout's arrival day: `paid` (`payout.paid`, `payout.updated`, then
 * `payout.reconciliation_completed`), or `failed` with `failureCode`, its money back in the balance.
 */
export async function payoutArrives(
  trx: Knex.Transaction,
  id: string,
  failureCode: string | null,
): Promise<StripeEvent[]> {
  const payout = await getObject(trx, 'payout', id, { lock: true });
  if (payout.status !== 'in_transit' && payout.status !== 'pending') return [];
  const before = { status: payout.status };
  if (!failureCode) {
    Object.assign(payout, { status: 'paid', trace_id: { status: 'unsupported', value: null } });
    const paid = [
      stripeEvent('payout.paid', payout, { ...before, trace_id: null }),
      stripeEvent('payout.updated', payout, { ...before, trace_id: null }),
    ];
    payout.reconciliation_status = 'completed';
    await saveObject(trx, payout);
    return [...paid, stripeEvent('payout.reconciliation_completed', payout, { reconciliation_status: 'in_progress' })];
  }
  const failure = Object.values(failingIbans).find((f) => f.code === failureCode)!;
  const returned = balanceTransaction({
    amount: payout.amount as number,
    currency: payout.currency as string,
    type: 'payout_failure',
    reportingCategory: 'payout_reversal',
    source: id,
    description: 'STRIPE PAYOUT',
  });
  await insertObject(trx, returned);
  const changed = {
    status: 'failed',
    failure_balance_transaction: returned.id,
    failure_code: failure.code,
    failure_message: failure.message,
  };
  const previous = { ...before, failure_balance_transaction: null, failure_code: null, failure_message: null };
  Object.assign(payout, changed);
  await saveObject(trx, payout);
  return [stripeEvent('payout.failed', payout, previous), stripeEvent('payout.updated', payout, previous)];
}

/** `GET /v1/payouts` with `status`, `created` and `arrival_date`. */
export async function listPayouts(trx: Knex.Transaction, params: Params): Promise<StripeList<StripeObject>> {
  onlyKnown(params, [
    'status',
    'created',
    'arrival_date',
    'destination',
    'limit',
    'starting_after',
    'ending_before',
    'expand',
  ]);
  const status = text(params, 'status');
  const destination = text(params, 'destination');
  const created = inRange(params, 'created');
  const arrival = inRange(params, 'arrival_date');
  const all = (await listObjects(trx, 'payout')).filter(
    (payout) =>
      (!status || payout.status === status) &&
      (!destination || payout.destination === destination) &&
      created(payout.created as number) &&
      arrival(payout.arrival_date as number),
  );
  return page(all, params, '/v1/payouts');
}
