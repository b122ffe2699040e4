import type { Knex } from 'knex';
import { accountIds, vendorAccountId } from './accounts.ts';
import {
  NothingToPayOut,
  PayoutAlreadyReversed,
  PayoutNotFound,
  RequestReused,
  StaleAmount,
  type LastPayout,
} from './errors.ts';
import { openCredit } from './queries.ts';
import { refuseTestCreditAsCash } from './test-credit.ts';
import { bookMovement, defaultTillId, lockTill } from './till.ts';
import { payoutVoucherSql } from './vouchers.ts';
import { oneRow } from '../foundations/one-row.ts';
import { presetOf, roundCash } from '../country/presets.ts';
import type { PublishLedgerEvent } from './events.ts';

// Cash at the counter. A payout pays a vendor's whole open credit and stamps every row it settled
// with its id; a reversal books the money back as one new open row. Where the country's smallest
// coin is above the minor unit (country/presets.ts), the cash handed over is the credit rounded to
// it (13.47 CHF: 13.45), and the difference is a `cash_rounding` row between the vendor and the
// newspaper stamped with the payout, as at the counter (ledger/counter.ts): the payout's amount is
// the cash, and the vendor's credit is settled in full. A reversal takes the rounding back too. Both lock the till's row and
// then the vendor's account row (the order of ledger/till.ts), so two tabs, two clicks or two
// servers queue on them: the second one finds nothing open any more. Nothing here calls out of the
// database.

export interface PayoutRequest {
  vendorId: number;
  /** The credit the staff member was shown, in cents; it must still be the open credit. */
  expectedAmount: number;
  authorisedBy: string;
  /** The newspaper's time zone: the receipt number carries the local year. */
  timeZone: string;
  /** The till the cash comes from; the first till when not named. */
  tillId?: number;
  /** The back office's id of the submission (a UUID): sent again, it answers the first payout. */
  requestId?: string;
  /** Card payments are test payments here (ledger/test-credit.ts): their credit is never paid in cash. */
  creditIsTestMoney?: boolean;
}

/**
 * The vendor's last payout that was not reversed. Read after the lock, so a second tab that queued
 * behind a payout learns which one took the credit it was about to pay.
 */
async function lastPayout(trx: Knex.Transaction, vendorId: number, timeZone: string): Promise<LastPayout | undefined> {
  const row = await trx('payouts as p')
    .where({ vendor_id: vendorId })
    .whereNull('reversed_at')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<
      | {
          id: number;
          voucher: string;
          amount: number | string;
          authorised_by: string;
          created_at: Date;
          local_time: string;
        }
      | undefined
    >(
      'id',
      trx.raw(`${payoutVoucherSql('p')} as voucher`),
      'amount',
      'authorised_by',
      'created_at',
      trx.raw(`to_char(created_at at time zone ?, 'YYYY-MM-DD HH24:MI') as local_time`, [timeZone]),
    );
  return (
    row && {
      id: row.id,
      voucher: row.voucher,
      amount: Number(row.amount),
      authorisedBy: row.authorised_by,
      createdAt: new Date(row.created_at).toISOString(),
      localTime: row.local_time,
    }
  );
}

/**
 * Pays out the vendor's open credit; answers the new payout's id, or the id of the payout booked
 * before with the same request id.
 */
export async function payOut(
  db: Knex | Knex.Transaction,
  request: PayoutRequest,
  publish: PublishLedgerEvent,
): Promise<number> {
  return db.transaction(async (trx) => {
    const tillId = request.tillId ?? (await defaultTillId(trx));
    await lockTill(trx, tillId);
    // Under the till's lock, a submission sent twice at once finds the first one's payout here.
    if (request.requestId !== undefined) {
      // The credit it settled: the cash handed over and what the rounding took off (or added).
      const earlier = await trx('payouts as p')
        .where({ request_id: request.requestId })
        .first<{ id: number; vendor_id: number; till_id: number; credit: number | string } | undefined>(
          'id',
          'vendor_id',
          'till_id',
          trx.raw(
            `p.amount + coalesce((select sum(case when r.sender_id = a.id then r.amount else -r.amount end)
               from ledger_rows r join ledger_accounts a on a.vendor_id = p.vendor_id
               where r.payout_id = p.id and r.kind = 'cash_rounding' and r.counter_visit_id is null
                 and r.reversal_of is null), 0) as credit`,
          ),
        );
      if (earlier) {
        if (
          earlier.vendor_id !== request.vendorId ||
          earlier.till_id !== tillId ||
          Number(earlier.credit) !== request.expectedAmount
        )
          throw new RequestReused();
        return earlier.id;
      }
    }
    const account = await vendorAccountId(trx, request.vendorId, { lock: true });
    if (account === undefined) throw new NothingToPayOut(request.vendorId);
    // Exactly these rows are settled: a sale committed from now on stays open for the next payout.
    const { credit, rowIds } = await openCredit(trx, account);
    // A debt is no race: only a credit that some payout emptied names that payout.
    if (credit < 0) throw new NothingToPayOut(request.vendorId);
    if (credit === 0)
      throw new NothingToPayOut(request.vendorId, await lastPayout(trx, request.vendorId, request.timeZone));
    if (credit !== request.expectedAmount) throw new StaleAmount(credit);
    refuseTestCreditAsCash(request.creditIsTestMoney, credit);
    const { country } = await trx('settings').where({ id: 1 }).first<{ country: string }>('country');
    const cash = roundCash(credit, presetOf(country).cashRounding.step);
    const rounding = credit - cash;

    // The id is drawn first so that the receipt number can carry it.
    const { rows: drawn } = await trx.raw<{ rows: { id: number }[] }>(
      `select nextval(pg_get_serial_sequence('payouts', 'id'))::integer as id`,
    );
    const { id } = oneRow(drawn);
    await trx('payouts').insert({
      till_id: tillId,
      id,
      request_id: request.requestId ?? null,
      receipt_number: trx.raw(`to_char(now() at time zone ?, 'YYYY') || '-' || lpad(?::text, 6, '0')`, [
        request.timeZone,
        id,
      ]),
      vendor_id: request.vendorId,
      amount: cash,
      authorised_by: request.authorisedBy,
    });
    const accounts = await accountIds(trx, request.vendorId);
    // Rounded down, the vendor leaves the difference to the newspaper; rounded up, the newspaper adds it.
    if (rounding !== 0)
      await trx('ledger_rows').insert({
        sender_id: rounding > 0 ? account : accounts.orga,
        receiver_id: rounding > 0 ? accounts.orga : account,
        amount: Math.abs(rounding),
        kind: 'cash_rounding',
        payout_id: id,
        authorised_by: request.authorisedBy,
      });
    const inserted = await trx('ledger_rows')
      .insert({
        sender_id: account,
        receiver_id: accounts.cash,
        amount: cash,
        kind: 'payout',
        payout_id: id,
        authorised_by: request.authorisedBy,
      })
      .returning<{ id: number | string }[]>('id');
    // The cash leaves the till: refused when the till holds less (the figure goes to the screen).
    await bookMovement(trx, {
      tillId,
      kind: 'payout',
      amount: -cash,
      vendorId: request.vendorId,
      ledgerRowId: Number(oneRow(inserted).id),
      staff: request.authorisedBy,
      timeZone: request.timeZone,
    });
    await trx('ledger_rows').whereRaw('id = any(?::bigint[])', [rowIds]).update({ payout_id: id });
    await publish(trx, { type: 'payout.created', payoutId: id });
    return id;
  });
}

export interface ReversalRequest {
  payoutId: number;
  reason: string;
  authorisedBy: string;
  /** The newspaper's time zone: the cash going back into the till is dated on its local day. */
  timeZone: string;
}

/**
 * Undoes a mistaken payout: cash → vendor for the same amount, open again, naming the payout's row
 * (which the database lets be reversed only once), and its rounding turned around, naming the
 * rounding row. The settled rows keep their payout: that is the history; the reversal rows carry
 * the credit from now on, the exact credit the payout settled.
 */
export async function reversePayout(
  db: Knex | Knex.Transaction,
  request: ReversalRequest,
  publish: PublishLedgerEvent,
): Promise<void> {
  await db.transaction(async (trx) => {
    // A payout's till and vendor never change: read without a lock, they name the locks to take.
    const found = await trx('payouts')
      .where({ id: request.payoutId })
      .first<{ vendor_id: number; till_id: number } | undefined>('vendor_id', 'till_id');
    if (!found) throw new PayoutNotFound(request.payoutId);
    // The same order of locks as a payout (till, account, then payout), so the two cannot deadlock.
    await lockTill(trx, found.till_id);
    await vendorAccountId(trx, found.vendor_id, { lock: true });
    const payout = await trx('payouts')
      .where({ id: request.payoutId })
      .forUpdate()
      .first<{ reversed_at: Date | null } | undefined>('reversed_at');
    if (payout?.reversed_at) throw new PayoutAlreadyReversed(request.payoutId);
    const row = await trx('ledger_rows')
      .where({ payout_id: request.payoutId, kind: 'payout' })
      .first<{ id: number; sender_id: number; receiver_id: number; amount: number | string }>(
        'id',
        'sender_id',
        'receiver_id',
        'amount',
      );
    const reversal = await trx('ledger_rows')
      .insert({
        sender_id: row.receiver_id,
        receiver_id: row.sender_id,
        amount: row.amount,
        kind: 'payout_reversal',
        reversal_of: row.id,
        authorised_by: request.authorisedBy,
      })
      .returning<{ id: number | string }[]>('id');
    const rounding = await trx('ledger_rows')
      .where({ payout_id: request.payoutId, kind: 'cash_rounding', counter_visit_id: null, reversal_of: null })
      .first<{ id: number; sender_id: number; receiver_id: number; amount: number | string } | undefined>(
        'id',
        'sender_id',
        'receiver_id',
        'amount',
      );
    if (rounding)
      await trx('ledger_rows').insert({
        sender_id: rounding.receiver_id,
        receiver_id: rounding.sender_id,
        amount: rounding.amount,
        kind: 'cash_rounding',
        reversal_of: rounding.id,
        authorised_by: request.authorisedBy,
      });
    // The cash that was not handed out goes back into the payout's till, on today's page of its book.
    await bookMovement(trx, {
      tillId: found.till_id,
      kind: 'payout_reversal',
      amount: Number(row.amount),
      vendorId: found.vendor_id,
      ledgerRowId: Number(oneRow(reversal).id),
      reason: request.reason,
      staff: request.authorisedBy,
      timeZone: request.timeZone,
    });
    await trx('payouts').where({ id: request.payoutId }).update({
      reversed_at: trx.fn.now(),
      reversed_by: request.authorisedBy,
      reversal_reason: request.reason,
    });
    await publish(trx, { type: 'payout.reversed', payoutId: request.payoutId });
  });
}
