import type { Knex } from 'knex';
import { payoutLines, type PayoutLineKind } from '../ledger/payout-lines.ts';
import { voucherLabel } from '../ledger/till.ts';
import { vatByRate, vatIncluded, vatPercent } from '../ledger/vat.ts';
import { payoutVoucherSql } from '../ledger/vouchers.ts';
import { toIso } from '../foundations/dates.ts';

// One counter visit with everything its receipt prints, and the latest visits.

type Db = Knex | Knex.Transaction;

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
