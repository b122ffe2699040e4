import type { Knex } from 'knex';
import { voucherLabel } from '../ledger/till.ts';
import { reversedVoucherSql } from '../ledger/vouchers.ts';
import { toIso } from '../foundations/dates.ts';

// A till's cash book in booking order, with its running balance.

type Db = Knex | Knex.Transaction;

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
