import type { Knex } from 'knex';
import { fileUrl } from '../files/queries.ts';
import { idFilter, oneOfFilter, type ListSpec } from '../http/list.ts';
import { periodFilters } from '../http/period.ts';
import { downloadLinksFor } from '../pdf/links.ts';
import { getSettingsRow } from '../settings/queries.ts';
import { toIso } from '../vendors/queries.ts';

type Db = Knex | Knex.Transaction;

export const orderStatuses = ['pending', 'paid', 'failed', 'expired', 'flagged', 'refunded'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export interface OrderRow {
  id: number;
  token: string;
  vendor_id: number;
  status: OrderStatus;
  amount_total: number;
  tip: number;
  currency: string;
  email: string | null;
  locale: 'de' | 'en';
  stripe_session_id: string | null;
  stripe_payment_intent_id: string | null;
  flag_reason: string | null;
  fee: number | null;
  expires_at: Date;
  paid_at: Date | null;
  checked_at: Date | null;
  stripe_refund_id: string | null;
  refunded_at: Date | null;
  refunded_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function findOrder(db: Db, id: number): Promise<OrderRow | undefined> {
  return db('orders').where({ id }).first<OrderRow | undefined>();
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The order behind a receipt address; anything that is not a token finds nothing. */
export async function findOrderByToken(db: Db, token: unknown): Promise<OrderRow | undefined> {
  if (typeof token !== 'string' || !tokenPattern.test(token)) return undefined;
  return db('orders').where({ token }).first<OrderRow | undefined>();
}

interface ReceiptLineRow {
  item_id: number;
  name: string;
  image_file_id: string | null;
  license_item_id: number | null;
  quantity: number;
  unit_price: number;
  amount: number;
}

/**
 * The receipt the customer shows the vendor: what was bought, for whom, when. Licence shares are
 * the newspaper's bookkeeping and stay out; download links only exist once the order is paid.
 */
export async function orderReceipt(db: Db, order: OrderRow) {
  const vendor = await db('vendors').where({ id: order.vendor_id }).first<{ first_name: string; license_id: string }>('first_name', 'license_id');
  const settings = await getSettingsRow(db);
  const lines = await db('order_entries as e')
    .join('items as i', 'i.id', 'e.item_id')
    .where({ 'e.order_id': order.id, 'e.kind': 'sale' })
    .orderBy('e.id')
    .select<ReceiptLineRow[]>('e.item_id', 'i.name', 'i.image_file_id', 'i.license_item_id', 'e.quantity', 'e.unit_price', 'e.amount');
  return {
    order: order.token,
    status: order.status,
    vendor: settings.use_vendor_license_id_in_shop ? vendor.license_id : vendor.first_name,
    lines: lines.map((line) => ({
      item: line.item_id,
      name: line.name,
      image: fileUrl(line.image_file_id),
      kind: line.license_item_id === null ? ('print' as const) : ('digital' as const),
      quantity: line.quantity,
      unitPrice: line.unit_price,
      amount: line.amount,
    })),
    tip: order.tip,
    total: order.amount_total,
    currency: order.currency,
    createdAt: toIso(order.created_at),
    paidAt: toIso(order.paid_at),
    downloads: order.status === 'paid' ? await downloadLinksFor(db, order.id) : [],
  };
}

/** Orders as the back office lists them, with their vendor. */
export function staffOrders(db: Db): Knex.QueryBuilder {
  return db('orders as o')
    .join('vendors as v', 'v.id', 'o.vendor_id')
    .select('o.*', 'v.license_id as vendor_license_id', 'v.first_name as vendor_first_name', 'v.last_name as vendor_last_name');
}

export type StaffOrderRow = OrderRow & { vendor_license_id: string; vendor_first_name: string; vendor_last_name: string };

/** The back office's view of an order; the receipt token stays out, it is the customer's key. */
export function staffOrderToApi(row: StaffOrderRow) {
  return {
    id: row.id,
    status: row.status,
    vendorId: row.vendor_id,
    vendorLicenseId: row.vendor_license_id,
    vendorName: `${row.vendor_first_name} ${row.vendor_last_name}`.trim(),
    amountTotal: row.amount_total,
    tip: row.tip,
    fee: row.fee,
    currency: row.currency,
    email: row.email,
    locale: row.locale,
    stripeSessionId: row.stripe_session_id,
    flagReason: row.flag_reason,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    paidAt: toIso(row.paid_at),
    checkedAt: toIso(row.checked_at),
    refundedAt: toIso(row.refunded_at),
    refundedBy: row.refunded_by,
  };
}

export const staffOrderList: ListSpec<StaffOrderRow, ReturnType<typeof staffOrderToApi>> = {
  resource: 'orders',
  sortable: { id: 'o.id', createdAt: 'o.created_at', paidAt: 'o.paid_at', amountTotal: 'o.amount_total', status: 'o.status' },
  defaultSort: ['createdAt', 'DESC'],
  idColumn: 'o.id',
  filters: {
    status: oneOfFilter('status', 'o.status', orderStatuses),
    vendor: idFilter('vendor', 'o.vendor_id', 'a vendor id'),
    ...periodFilters('o.created_at'),
  },
  toApi: staffOrderToApi,
};
