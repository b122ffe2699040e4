import type { Knex } from 'knex';
import { toIso } from '../foundations/dates.ts';

// The closes of the tills and what each covered, day by day, as the cash report prints them.

type Db = Knex | Knex.Transaction;

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
