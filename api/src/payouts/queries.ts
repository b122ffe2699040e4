import type { Knex } from 'knex';
import { invalidError } from '../foundations/errors.ts';
import { periodFilters, type ListSpec } from '../foundations/lists.ts';
import { vendorAccountId } from '../ledger/accounts.ts';
import { accountRows, accountRowToApi, type AccountRow, type VendorLedgerRow } from '../ledger/queries.ts';
import { payoutLineName, payoutLinesJsonSql, type PayoutLine } from '../ledger/payout-lines.ts';
import { payoutVoucherSql, reversalVoucherSql } from '../ledger/vouchers.ts';
import { licenseSortKey } from '../vendors/queries.ts';
import { toIso } from '../foundations/dates.ts';
import { tr } from '../language/messages.ts';

type Db = Knex | Knex.Transaction;

/** A line of what a payout settled, as the list and the payout's answer show it (ledger/payout-lines.ts). */
export interface PayoutItem extends Omit<PayoutLine, 'itemName' | 'quantity'> {
  itemName: string;
  /** Pieces net of refunds; a line without pieces counts its rows (a tip is 1). */
  quantity: number;
}

/** Payouts with their vendor; filters and totals work on this. */
export function payoutsBase(db: Db): Knex.QueryBuilder {
  return db('payouts as p')
    .join('vendors as v', 'v.id', 'p.vendor_id')
    .select(
      'p.id',
      db.raw(`${payoutVoucherSql('p')} as voucher`),
      db.raw(`${reversalVoucherSql('p')} as reversal_voucher`),
      'p.vendor_id',
      'p.amount',
      'p.authorised_by',
      'p.created_at',
      'p.reversed_at',
      'p.reversed_by',
      'p.reversal_reason',
      'v.license_id',
      'v.first_name',
      'v.last_name',
    );
}

/** Payouts as the list and the single payout answer them, with what each settled. */
export const payoutsWithItems = (db: Db) => payoutsBase(db).select(db.raw(`${payoutLinesJsonSql('p')} as items`));

export interface PayoutRow {
  id: number;
  voucher: string;
  reversal_voucher: string | null;
  vendor_id: number;
  amount: number;
  authorised_by: string;
  created_at: Date | string;
  reversed_at: Date | string | null;
  reversed_by: string | null;
  reversal_reason: string | null;
  license_id: string;
  first_name: string;
  last_name: string;
  items: (Omit<PayoutItem, 'itemName'> & { itemName: string | null })[];
}

const vendorName = (row: { first_name: string; last_name: string }) => `${row.first_name} ${row.last_name}`.trim();

export function payoutToApi(row: PayoutRow) {
  return {
    id: row.id,
    // The cash movement's voucher: the payout's one number (ledger/vouchers.ts).
    voucher: row.voucher,
    vendor: { id: row.vendor_id, licenseId: row.license_id, name: vendorName(row) },
    amount: row.amount,
    createdAt: toIso(row.created_at)!,
    authorisedBy: row.authorised_by,
    reversed: row.reversed_at !== null,
    reversedAt: toIso(row.reversed_at),
    reversedBy: row.reversed_by,
    reversalReason: row.reversal_reason,
    /** The voucher of the cash that came back with the reversal. */
    reversalVoucher: row.reversal_voucher,
    // The line's name in the newspaper's language (the back office labels lines without an item by `kind`).
    items: row.items.map((item): PayoutItem => ({ ...item, itemName: payoutLineName(item, 'de') })),
  };
}

export type Payout = ReturnType<typeof payoutToApi>;

export async function findPayout(db: Db, id: number): Promise<Payout | undefined> {
  const row = await payoutsWithItems(db).where('p.id', id).first<PayoutRow | undefined>();
  return row && payoutToApi(row);
}

/** The rows a payout settled, oldest first, as the vendor's account saw them (its own cash row left out). */
export async function settledRows(db: Db, payout: { id: number; vendor: { id: number } }): Promise<VendorLedgerRow[]> {
  const account = await vendorAccountId(db, payout.vendor.id);
  if (account === undefined) return [];
  const rows = (await accountRows(db, account)
    .where('r.payout_id', payout.id)
    .whereNot('r.kind', 'payout')
    .orderBy('r.created_at')
    .orderBy('r.id')) as AccountRow[];
  return rows.map(accountRowToApi);
}

function positiveId(name: string, value: unknown): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1 || id >= 2 ** 31)
    throw invalidError(tr('The filter "{name}" must be an id.', { name }), {
      [name]: 'Please choose one from the list.',
    });
  return id;
}

export const payoutList: ListSpec<PayoutRow, Payout> = {
  resource: 'payouts',
  sortable: {
    id: 'p.id',
    voucher: 'p.id',
    createdAt: 'p.created_at',
    amount: 'p.amount',
    vendor: licenseSortKey('v.license_id'),
  },
  defaultSort: ['createdAt', 'DESC'],
  idColumn: 'p.id',
  queryFilters: ['from', 'to', 'vendor', 'item'],
  filters: {
    ...periodFilters('p.created_at'),
    vendor: (query, value) => {
      if (typeof value !== 'string' || !value.trim())
        throw invalidError('The filter "vendor" must be a licence ID.', { vendor: 'Please give a licence ID.' });
      query.whereRaw('lower(v.license_id) = lower(?)', [value.trim()]);
    },
    // Payouts that settled at least one row of the item (its sale, licence share or refund).
    item: (query, value) => {
      query.whereRaw('exists (select 1 from ledger_rows ir where ir.payout_id = p.id and ir.item_id = ?)', [
        positiveId('item', value),
      ]);
    },
    reversed: (query, value) => {
      if (typeof value !== 'boolean') throw invalidError('The filter "reversed" must be true or false.');
      if (value) query.whereNotNull('p.reversed_at');
      else query.whereNull('p.reversed_at');
    },
  },
  toApi: payoutToApi,
};

/** Count and sum of the filtered payouts, reversed ones also on their own (their money came back). */
export async function payoutTotals(db: Db, filtered: Knex.QueryBuilder) {
  const row = await filtered
    .clearSelect()
    .clearOrder()
    .first<{ count: number; amount: number; reversed_count: number; reversed_amount: number }>(
      db.raw('count(*)::integer as count'),
      db.raw('coalesce(sum(p.amount), 0)::bigint as amount'),
      db.raw('(count(*) filter (where p.reversed_at is not null))::integer as reversed_count'),
      db.raw('coalesce(sum(p.amount) filter (where p.reversed_at is not null), 0)::bigint as reversed_amount'),
    );
  return {
    count: row.count,
    amount: row.amount,
    reversedCount: row.reversed_count,
    reversedAmount: row.reversed_amount,
  };
}

/** The filtered payouts in pages of `size`, oldest first, by id (no OFFSET: a page costs the same at any depth). */
export async function* payoutBatches(filtered: Knex.QueryBuilder, size = 500): AsyncGenerator<Payout[]> {
  let after = 0;
  for (;;) {
    const rows = (await filtered.clone().where('p.id', '>', after).orderBy('p.id').limit(size)) as PayoutRow[];
    if (rows.length) yield rows.map(payoutToApi);
    if (rows.length < size) return;
    const last = rows.at(-1);
    if (!last) return;
    after = last.id;
  }
}
