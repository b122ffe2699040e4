import type { Knex } from 'knex';
import { kindLabel } from '../ledger/kinds.ts';
import { isRefundSql, salesAndTheirRefundsSql } from '../ledger/refund.ts';
import { independentReads } from '../db/reads.ts';
import { oneRow } from '../foundations/one-row.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import { localDay, localMidnight, nextDay } from '../foundations/period.ts';

type Db = Knex | Knex.Transaction;

export type Granularity = 'day' | 'week' | 'month';

export interface StatisticsPeriod {
  from: Date;
  to: Date;
}

export interface ItemSales {
  /** null for tips and donations, which belong to no item. */
  itemId: number | null;
  itemName: string | null;
  quantity: number;
  amount: number;
}

export interface SeriesPoint {
  /** The local day the day, week (Monday) or month starts, "2026-05-01". */
  period: string;
  amount: number;
  quantity: number;
  orders: number;
}

export interface Statistics {
  from: string;
  to: string;
  granularity: Granularity;
  items: ItemSales[];
  /** Copies the vendors bought at the counter, per item. */
  counterItems: ItemSales[];
  series: SeriesPoint[];
  vendors: { active: number; total: number; percent: number };
}

/** Days for short periods, weeks up to a year, months beyond: a chart stays readable. */
export function granularityOf(period: StatisticsPeriod): Granularity {
  const days = (period.to.getTime() - period.from.getTime()) / 86_400_000;
  return days <= 62 ? 'day' : days <= 366 ? 'week' : 'month';
}

/** The last 30 local days, today included. */
export function defaultPeriod(now: Date, timeZone: string): StatisticsPeriod {
  const tomorrow = nextDay(localDay(now, timeZone));
  const start = new Date(Date.parse(`${tomorrow}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10);
  return { from: localMidnight(start, timeZone), to: localMidnight(tomorrow, timeZone) };
}

/** The first day of the bucket holding a local day: itself, its week's Monday, or its month's first. */
function bucketStart(day: string, granularity: Granularity): string {
  if (granularity === 'month') return `${day.slice(0, 8)}01`;
  if (granularity === 'day') return day;
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
}

function nextBucket(start: string, granularity: Granularity): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (granularity === 'month') date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCDate(date.getUTCDate() + (granularity === 'week' ? 7 : 1));
  return date.toISOString().slice(0, 10);
}

/** Every bucket of the period, so a chart shows the quiet days too. */
function buckets(period: StatisticsPeriod, granularity: Granularity, timeZone: string): string[] {
  const last = localDay(new Date(period.to.getTime() - 1), timeZone);
  const starts: string[] = [];
  for (
    let start = bucketStart(localDay(period.from, timeZone), granularity);
    start <= last;
    start = nextBucket(start, granularity)
  ) {
    starts.push(start);
  }
  return starts;
}

/**
 * Sales of a period: the rows between the customers' account and a vendor's. Sales and tips
 * (customers → vendor) count, their refunds (vendor → customers) subtract; a refund of a licence
 * share is no sale. Per item and per local day/week/month; orders are the paid orders of each
 * bucket (paying books an order's rows in the same transaction, so at the same time). Vendor
 * activity: vendors with a sale in the period among all active vendors (plus those who sold in the
 * period and have left since, so the share never passes 100 %).
 *
 * A row finds its bucket by the buckets' starting instants (local midnights, computed here), which
 * is much cheaper per row than converting every timestamp to local time in SQL.
 */
/** The point of a 1-based width_bucket() number; the query only counts rows inside the bounds it was given. */
function bucketOf<T>(series: T[], bucket: number): T {
  const point = series[bucket - 1];
  if (point === undefined) throw new Error(`Bucket ${bucket} lies outside the ${series.length} of the period`);
  return point;
}

export async function salesStatistics(db: Db, period: StatisticsPeriod, timeZone: string): Promise<Statistics> {
  const granularity = granularityOf(period);
  const starts = buckets(period, granularity, timeZone);
  const bounds = starts.map((day) => localMidnight(day, timeZone).toISOString());
  const [{ rows: sums }, { rows: orders }, vendors, counterItems] = await independentReads<
    [
      { rows: { bucket: number; item_id: number | null; refund: boolean; amount: number; quantity: number }[] },
      { rows: { bucket: number; orders: number }[] },
      Statistics['vendors'],
      ItemSales[],
    ]
  >(
    db,
    async () =>
      db.raw(
        `select width_bucket(r.created_at, ?::timestamptz[]) as bucket, r.item_id, ${isRefundSql('r')} as refund,
        sum(r.amount)::bigint as amount, coalesce(sum(r.quantity), 0)::bigint as quantity
      from ledger_rows r
      where ${salesAndTheirRefundsSql('r')} and r.created_at >= ? and r.created_at < ?
      group by 1, 2, 3`,
        [bounds, period.from, period.to],
      ),
    async () =>
      db.raw(
        `select width_bucket(paid_at, ?::timestamptz[]) as bucket, count(*)::bigint as orders
      from orders where status in ('paid', 'refunded') and paid_at >= ? and paid_at < ? group by 1`,
        [bounds, period.from, period.to],
      ),
    () => vendorActivity(db, period),
    () => counterSales(db, period),
  );

  const series = starts.map((start) => ({ period: start, amount: 0, quantity: 0, orders: 0 }));
  const byItem = new Map<number | null, ItemSales>();
  for (const row of sums) {
    const sign = row.refund ? -1 : 1;
    const point = bucketOf(series, row.bucket);
    const item = byItem.get(row.item_id) ?? { itemId: row.item_id, itemName: null, quantity: 0, amount: 0 };
    byItem.set(row.item_id, item);
    for (const total of [point, item]) {
      total.amount += sign * row.amount;
      total.quantity += sign * row.quantity;
    }
  }
  for (const row of orders) bucketOf(series, row.bucket).orders = row.orders;
  const names = await db('items')
    .whereIn(
      'id',
      [...byItem.keys()].filter((id) => id !== null),
    )
    .select<{ id: number; name: string }[]>('id', 'name');
  for (const { id, name } of names) byItem.get(id)!.itemName = name;
  const items = [...byItem.values()].sort((a, b) => b.amount - a.amount || (a.itemId ?? 0) - (b.itemId ?? 0));

  return {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    granularity,
    items,
    counterItems,
    series,
    vendors,
  };
}

/** The copies vendors bought at the counter in the period, per item, most first. */
async function counterSales(db: Db, period: StatisticsPeriod): Promise<ItemSales[]> {
  const rows: { item_id: number; name: string; quantity: number; amount: number }[] = await db('ledger_rows as r')
    .join('items as i', 'i.id', 'r.item_id')
    .where('r.kind', 'counter_sale')
    .where('r.created_at', '>=', period.from)
    .where('r.created_at', '<', period.to)
    .groupBy('r.item_id', 'i.name')
    .orderByRaw('sum(r.quantity) desc, r.item_id')
    .select(
      'r.item_id',
      'i.name',
      db.raw('sum(r.quantity)::bigint as quantity'),
      db.raw('sum(r.amount)::bigint as amount'),
    );
  return rows.map((row) => ({
    itemId: row.item_id,
    itemName: row.name,
    quantity: Number(row.quantity),
    amount: Number(row.amount),
  }));
}

async function vendorActivity(db: Db, period: StatisticsPeriod): Promise<Statistics['vendors']> {
  const { rows } = await db.raw<{ rows: { active: number; total: number }[] }>(
    `with sellers as (
      select a.vendor_id from ledger_accounts a
      where a.kind = 'vendor' and exists (
        select 1 from ledger_rows r where r.receiver_id = a.id and r.kind = 'sale' and r.created_at >= ? and r.created_at < ?
      )
    )
    select (select count(*) from sellers)::bigint as active,
      (select count(*) from vendors v
        where (v.deleted_at is null and not v.is_disabled) or v.id in (select vendor_id from sellers))::bigint as total`,
    [period.from, period.to],
  );
  const { active, total } = oneRow(rows);
  return { active, total, percent: total ? Math.round((active / total) * 1000) / 10 : 0 };
}

export const itemCsvColumns: CsvColumn<ItemSales>[] = [
  {
    header: 'Item',
    value: (i, language) => i.itemName ?? (i.itemId === null ? kindLabel('tip', language) : `#${i.itemId}`),
  },
  { header: 'Quantity', value: (i) => i.quantity },
  { header: 'Amount', value: (i) => i.amount, format: 'cents' },
];

export const seriesCsvColumns: CsvColumn<SeriesPoint>[] = [
  { header: 'Period from', value: (s) => s.period.split('-').reverse().join('.') },
  { header: 'Orders', value: (s) => s.orders },
  { header: 'Quantity', value: (s) => s.quantity },
  { header: 'Amount', value: (s) => s.amount, format: 'cents' },
];
