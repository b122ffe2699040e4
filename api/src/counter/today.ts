import type { Knex } from 'knex';
import { openCreditTotal } from '../ledger/queries.ts';
import { oneRow } from '../foundations/one-row.ts';
import { listTills, type Till } from './tills.ts';

// The office's start screen: today's figures in the newspaper's time zone, the tills with the
// earlier days whose cash no close has counted yet, the vendors' open credit, open warnings, orders
// to look at.

type Db = Knex | Knex.Transaction;

export interface OfficeToday {
  day: string;
  cardSales: { orders: number; amount: number };
  payouts: { count: number; amount: number };
  counterCopies: { itemId: number; itemName: string; quantity: number; amount: number }[];
  /** `unclosedDays`: days before today with movements no close has counted (the next close covers them). */
  tills: (Till & { unclosedDays: Till['openDays'] })[];
  openCredit: { vendors: number; amount: number };
  warnings: { id: number; vendorId: number; licenseId: string; comment: string; createdAt: string }[];
  ordersToCheck: { flagged: number; pending: number };
}

export async function officeToday(db: Db, timeZone: string): Promise<OfficeToday> {
  // The local day as a half-open range of instants, so each sum reads its created_at index.
  const { rows: boundsRows } = await db.raw<{ rows: { day: string; start: Date; end: Date }[] }>(
    `select to_char(d, 'YYYY-MM-DD') as day,
       (d::timestamp at time zone ?) as start, ((d + 1)::timestamp at time zone ?) as end
     from (select (now() at time zone ?)::date as d) x`,
    [timeZone, timeZone, timeZone],
  );
  const bounds = oneRow(boundsRows);
  const inDay = (q: Knex.QueryBuilder, column: string) =>
    q.where(column, '>=', bounds.start).where(column, '<', bounds.end);

  const sales = await inDay(db('orders').whereIn('status', ['paid', 'refunded']), 'paid_at').first<
    { orders: number; amount: number | string } | undefined
  >(db.raw('count(*)::integer as orders'), db.raw('coalesce(sum(amount_total), 0)::bigint as amount'));
  const payouts = await inDay(db('payouts').whereNull('reversed_at'), 'created_at').first<
    { count: number; amount: number | string } | undefined
  >(db.raw('count(*)::integer as count'), db.raw('coalesce(sum(amount), 0)::bigint as amount'));
  const copies = await inDay(
    db('ledger_rows as r').join('items as i', 'i.id', 'r.item_id').where('r.kind', 'counter_sale'),
    'r.created_at',
  )
    .groupBy('r.item_id', 'i.name')
    .orderBy('i.name')
    .select<{ item_id: number; name: string; quantity: number; amount: number | string }[]>(
      'r.item_id',
      'i.name',
      db.raw('sum(r.quantity)::integer as quantity'),
      db.raw('sum(r.amount)::bigint as amount'),
    );
  const credit = await openCreditTotal(db);
  const warnings = await db('vendor_comments as c')
    .join('vendors as v', 'v.id', 'c.vendor_id')
    .where({ 'c.warning': true })
    .whereNull('c.resolved_at')
    .whereNull('v.deleted_at')
    .orderBy('c.created_at', 'desc')
    .limit(20)
    .select<{ id: number; vendor_id: number; license_id: string; comment: string; created_at: Date }[]>(
      'c.id',
      'c.vendor_id',
      'v.license_id',
      'c.comment',
      'c.created_at',
    );
  // Only these two states count, so the partial index on them answers instead of a read of every order.
  const orders = await db('orders')
    .whereIn('status', ['flagged', 'pending'])
    .first<{ flagged: number; pending: number } | undefined>(
      db.raw(`(count(*) filter (where status = 'flagged'))::integer as flagged`),
      // still pending after their checkout expired: the reconciliation has not settled them
      db.raw(`(count(*) filter (where status = 'pending' and expires_at < now()))::integer as pending`),
    );
  const tills = await listTills(db, timeZone);
  return {
    day: bounds.day,
    cardSales: { orders: sales?.orders ?? 0, amount: Number(sales?.amount ?? 0) },
    payouts: { count: payouts?.count ?? 0, amount: Number(payouts?.amount ?? 0) },
    counterCopies: copies.map((row) => ({
      itemId: row.item_id,
      itemName: row.name,
      quantity: row.quantity,
      amount: Number(row.amount),
    })),
    tills: tills.map((till) => ({
      ...till,
      unclosedDays: till.openDays.filter((open) => open.day < bounds.day),
    })),
    openCredit: credit,
    warnings: warnings.map((w) => ({
      id: w.id,
      vendorId: w.vendor_id,
      licenseId: w.license_id,
      comment: w.comment,
      createdAt: new Date(w.created_at).toISOString(),
    })),
    ordersToCheck: { flagged: orders?.flagged ?? 0, pending: orders?.pending ?? 0 },
  };
}
