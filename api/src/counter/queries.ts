import { presetOf } from '../country/presets.ts';
import type { Knex } from 'knex';
import { oneRow } from '../foundations/one-row.ts';
import { payoutLines, type PayoutLineKind } from '../ledger/payout-lines.ts';
import { tillBalanceSql, voucherLabel } from '../ledger/till.ts';
import { vatByRate, vatIncluded, vatPercent } from '../ledger/vat.ts';
import { payoutVoucherSql, reversedVoucherSql } from '../ledger/vouchers.ts';
import { toIso } from '../foundations/dates.ts';

// What the counter screens and papers read: tills with their balance, the cash book with its
// running balance, the closes, and one visit with everything its receipt prints.

type Db = Knex | Knex.Transaction;

export interface Till {
  id: number;
  name: string;
  openingBalance: number;
  balance: number;
  /** The day of the last close (YYYY-MM-DD), or null. */
  closedUntil: string | null;
  /** When the last close was made, or null. */
  closedAt: string | null;
  /** Today (in the newspaper's time zone) is closed: cash moved now goes into the next day's close. */
  closedToday: boolean;
  /** The days with movements no close has counted yet, oldest first: the next close covers them all. */
  openDays: { day: string; movements: number }[];
  /** Where the till stands, as the DSFinV-K's Stamm_Orte names it; an empty field: the paper's address. */
  location: TillLocation;
  /** The coins and notes a count lists, in minor units, largest first: the country's (country/presets.ts). */
  denominations: readonly number[];
}

export interface TillLocation {
  name: string;
  street: string;
  postcode: string;
  town: string;
}

interface TillRow {
  id: number;
  name: string;
  opening_balance: number | string;
  balance: number | string;
  closed_until: string | null;
  closed_at: Date | string | null;
  closed_today: boolean | null;
  open_days: { day: string; movements: number }[] | string;
  location_name: string;
  location_street: string;
  location_postcode: string;
  location_town: string;
  country: string;
}

/** Tills with their balance and what their next close covers, in one statement; one till by `id`. */
async function tills(db: Db, timeZone: string, id?: number): Promise<Till[]> {
  const { rows } = await db.raw<{ rows: TillRow[] }>(
    `select t.id, t.name, t.opening_balance, ${tillBalanceSql('t')} as balance,
       t.location_name, t.location_street, t.location_postcode, t.location_town,
       (select s.country from settings s where s.id = 1) as country,
       to_char(c.day, 'YYYY-MM-DD') as closed_until, c.created_at as closed_at,
       c.day = (now() at time zone ?)::date as closed_today,
       (select coalesce(json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'), 'movements', d.n) order by d.day), '[]')
        from (select m.day, count(*)::integer as n from cash_movements m
              where m.till_id = t.id and m.id > coalesce(c.last_movement_id, 0) group by m.day) d) as open_days
     from tills t
     left join lateral (select day, created_at, last_movement_id from till_closes
                        where till_id = t.id order by day desc, id desc limit 1) c on true
     ${id === undefined ? '' : 'where t.id = ?'}
     order by t.id`,
    id === undefined ? [timeZone] : [timeZone, id],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    openingBalance: Number(row.opening_balance),
    balance: Number(row.balance),
    closedUntil: row.closed_until,
    closedAt: toIso(row.closed_at) ?? null,
    closedToday: row.closed_today === true,
    openDays:
      typeof row.open_days === 'string'
        ? (JSON.parse(row.open_days) as { day: string; movements: number }[])
        : row.open_days,
    location: {
      name: row.location_name,
      street: row.location_street,
      postcode: row.location_postcode,
      town: row.location_town,
    },
    denominations: presetOf(row.country).denominations.values,
  }));
}

export const listTills = (db: Db, timeZone: string): Promise<Till[]> => tills(db, timeZone);

/** One till; not every till's balance to find it (a till screen, a close, the protocol read one). */
export async function findTill(db: Db, id: number, timeZone: string): Promise<Till | undefined> {
  return (await tills(db, timeZone, id))[0];
}

/** The local date today in the newspaper's time zone, YYYY-MM-DD. */
export async function localToday(db: Db, timeZone: string): Promise<string> {
  const { rows } = await db.raw<{ rows: { day: string }[] }>(
    `select to_char(now() at time zone ?, 'YYYY-MM-DD') as day`,
    [timeZone],
  );
  return oneRow(rows).day;
}

export interface CashMovement {
  id: number;
  voucher: string;
  day: string;
  createdAt: string;
  kind: string;
  counterpart: string;
  vendor: { id: number; licenseId: string; name: string } | null;
  reason: string;
  staff: string;
  amountIn: number;
  amountOut: number;
  balance: number;
  counterVisitId: string | null;
  /** A reversal's movement: the voucher of the payout it reverses ("Storno zu …"). */
  reverses: string | null;
}

interface MovementRow {
  id: number;
  till_id: number;
  year: number;
  voucher_number: number;
  day: string;
  created_at: Date | string;
  kind: string;
  counterpart: string;
  vendor_id: number | null;
  license_id: string | null;
  first_name: string | null;
  last_name: string | null;
  reason: string;
  staff: string;
  amount: number;
  balance: number;
  counter_visit_id: string | null;
  reverses: string | null;
}

function movementToApi(row: MovementRow): CashMovement {
  const amount = Number(row.amount);
  return {
    id: Number(row.id),
    voucher: voucherLabel(row.till_id, row.year, row.voucher_number),
    day: row.day,
    createdAt: toIso(row.created_at)!,
    kind: row.kind,
    counterpart: row.counterpart,
    vendor:
      row.vendor_id === null
        ? null
        : {
            id: row.vendor_id,
            licenseId: row.license_id!,
            name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim(),
          },
    reason: row.reason,
    staff: row.staff,
    amountIn: amount > 0 ? amount : 0,
    amountOut: amount < 0 ? -amount : 0,
    balance: Number(row.balance),
    counterVisitId: row.counter_visit_id,
    reverses: row.reverses,
  };
}

/** The cash book of a till in booking order, optionally from and to a local day (inclusive). */
export async function cashBook(
  db: Db,
  tillId: number,
  { from, to }: { from?: string; to?: string } = {},
): Promise<CashMovement[]> {
  const query = db('cash_movements as m')
    .leftJoin('vendors as v', 'v.id', 'm.vendor_id')
    .where('m.till_id', tillId)
    .orderBy('m.id')
    .select(
      'm.id',
      'm.till_id',
      'm.year',
      'm.voucher_number',
      db.raw(`to_char(m.day, 'YYYY-MM-DD') as day`),
      'm.created_at',
      'm.kind',
      'm.counterpart',
      'm.vendor_id',
      'v.license_id',
      'v.first_name',
      'v.last_name',
      'm.reason',
      'm.staff',
      'm.amount',
      'm.balance',
      'm.counter_visit_id',
      db.raw(`case when m.kind = 'payout_reversal' then ${reversedVoucherSql('m.ledger_row_id')} end as reverses`),
    );
  if (from) query.where('m.day', '>=', from);
  if (to) query.where('m.day', '<=', to);
  return ((await query) as MovementRow[]).map(movementToApi);
}

export interface TillClose {
  id: number;
  tillId: number;
  tillName: string;
  day: string;
  openingBalance: number;
  expected: number;
  counted: number;
  difference: number;
  denominations: Record<string, number> | null;
  reason: string | null;
  staff: string;
  createdAt: string;
  /** The last movement the close covers (its difference, if any); null while the till had none. */
  lastMovementId: number | null;
}

const closeColumns = (db: Db) => [
  'c.id',
  'c.till_id',
  't.name as till_name',
  db.raw(`to_char(c.day, 'YYYY-MM-DD') as day`),
  'c.opening_balance',
  'c.expected',
  'c.counted',
  'c.difference',
  'c.denominations',
  'c.reason',
  'c.staff',
  'c.created_at',
  'c.last_movement_id',
];

function closeToApi(row: Record<string, unknown>): TillClose {
  return {
    id: Number(row.id),
    tillId: Number(row.till_id),
    tillName: row.till_name as string,
    day: row.day as string,
    openingBalance: Number(row.opening_balance),
    expected: Number(row.expected),
    counted: Number(row.counted),
    difference: Number(row.difference),
    denominations:
      typeof row.denominations === 'string'
        ? (JSON.parse(row.denominations) as Record<string, number>)
        : (row.denominations as Record<string, number> | null),
    reason: row.reason as string | null,
    staff: row.staff as string,
    createdAt: toIso(row.created_at as Date)!,
    lastMovementId: row.last_movement_id === null ? null : Number(row.last_movement_id),
  };
}

export async function listCloses(db: Db, tillId?: number): Promise<TillClose[]> {
  const query = db('till_closes as c')
    .join('tills as t', 't.id', 'c.till_id')
    .orderBy('c.day', 'desc')
    .orderBy('c.id', 'desc')
    .select(closeColumns(db));
  if (tillId) query.where('c.till_id', tillId);
  return (await query.select<Record<string, unknown>[]>()).map(closeToApi);
}

export async function findClose(db: Db, id: number): Promise<TillClose | undefined> {
  const row = await db('till_closes as c')
    .join('tills as t', 't.id', 'c.till_id')
    .where('c.id', id)
    .first<Record<string, unknown> | undefined>(closeColumns(db));
  return row ? closeToApi(row) : undefined;
}

const reportOrder = [
  'counter_cash',
  'income',
  'bank_withdrawal',
  'payout_reversal',
  'payout',
  'expense',
  'bank_deposit',
];

export interface CloseKindTotal {
  kind: string;
  count: number;
  amountIn: number;
  amountOut: number;
}

/** One calendar day of a close's movements: its movements by kind, its totals, the balance it ended with. */
export interface CloseDay {
  day: string;
  kinds: CloseKindTotal[];
  count: number;
  amountIn: number;
  amountOut: number;
  closingBalance: number;
}

/**
 * The movements a close covers (after the previous close's last movement, up to its own), day by
 * day and summed by kind, ins first: the Kassenbericht's middle. A till closed for the first time
 * after weeks lists each of those days. The close's own difference is its own line below the count,
 * not here.
 */
export async function closeDays(db: Db, close: TillClose): Promise<CloseDay[]> {
  if (close.lastMovementId === null) return [];
  const previous = await db('till_closes')
    .where({ till_id: close.tillId })
    .where('day', '<', close.day)
    .orderBy('day', 'desc')
    .first<{ last_movement_id: number | string | null } | undefined>('last_movement_id');
  const covered = (q: Knex.QueryBuilder) => {
    q.where({ till_id: close.tillId }).where('id', '<=', close.lastMovementId).whereNot('kind', 'difference');
    if (previous?.last_movement_id) q.where('id', '>', previous.last_movement_id);
    return q;
  };
  const byKind = await covered(db('cash_movements'))
    .groupBy('day', 'kind')
    .select<{ day: string; kind: string; count: number; amount_in: number | string; amount_out: number | string }[]>(
      db.raw(`to_char(day, 'YYYY-MM-DD') as day`),
      'kind',
      db.raw('count(*)::integer as count'),
      db.raw('coalesce(sum(amount) filter (where amount > 0), 0)::bigint as amount_in'),
      db.raw('coalesce(-sum(amount) filter (where amount < 0), 0)::bigint as amount_out'),
    );
  const closing = await covered(db('cash_movements'))
    .groupBy('day')
    .orderBy('day')
    .select<{ day: string; balance: number | string }[]>(
      db.raw(`to_char(day, 'YYYY-MM-DD') as day`),
      db.raw('(array_agg(balance order by id desc))[1] as balance'),
    );
  return closing.map(({ day, balance }) => {
    const kinds = byKind
      .filter((row) => row.day === day)
      .map((row) => ({
        kind: row.kind,
        count: row.count,
        amountIn: Number(row.amount_in),
        amountOut: Number(row.amount_out),
      }))
      .sort((a, b) => reportOrder.indexOf(a.kind) - reportOrder.indexOf(b.kind));
    return {
      day,
      kinds,
      count: kinds.reduce((sum, k) => sum + k.count, 0),
      amountIn: kinds.reduce((sum, k) => sum + k.amountIn, 0),
      amountOut: kinds.reduce((sum, k) => sum + k.amountOut, 0),
      closingBalance: Number(balance),
    };
  });
}

export interface VisitLineApi {
  itemId: number;
  itemName: string;
  quantity: number;
  unitPrice: number;
  /** Cents, VAT included. */
  amount: number;
  /** The VAT rate the copies were sold at, in percent (7, 5.5). */
  vatRate: number;
  /** The VAT in `amount`, in cents (ledger/vat.ts). */
  vat: number;
}

/** A line of what a visit's payout settled (ledger/payout-lines.ts). */
export interface SettledLine {
  /** The item's name; empty for a line without an item. */
  label: string;
  kind: PayoutLineKind;
  /** Pieces net of refunds; null for a line without pieces (tips, fees, cash). */
  quantity: number | null;
  amount: number;
}

export interface Visit {
  id: string;
  createdAt: string;
  staff: string;
  vendor: { id: number; licenseId: string; name: string };
  till: { id: number; name: string };
  creditBefore: number;
  copiesAmount: number;
  fromCredit: number;
  cashPaid: number;
  /**
   * What rounding the cash to the country's smallest coin took off the copies' price (+) or added
   * (−): 13.47 CHF in cash is paid as 13.45, rounding 2.
   */
  cashRounding: number;
  /** Cash handed over beyond the price, and the change given back (0 when none). */
  cashTendered: number;
  change: number;
  lines: VisitLineApi[];
  /** The copies' VAT per rate (percent), highest rate first: what the receipt states as the invoice's tax. */
  vatTotals: { rate: number; gross: number; vat: number }[];
  /** The payout's voucher is its cash movement's (ledger/vouchers.ts). */
  payout: { id: number; voucher: string; amount: number } | null;
  /** What the payout settled besides this visit's own rows, one line per item or kind; fees net of their cover. */
  settled: SettledLine[];
  creditAfter: number;
  vouchers: string[];
}

interface VisitRow {
  id: string;
  vendor_id: number;
  till_id: number;
  copies_amount: number | string;
  from_credit: number | string;
  cash_paid: number | string;
  cash_rounding: number | string;
  cash_tendered: number | string | null;
  credit_before: number | string;
  payout_id: number | null;
  staff: string;
  created_at: Date;
  license_id: string;
  first_name: string;
  last_name: string | null;
  till_name: string;
  payout_voucher: string | null;
  payout_amount: number | string | null;
}

export async function findVisit(db: Db, id: string): Promise<Visit | undefined> {
  const visit = await db('counter_visits as cv')
    .join('vendors as v', 'v.id', 'cv.vendor_id')
    .join('tills as t', 't.id', 'cv.till_id')
    .leftJoin('payouts as p', 'p.id', 'cv.payout_id')
    .where('cv.id', id)
    .first<VisitRow | undefined>(
      'cv.*',
      'v.license_id',
      'v.first_name',
      'v.last_name',
      't.name as till_name',
      db.raw(`case when p.id is null then null else ${payoutVoucherSql('p')} end as payout_voucher`),
      'p.amount as payout_amount',
    );
  if (!visit) return undefined;
  const lines = await db('ledger_rows as r')
    .join('items as i', 'i.id', 'r.item_id')
    .where({ 'r.counter_visit_id': id, 'r.kind': 'counter_sale' })
    .orderBy('r.id')
    .select<
      { item_id: number; name: string; quantity: number; unit_price: number; amount: number; vat_rate: number }[]
    >(
      'r.item_id',
      'i.name',
      'r.quantity',
      'r.unit_price',
      'r.amount',
      // A row booked before rates were kept (migration 029) takes today's rate of its item.
      db.raw('coalesce(r.vat_rate, i.vat_rate, (select s.vat_rate from settings s where s.id = 1)) as vat_rate'),
    );
  // What the payout settled besides this visit's own rows, as the payout's receipt prints it too.
  const settled = visit.payout_id ? await payoutLines(db, visit.payout_id, { exceptVisit: id }) : [];
  const vouchers = await db('cash_movements as m')
    .where('m.counter_visit_id', id)
    .orWhereIn(
      'm.ledger_row_id',
      db('ledger_rows')
        .where({ payout_id: visit.payout_id ?? 0, kind: 'payout' })
        .select('id'),
    )
    .orderBy('m.id')
    .select<{ till_id: number; year: number; voucher_number: number }[]>('m.till_id', 'm.year', 'm.voucher_number');
  const payoutAmount = visit.payout_id ? Number(visit.payout_amount) : 0;
  return {
    id: visit.id,
    createdAt: toIso(visit.created_at)!,
    staff: visit.staff,
    vendor: {
      id: visit.vendor_id,
      licenseId: visit.license_id,
      name: `${visit.first_name} ${visit.last_name ?? ''}`.trim(),
    },
    till: { id: visit.till_id, name: visit.till_name },
    creditBefore: Number(visit.credit_before),
    copiesAmount: Number(visit.copies_amount),
    fromCredit: Number(visit.from_credit),
    cashPaid: Number(visit.cash_paid),
    cashRounding: Number(visit.cash_rounding),
    cashTendered: Number(visit.cash_tendered ?? visit.cash_paid),
    change: Number(visit.cash_tendered ?? visit.cash_paid) - Number(visit.cash_paid),
    lines: lines.map((l) => ({
      itemId: l.item_id,
      itemName: l.name,
      quantity: l.quantity,
      unitPrice: l.unit_price,
      amount: Number(l.amount),
      vatRate: vatPercent(l.vat_rate),
      vat: vatIncluded(Number(l.amount), l.vat_rate),
    })),
    vatTotals: vatByRate(lines.map((l) => ({ gross: Number(l.amount), rate: l.vat_rate }))).map((sum) => ({
      ...sum,
      rate: vatPercent(sum.rate),
    })),
    payout:
      visit.payout_id !== null && visit.payout_voucher !== null
        ? { id: visit.payout_id, voucher: visit.payout_voucher, amount: payoutAmount }
        : null,
    settled: settled.map((line) => ({
      label: line.itemName ?? '',
      kind: line.kind,
      quantity: line.quantity,
      amount: line.amount,
    })),
    creditAfter: Number(visit.credit_before) - Number(visit.from_credit) - payoutAmount,
    vouchers: vouchers.map((v) => voucherLabel(v.till_id, v.year, v.voucher_number)),
  };
}

export interface VisitSummary {
  id: string;
  createdAt: string;
  vendor: { id: number; licenseId: string; name: string };
  tillId: number;
  copiesAmount: number;
  fromCredit: number;
  cashPaid: number;
  payoutAmount: number;
  staff: string;
}

/** The latest counter visits, newest first, optionally of one vendor. */
export async function recentVisits(
  db: Db,
  { vendorId, limit = 50 }: { vendorId?: number; limit?: number } = {},
): Promise<VisitSummary[]> {
  const query = db('counter_visits as cv')
    .join('vendors as v', 'v.id', 'cv.vendor_id')
    .leftJoin('payouts as p', 'p.id', 'cv.payout_id')
    .orderBy('cv.created_at', 'desc')
    .orderBy('cv.id')
    .limit(limit)
    .select('cv.*', 'v.license_id', 'v.first_name', 'v.last_name', 'p.amount as payout_amount');
  if (vendorId) query.where('cv.vendor_id', vendorId);
  return (await query.select<Record<string, unknown>[]>()).map((row) => ({
    id: row.id as string,
    createdAt: toIso(row.created_at as Date)!,
    vendor: {
      id: row.vendor_id as number,
      licenseId: row.license_id as string,
      name: `${row.first_name as string} ${(row.last_name as string | null) ?? ''}`.trim(),
    },
    tillId: row.till_id as number,
    copiesAmount: Number(row.copies_amount),
    fromCredit: Number(row.from_credit),
    cashPaid: Number(row.cash_paid),
    payoutAmount: Number(row.payout_amount ?? 0),
    staff: row.staff as string,
  }));
}
