import type { Knex } from 'knex';
import { accountIds, vendorAccountId } from './accounts.ts';
import type { PublishLedgerEvent } from './events.ts';
import { payOut } from './payout.ts';
import { openCredit } from './queries.ts';
import { oneRow } from '../foundations/one-row.ts';
import { CounterError } from './errors.ts';
import { refuseTestCreditAsCash } from './test-credit.ts';
import { bookMovement, lockTill } from './till.ts';
import { money, tr } from '../language/messages.ts';
import { presetOf, roundCash } from '../country/presets.ts';

// A counter visit: the copies a vendor takes at the counter price, paid from their
// credit, in cash or part each, and the payout of what is left, in ONE transaction under the till's
// and the vendor's account lock (the locks of a payout, in the order of ledger/till.ts). The bookings:
//   copies           vendor → orga   counter_sale, per item (quantity × counter price, VAT included)
//   cash for copies  cash   → vendor counter_cash, and + into the till's cash book, rounded to the
//                                     country's smallest coin (CHF, CAD 0.05; SEK one krona)
//   rounding         orga   → vendor cash_rounding, what the rounding took off (vendor → orga when
//                                     it added), so the copies are paid in full
//   payout           vendor → cash   payout (ledger/payout.ts), settling every open row, − out of the till
// The vendor's credit drops by the part paid from credit only, and never below zero here.

export interface VisitLine {
  itemId: number;
  quantity: number;
}

export interface VisitRequest {
  /** Made by the screen when it opens: the same visit sent twice books once. */
  visitId: string;
  vendorId: number;
  tillId: number;
  lines: VisitLine[];
  /**
   * Cents of the copies' price the vendor settles in cash (0 … their total); the rest comes from
   * credit. Where the smallest coin is above a cent the till takes this rounded (13.47 CHF: 13.45),
   * and the difference is booked as cash rounding.
   */
  cash: number;
  /**
   * Cents the vendor handed over, when more than `cash`: the rest goes back as change, which the
   * receipt prints. Change is given only once the cash pays all the copies.
   */
  tendered?: number;
  /** Card payments are test payments here (ledger/test-credit.ts): their credit is never paid in cash. */
  creditIsTestMoney?: boolean;
  /** Pay out the credit that is left after the copies. */
  payOut: boolean;
  /** The credit the staff member was shown; it must still be the open credit. */
  expectedCredit: number;
  staff: string;
  timeZone: string;
}

/** The staff member saw a different credit than the one that is open now. */
export class StaleCredit extends CounterError {
  constructor(readonly currentCredit: number) {
    super(
      'conflict',
      tr('The credit has changed in the meantime: it is now {amount}. Please check the visit and confirm again.', {
        amount: money(currentCredit),
      }),
      { expectedCredit: tr('The credit is now {amount}.', { amount: money(currentCredit) }) },
      { currentCredit },
    );
  }
}

/** Books a counter visit; answers its id and whether this call booked it (false: it was booked before). */
export async function counterVisit(
  db: Knex | Knex.Transaction,
  request: VisitRequest,
  publish: PublishLedgerEvent,
): Promise<{ id: string; booked: boolean }> {
  const quantities = new Map<number, number>();
  for (const line of request.lines) quantities.set(line.itemId, (quantities.get(line.itemId) ?? 0) + line.quantity);
  return db.transaction(async (trx) => {
    // The till's lock, then the vendor's, as a payout takes them: two counters serving one vendor queue here.
    await lockTill(trx, request.tillId);
    const accounts = await accountIds(trx, request.vendorId);
    await vendorAccountId(trx, request.vendorId, { lock: true });
    const earlier = await trx('counter_visits')
      .where({ id: request.visitId })
      .first<{ vendor_id: number } | undefined>('vendor_id');
    if (earlier) {
      if (earlier.vendor_id !== request.vendorId)
        throw new CounterError('conflict', 'This visit was booked for another vendor.');
      return { id: request.visitId, booked: false };
    }

    const { credit } = await openCredit(trx, accounts.vendor);
    if (credit !== request.expectedCredit) throw new StaleCredit(credit);

    // Each copy is sold at its item's VAT rate, else the newspaper's; the row keeps it for the receipt.
    const items: { id: number; name: string; counter_price: number | null; vat_rate: number }[] = quantities.size
      ? await trx('items')
          .whereIn('id', [...quantities.keys()])
          .whereNull('deleted_at')
          .select<{ id: number; name: string; counter_price: number | null; vat_rate: number }[]>(
            'id',
            'name',
            'counter_price',
            trx.raw('coalesce(vat_rate, (select s.vat_rate from settings s where s.id = 1)) as vat_rate'),
          )
      : [];
    const unsellable = [...quantities.keys()].filter(
      (id) => items.find((item) => item.id === id)?.counter_price == null,
    );
    if (unsellable.length) {
      throw new CounterError('invalid', 'Some items are not sold at the counter.', {
        items: tr('Not sold at the counter: item {items}.', { items: unsellable }),
      });
    }
    const lines = items.map((item) => ({
      item,
      quantity: quantities.get(item.id)!,
      amount: quantities.get(item.id)! * item.counter_price!,
    }));
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    if (request.cash > total) {
      throw new CounterError(
        'invalid',
        tr('The copies cost {total}; the vendor cannot pay more than that in cash.', { total: money(total) }),
        { cash: tr('At most {total}.', { total: money(total) }) },
      );
    }
    // The cash the till takes: rounded to the country's smallest coin, never a card amount.
    const { country } = await trx('settings').where({ id: 1 }).first<{ country: string }>('country');
    const cash = roundCash(request.cash, presetOf(country).cashRounding.step);
    const rounding = request.cash - cash;
    const tendered = request.tendered ?? cash;
    if (tendered < cash) {
      throw new CounterError(
        'invalid',
        tr('The vendor handed over {tendered}, less than the {cash} paid in cash.', {
          tendered: money(tendered),
          cash: money(cash),
        }),
        { tendered: tr('At least {amount}.', { amount: money(cash) }) },
      );
    }
    if (tendered > cash && request.cash < total) {
      throw new CounterError(
        'invalid',
        tr('Change is given only when the cash pays all the copies ({total}).', { total: money(total) }),
        { cash: tr('{total} in cash, or no change.', { total: money(total) }) },
      );
    }
    const fromCredit = total - request.cash;
    if (fromCredit > Math.max(credit, 0)) {
      throw new CounterError(
        'conflict',
        tr('The credit is {credit}: {fromCredit} cannot be paid from it. Please take the rest in cash.', {
          credit: money(credit),
          fromCredit: money(fromCredit),
        }),
        { cash: tr('At least {amount} in cash.', { amount: money(fromCredit - Math.max(credit, 0)) }) },
      );
    }
    const left = credit - fromCredit;
    refuseTestCreditAsCash(request.creditIsTestMoney, fromCredit + (request.payOut ? Math.max(left, 0) : 0));
    if (total === 0 && !(request.payOut && left > 0)) {
      throw new CounterError('invalid', 'Nothing to book: no copies and no credit to pay out.', {
        items: 'Please add copies or pay out a credit.',
      });
    }

    await trx('counter_visits').insert({
      id: request.visitId,
      vendor_id: request.vendorId,
      till_id: request.tillId,
      copies_amount: total,
      from_credit: fromCredit,
      cash_paid: cash,
      cash_rounding: rounding,
      cash_tendered: tendered > cash ? tendered : null,
      credit_before: credit,
      staff: request.staff,
    });
    const sales = lines
      .filter((line) => line.amount > 0)
      .map((line) => ({
        sender_id: accounts.vendor,
        receiver_id: accounts.orga,
        amount: line.amount,
        kind: 'counter_sale',
        item_id: line.item.id,
        quantity: line.quantity,
        unit_price: line.item.counter_price,
        vat_rate: line.item.vat_rate,
        counter_visit_id: request.visitId,
        authorised_by: request.staff,
      }));
    if (sales.length) await trx('ledger_rows').insert(sales);
    if (rounding !== 0)
      await trx('ledger_rows').insert({
        sender_id: rounding > 0 ? accounts.orga : accounts.vendor,
        receiver_id: rounding > 0 ? accounts.vendor : accounts.orga,
        amount: Math.abs(rounding),
        kind: 'cash_rounding',
        counter_visit_id: request.visitId,
        authorised_by: request.staff,
      });
    if (cash > 0) {
      const inserted = await trx('ledger_rows')
        .insert({
          sender_id: accounts.cash,
          receiver_id: accounts.vendor,
          amount: cash,
          kind: 'counter_cash',
          counter_visit_id: request.visitId,
          authorised_by: request.staff,
        })
        .returning<{ id: number | string }[]>('id');
      await bookMovement(trx, {
        tillId: request.tillId,
        kind: 'counter_cash',
        amount: cash,
        vendorId: request.vendorId,
        ledgerRowId: Number(oneRow(inserted).id),
        counterVisitId: request.visitId,
        staff: request.staff,
        timeZone: request.timeZone,
      });
    }
    if (total > 0) await publish(trx, { type: 'counter.sale', visitId: request.visitId });
    if (request.payOut && left > 0) {
      const payoutId = await payOut(
        trx,
        {
          vendorId: request.vendorId,
          expectedAmount: left,
          authorisedBy: request.staff,
          timeZone: request.timeZone,
          tillId: request.tillId,
        },
        publish,
      );
      await trx('counter_visits').where({ id: request.visitId }).update({ payout_id: payoutId });
    }
    return { id: request.visitId, booked: true };
  });
}
