import type { Knex } from 'knex';
import { CounterError, RequestReused } from './errors.ts';
import { oneRow } from '../foundations/one-row.ts';
import type { PublishLedgerEvent } from './events.ts';
import { day as dayParam, money, tr } from '../language/messages.ts';
import { presetOf } from '../country/presets.ts';

// The tills and their cash book. Every cash movement is written here, in the caller's
// transaction, after locking the till's row: movements of one till queue on it, so the running
// balance each row stores is the one before it plus its amount, and a payout that would take more
// than the till holds is refused with the figure. The voucher number comes from a counter row per
// till and year raised in the same transaction, so a booking that fails half-way leaves no gap.
// A close covers the movements since the previous close; cash moved after it goes into the next one.
// The database refuses a movement inside a closed period (migrations 014, 028); a correction is a new
// movement.
//
// Lock order, the same in every booking that touches a till (a payout and its reversal, a counter
// visit, a manual movement, the daily close): the till's row first, then the vendor's account row,
// then the rest (payout, visit, ledger rows, voucher counter, movement, close). A row inserted with
// the till's id takes a share lock on the till's row for its foreign key: taken before the till's own
// lock, that share lock made two payouts of one till wait for each other for good. (An audited
// route's protocol lock, protocol/middleware.ts, comes before all of them.)

type Db = Knex | Knex.Transaction;

/** The till holds less than a movement takes out. */
export class TillShort extends CounterError {
  constructor(
    readonly balance: number,
    amount: number,
  ) {
    super(
      'conflict',
      tr('The till holds only {balance}; {amount} cannot be taken out of it.', {
        balance: money(balance),
        amount: money(amount),
      }),
      { amount: tr('The till holds {balance}.', { balance: money(balance) }) },
      { tillBalance: balance },
    );
  }
}

export const movementKinds = [
  'payout',
  'payout_reversal',
  'counter_cash',
  'bank_deposit',
  'bank_withdrawal',
  'expense',
  'income',
  'difference',
] as const;
export type MovementKind = (typeof movementKinds)[number];

/** The movements staff book by hand (the others come with a payout, a visit or a close). */
export const manualKinds = ['bank_deposit', 'bank_withdrawal', 'expense', 'income'] as const;
export type ManualKind = (typeof manualKinds)[number];

export interface Movement {
  tillId: number;
  kind: MovementKind;
  /** Cents, + into the till, − out of it. */
  amount: number;
  staff: string;
  reason?: string;
  vendorId?: number;
  ledgerRowId?: number;
  counterVisitId?: string;
  /** The id the back office made for a manual movement's submission: sent again, it books once. */
  requestId?: string;
  /** The newspaper's time zone: the movement is dated on its local day. */
  timeZone: string;
}

const counterparts: Record<MovementKind, 'vendor' | 'bank' | 'other'> = {
  payout: 'vendor',
  payout_reversal: 'vendor',
  counter_cash: 'vendor',
  bank_deposit: 'bank',
  bank_withdrawal: 'bank',
  expense: 'other',
  income: 'other',
  difference: 'other',
};

/** Locks the till's row until the transaction ends; answers its opening balance. */
export async function lockTill(
  trx: Knex.Transaction,
  tillId: number,
): Promise<{ id: number; name: string; opening_balance: number }> {
  const till = await trx('tills')
    .where({ id: tillId })
    .forUpdate()
    .first<{ id: number; name: string; opening_balance: number } | undefined>('id', 'name', 'opening_balance');
  if (!till)
    throw new CounterError('unknown', tr('There is no till with the id {id}.', { id: tillId }), {
      till: 'Please choose a till.',
    });
  return till;
}

/**
 * A till's balance as SQL over a `tills` row aliased `t` (a trusted alias): its cash book's last
 * running balance, else the cash it started with.
 */
export const tillBalanceSql = (t: string) =>
  `coalesce((select balance from cash_movements where till_id = ${t}.id order by id desc limit 1), ${t}.opening_balance)::bigint`;

/** The till's balance now: the last movement's balance, or the opening balance. */
export async function tillBalance(db: Db, tillId: number): Promise<number> {
  const { rows } = await db.raw<{ rows: { balance: number }[] }>(
    `select ${tillBalanceSql('t')} as balance from tills t where t.id = ?`,
    [tillId],
  );
  return Number(rows[0]?.balance ?? 0);
}

/** Sets up a till with the cash it starts with (its cash book's first balance); answers its id. */
export async function createTill(db: Db, till: { name: string; openingBalance: number }): Promise<number> {
  const inserted = await db('tills')
    .insert({ name: till.name, opening_balance: till.openingBalance })
    .returning<{ id: number }[]>('id');
  return oneRow(inserted).id;
}

/** The till every payout goes through when none is named: the first one. */
export async function defaultTillId(db: Db): Promise<number> {
  const till = await db('tills').orderBy('id').first<{ id: number } | undefined>('id');
  if (!till) throw new CounterError('conflict', 'There is no till yet. Please set one up under "Tills" first.');
  return till.id;
}

/** Books one cash movement; answers its id and voucher. The caller's transaction must hold the till lock. */
export async function bookMovement(
  trx: Knex.Transaction,
  movement: Movement,
): Promise<{ id: number; voucher: string }> {
  await lockTill(trx, movement.tillId);
  const balance = await tillBalance(trx, movement.tillId);
  if (balance + movement.amount < 0) throw new TillShort(balance, -movement.amount);
  const { rows: dated } = await trx.raw<{ rows: { day: string; year: number }[] }>(
    `select to_char(now() at time zone ?, 'YYYY-MM-DD') as day, extract(year from now() at time zone ?)::integer as year`,
    [movement.timeZone, movement.timeZone],
  );
  const { day, year } = oneRow(dated);
  const { rows: counted } = await trx.raw<{ rows: { number: number }[] }>(
    `insert into till_voucher_counters (till_id, year, next) values (?, ?, 2)
     on conflict (till_id, year) do update set next = till_voucher_counters.next + 1
     returning next - 1 as number`,
    [movement.tillId, year],
  );
  const { number } = oneRow(counted);
  const inserted = await trx('cash_movements')
    .insert({
      till_id: movement.tillId,
      year,
      voucher_number: number,
      day,
      kind: movement.kind,
      counterpart: counterparts[movement.kind],
      vendor_id: movement.vendorId ?? null,
      amount: movement.amount,
      balance: balance + movement.amount,
      reason: movement.reason ?? '',
      staff: movement.staff,
      ledger_row_id: movement.ledgerRowId ?? null,
      counter_visit_id: movement.counterVisitId ?? null,
      request_id: movement.requestId ?? null,
    })
    .returning<{ id: number | string }[]>('id');
  return { id: Number(oneRow(inserted).id), voucher: voucherLabel(movement.tillId, year, number) };
}

/** "1-2026-000042": till, year, number; what the receipt and the cash book print. */
export const voucherLabel = (tillId: number, year: number, number: number) =>
  `${tillId}-${year}-${String(number).padStart(6, '0')}`;

export interface ManualMovementRequest {
  tillId: number;
  kind: ManualKind;
  /** Cents, always positive: the kind says the direction. */
  amount: number;
  reason: string;
  staff: string;
  timeZone: string;
  /** The back office's id of the submission (a UUID): sent again, it answers the first booking. */
  requestId?: string;
}

const directions: Record<ManualKind, 1 | -1> = { bank_deposit: -1, bank_withdrawal: 1, expense: -1, income: 1 };

/** A movement as a submission sent again is compared with. */
interface BookedMovement {
  id: number | string;
  till_id: number;
  year: number;
  voucher_number: number;
  kind: string;
  amount: number | string;
  reason: string;
}

/**
 * A deposit to or withdrawal from the bank, or another expense or income with its reason. A request
 * id booked before answers that movement, when it is the same one.
 */
export function bookManualMovement(db: Db, request: ManualMovementRequest): Promise<{ id: number; voucher: string }> {
  if (!(request.amount > 0))
    throw new CounterError('invalid', 'Please give an amount above 0.', { amount: 'Please give an amount above 0.' });
  if ((request.kind === 'expense' || request.kind === 'income') && !request.reason.trim()) {
    throw new CounterError('invalid', 'Please say what the money is for.', { reason: 'Please give a reason.' });
  }
  const movement = { ...request, amount: directions[request.kind] * request.amount, reason: request.reason.trim() };
  return db.transaction(async (trx) => {
    // Under the till's lock, a submission sent twice at once finds the first one's movement here.
    await lockTill(trx, request.tillId);
    const earlier =
      request.requestId === undefined
        ? undefined
        : await trx('cash_movements')
            .where({ request_id: request.requestId })
            .first<BookedMovement | undefined>('id', 'till_id', 'year', 'voucher_number', 'kind', 'amount', 'reason');
    if (!earlier) return bookMovement(trx, movement);
    if (
      earlier.till_id !== movement.tillId ||
      earlier.kind !== movement.kind ||
      Number(earlier.amount) !== movement.amount ||
      earlier.reason !== movement.reason
    )
      throw new RequestReused();
    return { id: Number(earlier.id), voucher: voucherLabel(earlier.till_id, earlier.year, earlier.voucher_number) };
  });
}

export interface CloseRequest {
  tillId: number;
  /** The counted cash in cents; with `denominations`, it must be their sum. */
  counted: number;
  /** Pieces per denomination in cents, e.g. { "5000": 2, "200": 3 }. */
  denominations?: Record<string, number>;
  /** The expected balance the staff member was shown; it must still be the balance. */
  expected: number;
  reason?: string;
  staff: string;
  timeZone: string;
}

/**
 * Closes a till's cash book: the count against the balance, covering every movement since the
 * previous close (on whatever days they were booked). A difference is booked once, as its own
 * movement, before the close, which records the last movement it covers. Cash moved after the close
 * goes into the next one. One close per till and day: the evening's count.
 */
export async function closeDay(db: Db, request: CloseRequest, publish: PublishLedgerEvent): Promise<number> {
  if (request.denominations) {
    const sum = Object.entries(request.denominations).reduce(
      (total, [value, pieces]) => total + Number(value) * pieces,
      0,
    );
    if (sum !== request.counted) {
      throw new CounterError(
        'invalid',
        tr('The pieces add up to {sum}, not {counted}.', { sum: money(sum), counted: money(request.counted) }),
        {
          counted: 'Please count again.',
        },
      );
    }
  }
  return db.transaction(async (trx) => {
    const till = await lockTill(trx, request.tillId);
    // A count lists the coins and notes of the newspaper's country (country/presets.ts) only.
    const { country } = await trx('settings').where({ id: 1 }).first<{ country: string }>('country');
    const own = presetOf(country).denominations.values;
    const foreign = Object.keys(request.denominations ?? {}).filter((value) => !own.includes(Number(value)));
    if (foreign.length)
      throw new CounterError(
        'invalid',
        tr('Not a coin or note of {country}: {values}.', { country, values: foreign }),
        {
          denominations: tr('Not a coin or note of {country}: {values}.', { country, values: foreign }),
        },
      );
    const { rows: today } = await trx.raw<{ rows: { day: string }[] }>(
      `select to_char(now() at time zone ?, 'YYYY-MM-DD') as day`,
      [request.timeZone],
    );
    const { day } = oneRow(today);
    if (await trx('till_closes').where({ till_id: request.tillId, day }).first('id')) {
      throw new CounterError(
        'conflict',
        tr(
          'Today ({day}) is already closed for till {till}. Cash moved since goes into the next close, on the next day.',
          { day: dayParam(day), till: till.name },
        ),
      );
    }
    const expected = await tillBalance(trx, request.tillId);
    if (expected !== request.expected) {
      throw new CounterError(
        'conflict',
        tr("The till's balance has changed in the meantime: it is now {balance}. Please count again.", {
          balance: money(expected),
        }),
        { expected: tr('The balance is now {balance}.', { balance: money(expected) }) },
        { expected },
      );
    }
    const difference = request.counted - expected;
    const reason = request.reason?.trim() ?? '';
    if (difference !== 0 && !reason) {
      throw new CounterError(
        'invalid',
        tr('The count differs by {difference}: please give a reason.', { difference: money(difference) }),
        {
          reason: 'Please give a reason.',
        },
      );
    }
    // The opening balance: the balance after the last close, i.e. before every movement since.
    const last = await trx('till_closes')
      .where({ till_id: request.tillId })
      .orderBy('day', 'desc')
      .first<{ last_movement_id: number | string | null } | undefined>('last_movement_id');
    const since = trx('cash_movements').where({ till_id: request.tillId });
    if (last?.last_movement_id) since.where('id', '>', last.last_movement_id);
    const moved =
      (await since.first<{ moved: number | string } | undefined>(trx.raw('coalesce(sum(amount), 0)::bigint as moved')))
        ?.moved ?? 0;
    // The difference first, so the close covers it: it belongs to this count, not the next.
    const movement =
      difference === 0
        ? undefined
        : await bookMovement(trx, {
            tillId: request.tillId,
            kind: 'difference',
            amount: difference,
            reason,
            staff: request.staff,
            timeZone: request.timeZone,
          });
    const covered = await trx('cash_movements')
      .where({ till_id: request.tillId })
      .first<{ id: number | string | null } | undefined>(trx.raw('max(id) as id'));
    const closed = await trx('till_closes')
      .insert({
        till_id: request.tillId,
        day,
        last_movement_id: covered?.id ?? null,
        opening_balance: expected - Number(moved),
        expected,
        counted: request.counted,
        difference,
        denominations: request.denominations ? JSON.stringify(request.denominations) : null,
        reason: reason || null,
        staff: request.staff,
        difference_movement_id: movement?.id ?? null,
      })
      .returning<{ id: number }[]>('id');
    const id = Number(oneRow(closed).id);
    await publish(trx, { type: 'counter.day_closed', closeId: id });
    return id;
  });
}
