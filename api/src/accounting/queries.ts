import type { Knex } from 'knex';
import { invalidError } from '../foundations/errors.ts';
import { toIso } from '../foundations/dates.ts';
import { kindLabel, ledgerKinds, salesKinds, type LedgerKind } from '../ledger/kinds.ts';
import { accountName } from './names.ts';
import { type Language } from '../language/messages.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import { type ListSpec, oneOfFilter, periodFilters } from '../foundations/lists.ts';

type Db = Knex | Knex.Transaction;

/** A ledger row with the names of both accounts and of its item. */
export interface PaymentRow {
  id: number;
  created_at: Date;
  kind: LedgerKind;
  amount: number;
  item_id: number | null;
  item_name: string | null;
  quantity: number | null;
  unit_price: number | null;
  order_id: number | null;
  payout_id: number | null;
  reversal_of: number | null;
  authorised_by: string | null;
  sender_id: number;
  sender_kind: string;
  sender_vendor_id: number | null;
  sender_license_id: string | null;
  sender_first_name: string | null;
  sender_last_name: string | null;
  receiver_id: number;
  receiver_kind: string;
  receiver_vendor_id: number | null;
  receiver_license_id: string | null;
  receiver_first_name: string | null;
  receiver_last_name: string | null;
}

// Left joins throughout: every row has both accounts (foreign keys), and PostgreSQL drops a left
// join nobody reads, so counting a filtered period touches `ledger_rows` alone.
export const payments = (db: Db) =>
  db('ledger_rows as r')
    .leftJoin('ledger_accounts as sa', 'sa.id', 'r.sender_id')
    .leftJoin('vendors as sv', 'sv.id', 'sa.vendor_id')
    .leftJoin('ledger_accounts as ra', 'ra.id', 'r.receiver_id')
    .leftJoin('vendors as rv', 'rv.id', 'ra.vendor_id')
    .leftJoin('items as i', 'i.id', 'r.item_id')
    .select(
      'r.id',
      'r.created_at',
      'r.kind',
      'r.amount',
      'r.item_id',
      'i.name as item_name',
      'r.quantity',
      'r.unit_price',
      'r.order_id',
      'r.payout_id',
      'r.reversal_of',
      'r.authorised_by',
      'r.sender_id',
      'sa.kind as sender_kind',
      'sa.vendor_id as sender_vendor_id',
      'sv.license_id as sender_license_id',
      'sv.first_name as sender_first_name',
      'sv.last_name as sender_last_name',
      'r.receiver_id',
      'ra.kind as receiver_kind',
      'ra.vendor_id as receiver_vendor_id',
      'rv.license_id as receiver_license_id',
      'rv.first_name as receiver_first_name',
      'rv.last_name as receiver_last_name',
    );

function party(row: PaymentRow, side: 'sender' | 'receiver', language: Language) {
  const kind = row[`${side}_kind`];
  const account = {
    kind,
    license_id: row[`${side}_license_id`],
    first_name: row[`${side}_first_name`],
    last_name: row[`${side}_last_name`],
  };
  return {
    accountId: row[`${side}_id`],
    kind,
    vendorId: row[`${side}_vendor_id`],
    licenseId: account.license_id,
    name: accountName(account, language),
  };
}

export function paymentToApi(row: PaymentRow, language: Language) {
  const sender = party(row, 'sender', language);
  const receiver = party(row, 'receiver', language);
  return {
    id: row.id,
    createdAt: toIso(row.created_at),
    kind: row.kind,
    amount: row.amount,
    sender,
    receiver,
    senderName: sender.name,
    receiverName: receiver.name,
    itemId: row.item_id,
    itemName: row.item_name,
    quantity: row.quantity,
    unitPrice: row.unit_price,
    orderId: row.order_id,
    payoutId: row.payout_id,
    reversalOf: row.reversal_of,
    authorisedBy: row.authorised_by,
  };
}

const rawKind = oneOfFilter('kind', 'r.kind', ledgerKinds);

export const paymentList: ListSpec<PaymentRow, ReturnType<typeof paymentToApi>> = {
  resource: 'payments',
  sortable: { createdAt: 'r.created_at', amount: 'r.amount', id: 'r.id' },
  defaultSort: ['createdAt', 'DESC'],
  idColumn: 'r.id',
  queryFilters: ['from', 'to', 'vendor', 'item', 'kind'],
  filters: {
    ...periodFilters('r.created_at'),
    // Every account the licence ID has had (a deleted vendor's too), as sender or as receiver.
    vendor: (query, value) => {
      if (typeof value !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(value.trim())) {
        throw invalidError('The filter "vendor" must be a licence ID like DEMO-1.', {
          vendor: 'Please give a licence ID like DEMO-1.',
        });
      }
      const accounts = (q: Knex.QueryBuilder) => {
        q.from('ledger_accounts as va')
          .join('vendors as vv', 'vv.id', 'va.vendor_id')
          .whereRaw('lower(vv.license_id) = lower(?)', [value.trim()])
          .select('va.id');
      };
      query.where((q) => {
        q.whereIn('r.sender_id', accounts).orWhereIn('r.receiver_id', accounts);
      });
    },
    item: (query, value) => {
      const id = Number(value);
      if (!Number.isInteger(id) || id < 1 || id >= 2 ** 31)
        throw invalidError('The filter "item" must be an item id.', { item: 'Please choose an item.' });
      query.where('r.item_id', id);
    },
    // "sales" stands for the customers → vendor rows; the raw kinds work too.
    kind: (query, value, ctx) =>
      rawKind(
        query,
        [value].flat().flatMap((kind: unknown) => (kind === 'sales' ? [...salesKinds] : [kind])),
        ctx,
      ),
  },
  toApi: paymentToApi,
};

export interface PaymentTotals {
  count: number;
  amount: number;
  quantity: number;
  /** Per kind and item (tips and fees have none); their amounts add up to `amount`. */
  byItem: { kind: LedgerKind; itemId: number | null; itemName: string | null; quantity: number; amount: number }[];
}

/** Sums over every row of a filtered period, not just one page. `filtered` is `ledger_rows as r` with the list's filters. */
export async function paymentTotals(db: Db, filtered: Knex.QueryBuilder): Promise<PaymentTotals> {
  const groups = (await db
    .with(
      'g',
      filtered
        .clone()
        .clearSelect()
        .clearOrder()
        .groupBy('r.kind', 'r.item_id')
        .select(
          'r.kind',
          'r.item_id',
          db.raw('count(*)::bigint as count'),
          db.raw('coalesce(sum(r.quantity), 0)::bigint as quantity'),
          db.raw('sum(r.amount)::bigint as amount'),
        ),
    )
    .from('g')
    .leftJoin('items as i', 'i.id', 'g.item_id')
    .select('g.*', 'i.name as item_name')
    .orderBy([{ column: 'g.amount', order: 'desc' }, { column: 'g.kind' }, { column: 'g.item_id' }])) as {
    kind: LedgerKind;
    item_id: number | null;
    item_name: string | null;
    count: number;
    quantity: number;
    amount: number;
  }[];
  const sum = (field: 'count' | 'quantity' | 'amount') => groups.reduce((total, g) => total + g[field], 0);
  return {
    count: sum('count'),
    amount: sum('amount'),
    quantity: sum('quantity'),
    byItem: groups.map((g) => ({
      kind: g.kind,
      itemId: g.item_id,
      itemName: g.item_name,
      quantity: g.quantity,
      amount: g.amount,
    })),
  };
}

// A batch's rows arrive and are parsed in one turn of the event loop: a thousand wide rows take a
// few milliseconds, five thousand held every other request of the server for hundreds.
const csvBatchSize = 1000;

/**
 * A filtered period's rows in batches, oldest first. Each batch continues after the last row of
 * the one before (keyset, by created_at and id), so a year of rows costs the same per batch as a
 * day and never sits in memory whole. `filtered` narrows `ledger_rows as r`; the batch's keys are
 * found there alone (an index range that stops after `size` entries), then named by `payments`.
 * The cursor time travels as text: a JavaScript Date would drop PostgreSQL's microseconds and
 * return the last row again.
 */
export async function* paymentBatches(
  db: Db,
  filtered: () => Knex.QueryBuilder,
  size = csvBatchSize,
): AsyncGenerator<PaymentRow[]> {
  // `nulls first` (created_at is never null) is the list index's order read backwards: no sort.
  const order = 'r.created_at asc nulls first, r.id asc';
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const keys = filtered();
    // The plain `>=` lets the planner start the index range there; the row comparison skips the ties already sent.
    if (after)
      keys.whereRaw('r.created_at >= ?::timestamptz and (r.created_at, r.id) > (?::timestamptz, ?)', [
        after.at,
        after.at,
        after.id,
      ]);
    const batch = (await keys
      .select('r.id', db.raw('r.created_at::text as cursor_at'))
      .orderByRaw(order)
      .limit(size)) as { id: number; cursor_at: string }[];
    if (!batch.length) return;
    yield await payments(db)
      .whereRaw('r.id = any(?::bigint[])', [batch.map((key) => key.id)])
      .orderByRaw<PaymentRow[]>(order);
    const last = batch.at(-1);
    if (!last || batch.length < size) return;
    after = { at: last.cursor_at, id: last.id };
  }
}

export const paymentCsvColumns: CsvColumn<PaymentRow>[] = [
  { header: 'Booking', value: (r) => r.id },
  { header: 'Date', value: (r) => r.created_at, format: 'date' },
  { header: 'Kind', value: (r, language) => kindLabel(r.kind, language) },
  { header: 'From', value: (r, language) => party(r, 'sender', language).name },
  { header: 'From licence', value: (r) => r.sender_license_id },
  { header: 'To', value: (r, language) => party(r, 'receiver', language).name },
  { header: 'To licence', value: (r) => r.receiver_license_id },
  { header: 'Item', value: (r) => r.item_name },
  { header: 'Quantity', value: (r) => r.quantity },
  { header: 'Unit price', value: (r) => r.unit_price, format: 'cents' },
  { header: 'Amount', value: (r) => r.amount, format: 'cents' },
  { header: 'Order', value: (r) => r.order_id },
  { header: 'Payout', value: (r) => r.payout_id },
  { header: 'Reversal of', value: (r) => r.reversal_of },
  { header: 'Authorised by', value: (r) => r.authorised_by },
];
