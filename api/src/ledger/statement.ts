import type { Knex } from 'knex';
import type { LedgerKind } from './kinds.ts';
import { withVendorMoney, type VendorMoneyColumns } from './queries.ts';
import { payoutVoucherSql, rowVoucherSql } from './vouchers.ts';
import { nextTurn } from '../foundations/event-loop.ts';

type Db = Knex | Knex.Transaction;

// A vendor's statement for a period: what their credit was at its start, every movement in it, and
// what it was at its end. The credit has one definition (queries.ts, the open rows); a past credit
// is today's credit minus every movement since then, so the statement cannot disagree with the
// credit the office pays out. Every row moves money between two accounts, so the movements of the
// period are exactly opening → closing.

/** The movements of one kind (and item, where the kind has one), signed from the vendor's side. */
export interface StatementLine {
  kind: LedgerKind;
  itemId: number | null;
  itemName: string | null;
  /** Copies for a row with a quantity, else rows (tips, fees). */
  count: number;
  /** Cents; positive the vendor received, negative the vendor gave. */
  amount: number;
}

/** A payout or a reversal of one, with its voucher: its own cash movement's (ledger/vouchers.ts). */
export interface StatementVoucher {
  kind: 'payout' | 'payout_reversal';
  at: string;
  payoutId: number;
  voucher: string;
  /** A reversal: the voucher of the payout it reverses. */
  reverses: string | null;
  /** Signed like the lines: a payout negative, its reversal positive. */
  amount: number;
}

/** The sums a reader looks for first, each signed from the vendor's side. */
export interface StatementFigures {
  sales: number;
  tips: number;
  licences: number;
  /** Card fees the vendor bore: every fee minus the ones the newspaper covered. */
  feesBorne: number;
  /** Copies bought at the counter, and the cash the vendor paid for them. */
  counter: number;
  payouts: number;
  reversals: number;
  /** Refunds and chargebacks: money taken back from (or returned to) the vendor. */
  other: number;
}

export interface Statement {
  vendorId: number;
  openingCredit: number;
  lines: StatementLine[];
  vouchers: StatementVoucher[];
  figures: StatementFigures;
  closingCredit: number;
}

export interface StatementPeriod {
  from: Date;
  to: Date;
}

/** The order in which the lines are read: earnings first, then what goes to the newspaper, then payouts. */
const lineOrder: LedgerKind[] = [
  'sale',
  'tip',
  'licence',
  'fee',
  'fee_cover',
  'counter_sale',
  'counter_cash',
  'refund',
  'refund_failed',
  'dispute_vendor',
  'dispute_won',
  'payout',
  'payout_reversal',
];

/** Which figure each kind adds to; the kinds that never touch a vendor's account are not here. */
const figureOf: Partial<Record<LedgerKind, keyof StatementFigures>> = {
  sale: 'sales',
  tip: 'tips',
  licence: 'licences',
  fee: 'feesBorne',
  fee_cover: 'feesBorne',
  counter_sale: 'counter',
  counter_cash: 'counter',
  payout: 'payouts',
  payout_reversal: 'reversals',
};

const iso = (value: Date | string) => new Date(value).toISOString();

/** Vendors' statements put together in one turn of the event loop. */
const vendorsPerTurn = 100;

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

// Every row of the vendors' accounts from `from` on, signed from the account's side: one branch per
// side, as the open-row indexes and the credit read them. `$accounts` is a trusted subquery.
export const signedRowsSince = (accounts: string) => `
  select a.vendor_id, r.id, r.kind, r.item_id, r.quantity, r.created_at, r.payout_id, r.reversal_of, r.amount as signed
  from (${accounts}) a join ledger_rows r on r.receiver_id = a.id where r.created_at >= ?
  union all
  select a.vendor_id, r.id, r.kind, r.item_id, r.quantity, r.created_at, r.payout_id, r.reversal_of, -r.amount
  from (${accounts}) a join ledger_rows r on r.sender_id = a.id where r.created_at >= ?`;

interface MovementRow {
  vendor_id: number;
  in_period: boolean;
  kind: LedgerKind;
  item_id: number | null;
  item_name: string | null;
  count: number | string;
  amount: number | string;
}

interface VoucherRow {
  vendor_id: number;
  kind: 'payout' | 'payout_reversal';
  created_at: Date | string;
  payout_id: number;
  voucher: string;
  reverses: string | null;
  signed: number | string;
}

/**
 * The statements of the given vendors (or, with `'all'`, of every vendor whose account moved in
 * the period or held a credit at its start), in three reads whatever their number.
 */
export async function statements(db: Db, vendorIds: number[] | 'all', period: StatementPeriod): Promise<Statement[]> {
  const accounts =
    vendorIds === 'all'
      ? `select id, vendor_id from ledger_accounts where vendor_id is not null`
      : `select id, vendor_id from ledger_accounts where vendor_id = any(?::integer[])`;
  const accountBindings = vendorIds === 'all' ? [] : [vendorIds];
  const since = [...accountBindings, period.from, ...accountBindings, period.from];

  const { rows: movements } = await db.raw<{ rows: MovementRow[] }>(
    `select m.vendor_id, m.created_at < ? as in_period, m.kind, m.item_id, i.name as item_name,
       sum(coalesce(m.quantity, 1))::bigint as count, sum(m.signed)::bigint as amount
     from (${signedRowsSince(accounts)}) m
     left join items i on i.id = m.item_id
     group by 1, 2, 3, 4, 5
     order by 1, 4`,
    [period.to, ...since],
  );
  const { rows: voucherRows } = await db.raw<{ rows: VoucherRow[] }>(
    `select m.vendor_id, m.kind, m.created_at, p.id as payout_id,
       coalesce(${rowVoucherSql('m.id')}, p.receipt_number) as voucher,
       case when m.kind = 'payout_reversal' then ${payoutVoucherSql('p')} end as reverses, m.signed
     from (${signedRowsSince(accounts)}) m
     left join ledger_rows reversed on reversed.id = m.reversal_of
     join payouts p on p.id = case when m.kind = 'payout' then m.payout_id else reversed.payout_id end
     where m.kind in ('payout', 'payout_reversal') and m.created_at < ?
     order by m.vendor_id, m.created_at, m.id`,
    [...since, period.to],
  );
  const vendorsQuery = db('vendors').select('vendors.id');
  if (vendorIds !== 'all') vendorsQuery.whereIn('vendors.id', vendorIds);
  else vendorsQuery.whereIn('vendors.id', db('ledger_accounts').whereNotNull('vendor_id').select('vendor_id'));
  const credits = (await withVendorMoney(vendorsQuery, 'vendors.id').orderBy('vendors.id')) as ({
    id: number;
  } & VendorMoneyColumns)[];

  // By vendor once, not filtered per vendor: a year of every vendor is tens of thousands of groups.
  const movementsOf = groupBy(movements, (m) => m.vendor_id);
  const vouchersOf = groupBy(voucherRows, (v) => v.vendor_id);
  const result: Statement[] = [];
  for (const [index, vendor] of credits.entries()) {
    // Every vendor's year is tens of thousands of groups: other requests are served between slices.
    if (index > 0 && index % vendorsPerTurn === 0) await nextTurn();
    const own = movementsOf.get(vendor.id) ?? [];
    const later = own.filter((m) => !m.in_period).reduce((sum, m) => sum + Number(m.amount), 0);
    const lines = own
      .filter((m) => m.in_period)
      .map((m) => ({
        kind: m.kind,
        itemId: m.item_id,
        itemName: m.item_name,
        count: Number(m.count),
        amount: Number(m.amount),
      }))
      .sort((a, b) => lineOrder.indexOf(a.kind) - lineOrder.indexOf(b.kind));
    const closingCredit = Number(vendor.credit) - later;
    const moved = lines.reduce((sum, line) => sum + line.amount, 0);
    const openingCredit = closingCredit - moved;
    if (vendorIds === 'all' && lines.length === 0 && openingCredit === 0) continue;
    const figures: StatementFigures = {
      sales: 0,
      tips: 0,
      licences: 0,
      feesBorne: 0,
      counter: 0,
      payouts: 0,
      reversals: 0,
      other: 0,
    };
    for (const line of lines) figures[figureOf[line.kind] ?? 'other'] += line.amount;
    result.push({
      vendorId: vendor.id,
      openingCredit,
      lines,
      vouchers: (vouchersOf.get(vendor.id) ?? []).map((v) => ({
        kind: v.kind,
        at: iso(v.created_at),
        payoutId: v.payout_id,
        voucher: v.voucher,
        reverses: v.reverses,
        amount: Number(v.signed),
      })),
      figures,
      closingCredit,
    });
  }
  return result;
}

/** One vendor's statement; a vendor without an account has one of zeros. */
export async function vendorStatement(db: Db, vendorId: number, period: StatementPeriod): Promise<Statement> {
  const [statement] = await statements(db, [vendorId], period);
  return statement!;
}

/**
 * The local months ("2026-05") in which the vendor's account moved, newest first: the statements
 * a vendor can open on their page.
 */
export async function statementMonths(db: Db, vendorId: number, timeZone: string): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { month: string }[] }>(
    `select distinct to_char(r.created_at at time zone ?, 'YYYY-MM') as month
     from ledger_accounts a join ledger_rows r on r.receiver_id = a.id or r.sender_id = a.id
     where a.vendor_id = ?
     order by 1 desc`,
    [timeZone, vendorId],
  );
  return rows.map((row) => row.month);
}
