import type { Knex } from 'knex';
import { fileUrl } from '../files/queries.ts';
import { hotRows } from '../db/connection.ts';
import { invalidError } from '../foundations/errors.ts';
import { downloadLinkOf, type DownloadLinkRow } from '../pdf/links.ts';
import { toIso } from '../foundations/dates.ts';
import { idFilter, type ListSpec, oneOfFilter, periodFilters } from '../foundations/lists.ts';

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
  /** What Stripe gave back of it in all: the refunds that stand. */
  amount_refunded: number;
  /** Radar's early fraud warning on the payment (its fraud type), shown with a refund action. */
  fraud_warning: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * An OrderRow's columns, named: a prepared statement (hotRows) keeps the shape of its result when a
 * migration adds a column, and a row holds what its type says.
 */
export const orderColumns = [
  'id',
  'token',
  'vendor_id',
  'status',
  'amount_total',
  'tip',
  'currency',
  'email',
  'locale',
  'stripe_session_id',
  'stripe_payment_intent_id',
  'flag_reason',
  'fee',
  'expires_at',
  'paid_at',
  'checked_at',
  'stripe_refund_id',
  'refunded_at',
  'refunded_by',
  'amount_refunded',
  'fraud_warning',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof OrderRow)[];
/** Fails to compile when OrderRow gains a field that orderColumns does not read. */
const everyOrderColumn: Exclude<keyof OrderRow, (typeof orderColumns)[number]> extends never ? true : never = true;
void everyOrderColumn;

const orderSelect = `select ${orderColumns.join(', ')} from orders where id = ?`;

/** An order by its id: every payment's webhook reads it (hotRows). */
export async function findOrder(db: Db, id: number): Promise<OrderRow | undefined> {
  return (await hotRows<OrderRow>(db, orderSelect, [id]))[0];
}

/**
 * An order, locked until `trx` ends: whatever changes an order's status or books its money takes this
 * lock first, so concurrent deliveries of Stripe's events queue and the later ones find nothing to do.
 */
export async function lockOrder(trx: Knex.Transaction, id: number): Promise<OrderRow> {
  const [order] = await hotRows<OrderRow>(trx, `${orderSelect} for update`, [id]);
  if (!order) throw new Error(`order ${id} does not exist`);
  return order;
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The order behind a receipt address; anything that is not a token finds nothing. */
export async function findOrderByToken(db: Db, token: unknown): Promise<OrderRow | undefined> {
  if (typeof token !== 'string' || !tokenPattern.test(token)) return undefined;
  return db('orders').where({ token }).first<OrderRow | undefined>(orderColumns);
}

interface ReceiptRow {
  token: string;
  id: number;
  status: OrderStatus;
  email: string | null;
  tip: number;
  amount_total: number;
  currency: string;
  created_at: Date;
  paid_at: Date | null;
  refunded_at: Date | null;
  vendor_first_name: string;
  vendor_license_id: string;
  use_license_id: boolean;
  lines: {
    item_id: number;
    name: string;
    name_en: string;
    image_file_id: string | null;
    license_item_id: number | null;
    quantity: number;
    unit_price: number;
    amount: number;
  }[];
  downloads: DownloadLinkRow[];
  mail_status: 'queued' | 'sent' | 'stored' | 'failed' | null;
}

/**
 * The order's mail (the PDF mail, or the receipt by e-mail of an order without a digital edition) as
 * the customer may be told of it: `sent` (the mail server took it), `sending` (in the
 * outbox, being sent or retried), `held` (not sent: given up, or kept from a time without a mail
 * server; it waits for staff), `off` (no mail server is set: nothing is sent, the page is what the
 * customer keeps), null for an order with no such mail.
 */
const mailStates = { queued: 'sending', sent: 'sent', stored: 'held', failed: 'held' } as const;

function mailState(status: ReceiptRow['mail_status'], mailServer: boolean) {
  if (!status) return null;
  return mailServer || status === 'sent' ? mailStates[status] : ('off' as const);
}

/** "reader@example.org" → "r…@example.org". */
export const maskEmail = (email: string) => `${email.slice(0, 1)}…${email.slice(email.lastIndexOf('@'))}`;

/**
 * The receipt the customer shows the vendor (undefined for no such order): what was bought, for whom,
 * when. Licence shares are the newspaper's bookkeeping and stay out; download links only exist once
 * the order is paid. One query: the receipt page asks for it until the payment is booked.
 */
export async function orderReceipt(db: Db, token: unknown, { mailServer }: { mailServer: boolean }) {
  if (typeof token !== 'string' || !tokenPattern.test(token)) return undefined;
  const [row] = await hotRows<ReceiptRow>(
    db,
    `select o.token, o.id, o.status, o.email, o.tip, o.amount_total, o.currency, o.created_at, o.paid_at,
       o.refunded_at,
       v.first_name as vendor_first_name, v.license_id as vendor_license_id,
       coalesce((select use_vendor_license_id_in_shop from settings where id = 1), false) as use_license_id,
       coalesce((select json_agg(json_build_object('item_id', e.item_id, 'name', i.name, 'name_en', i.name_en,
           'image_file_id', i.image_file_id, 'license_item_id', i.license_item_id, 'quantity', e.quantity,
           'unit_price', e.unit_price, 'amount', e.amount) order by e.id)
         from order_entries e join items i on i.id = e.item_id
         where e.order_id = o.id and e.kind = 'sale'), '[]') as lines,
       case when o.status = 'paid' then coalesce((select json_agg(json_build_object('id', l.id,
           'item_id', l.item_id, 'name', i.name, 'name_en', i.name_en, 'expires_at', l.expires_at, 'downloads', l.downloads) order by l.item_id)
         from download_links l join items i on i.id = l.item_id where l.order_id = o.id), '[]') else '[]' end as downloads,
       (select m.status from outbox m where m.order_id = o.id and m.kind in ('pdf-links', 'receipt')
         order by m.kind limit 1) as mail_status
     from orders o join vendors v on v.id = o.vendor_id
     where o.token = ?`,
    [token],
  );
  if (!row) return undefined;
  return {
    order: row.token,
    /** What the customer quotes to the office: the number staff find the order by. */
    number: row.id,
    status: row.status,
    vendor: row.use_license_id ? row.vendor_license_id : row.vendor_first_name,
    // The badge's id, already in the shop's address the customer came from: "Try again" in another
    // browser finds the vendor's shop again.
    licenseId: row.vendor_license_id,
    // Where the PDF or the receipt went, shortened: the customer shows this page to the vendor.
    emailHint: row.email && maskEmail(row.email),
    // Whether that mail has gone out: the receipt never says "sent" for a mail still in the outbox.
    mail: mailState(row.mail_status, mailServer),
    lines: row.lines.map((line) => ({
      item: line.item_id,
      name: line.name,
      ...(line.name_en && { nameEn: line.name_en }),
      image: fileUrl(line.image_file_id),
      kind: line.license_item_id === null ? ('print' as const) : ('digital' as const),
      quantity: line.quantity,
      unitPrice: line.unit_price,
      amount: line.amount,
    })),
    tip: row.tip,
    total: row.amount_total,
    currency: row.currency,
    createdAt: toIso(row.created_at),
    paidAt: toIso(row.paid_at),
    // A refunded order's receipt says when the money went back.
    refundedAt: toIso(row.refunded_at),
    downloads: row.downloads.map(downloadLinkOf),
  };
}

export type Receipt = NonNullable<Awaited<ReturnType<typeof orderReceipt>>>;

/** What a committed change of an order tells the receipts waiting for it (changes.ts). */
export type OrderChange = Pick<OrderRow, 'status' | 'paid_at'>;

/**
 * The receipt as a change of its order's status leaves it, without reading it again: only status and
 * time of payment differ. Undefined for an order with a digital edition, whose download links the
 * booking has just made: that receipt is read again.
 */
export function receiptChangedTo(receipt: Receipt, change: OrderChange): Receipt | undefined {
  if (receipt.lines.some((line) => line.kind === 'digital')) return undefined;
  // A refund's time is read with the rest of the refunded receipt.
  if (change.status === 'refunded') return undefined;
  // Paying queued the receipt by e-mail: its state is read too.
  if (receipt.emailHint && change.status !== receipt.status) return undefined;
  return { ...receipt, status: change.status, paidAt: toIso(change.paid_at) };
}

/** Orders as the back office lists them, with their vendor, their latest refund's status and their dispute. */
export function staffOrders(db: Db): Knex.QueryBuilder {
  return (
    db('orders as o')
      .join('vendors as v', 'v.id', 'o.vendor_id')
      // A charge may have several disputes: the order shows the one that waits for a decision, else the latest.
      .joinRaw(
        `left join lateral (select * from stripe_disputes d where d.order_id = o.id
         order by (d.bearer is null and d.withdrawn_at is not null and d.reinstated_at is null) desc,
           d.created_at desc, d.id desc limit 1) d on true`,
      )
      .select('o.*', 'v.license_id as vendor_license_id', 'v.first_name as vendor_first_name')
      .select('v.last_name as vendor_last_name', 'd.id as dispute_id', 'd.amount as dispute_amount')
      .select('d.status as dispute_status', 'd.evidence_due_by as dispute_due_by', 'd.bearer as dispute_bearer')
      .select('d.withdrawn_at as dispute_withdrawn_at', 'd.reinstated_at as dispute_reinstated_at')
      .select(
        db.raw(`(select r.status from stripe_refunds r where r.order_id = o.id
      order by r.created_at desc, r.id limit 1) as refund_status`),
      )
  );
}

export type StaffOrderRow = OrderRow & {
  vendor_license_id: string;
  vendor_first_name: string;
  vendor_last_name: string;
  dispute_id: string | null;
  dispute_amount: number | null;
  dispute_status: string | null;
  dispute_due_by: Date | null;
  dispute_bearer: 'vendor' | 'newspaper' | null;
  dispute_withdrawn_at: Date | null;
  dispute_reinstated_at: Date | null;
  refund_status: string | null;
};

/** A dispute Stripe took money for, not won back, whose bearer staff have not chosen yet. */
const needsDecision = (row: StaffOrderRow) =>
  row.dispute_id !== null &&
  row.dispute_bearer === null &&
  row.dispute_withdrawn_at !== null &&
  row.dispute_reinstated_at === null;

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
    /** What Stripe gave back of it in all (several or partial refunds): the order stays paid until it is all. */
    amountRefunded: row.amount_refunded,
    /** Radar's early fraud warning (its fraud type): a refund may spare a dispute. */
    fraudWarning: row.fraud_warning,
    /** The latest refund at Stripe: pending, succeeded, failed, …; null when none was made. */
    refundStatus: row.refund_status,
    dispute: row.dispute_id
      ? {
          id: row.dispute_id,
          amount: row.dispute_amount,
          status: row.dispute_status,
          evidenceDueBy: toIso(row.dispute_due_by),
          bearer: row.dispute_bearer,
          needsDecision: needsDecision(row),
        }
      : null,
  };
}

export const staffOrderList: ListSpec<StaffOrderRow, ReturnType<typeof staffOrderToApi>> = {
  resource: 'orders',
  sortable: {
    id: 'o.id',
    createdAt: 'o.created_at',
    paidAt: 'o.paid_at',
    amountTotal: 'o.amount_total',
    status: 'o.status',
  },
  defaultSort: ['createdAt', 'DESC'],
  idColumn: 'o.id',
  filters: {
    status: oneOfFilter('status', 'o.status', orderStatuses),
    vendor: idFilter('vendor', 'o.vendor_id', 'a vendor id'),
    // Orders needing attention: a chargeback whose bearer staff have not chosen yet.
    attention: (query, value) => {
      if (value === false || value === 'false') return;
      if (value !== true && value !== 'true') throw invalidError('The filter "attention" must be true or false.');
      query.whereNotNull('d.id').whereNull('d.bearer').whereNotNull('d.withdrawn_at').whereNull('d.reinstated_at');
    },
    ...periodFilters('o.created_at'),
  },
  toApi: staffOrderToApi,
};

/** A row of `stripe_disputes` (migration 013). */
export interface DisputeRow {
  id: string;
  order_id: number;
  amount: number;
  reason: string | null;
  status: string;
  evidence_due_by: Date | null;
  withdrawn_at: Date | null;
  reinstated_at: Date | null;
  bearer: 'vendor' | 'newspaper' | null;
  vendor_amount: number;
  booked_unnamed: boolean;
  decided_by: string | null;
  decided_at: Date | null;
}

/** A row of `stripe_refunds` (migration 013). */
export interface RefundRow {
  id: string;
  order_id: number;
  amount: number;
  status: string;
  failure_reason: string | null;
  requested_by: string | null;
  booked_at: Date | null;
  booked_amount: number;
  created_at: Date;
}

type StaffDisputeRow = DisputeRow & {
  amount_total: number;
  vendor_id: number;
  license_id: string;
  first_name: string;
  last_name: string;
};

/** Disputes as staff work through them: undecided first, then by deadline; with order and vendor. */
export async function staffDisputes(db: Db) {
  const rows = await db('stripe_disputes as d')
    .join('orders as o', 'o.id', 'd.order_id')
    .join('vendors as v', 'v.id', 'o.vendor_id')
    .orderByRaw('d.bearer is not null, d.evidence_due_by nulls last, d.id')
    .select<StaffDisputeRow[]>(
      'd.*',
      'o.amount_total',
      'v.id as vendor_id',
      'v.license_id',
      'v.first_name',
      'v.last_name',
    );
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    vendorId: row.vendor_id,
    vendorLicenseId: row.license_id,
    vendorName: `${row.first_name} ${row.last_name}`.trim(),
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    evidenceDueBy: toIso(row.evidence_due_by),
    withdrawnAt: toIso(row.withdrawn_at),
    reinstatedAt: toIso(row.reinstated_at),
    bearer: row.bearer,
    decidedBy: row.decided_by,
    decidedAt: toIso(row.decided_at),
    needsDecision: row.bearer === null && row.withdrawn_at !== null && row.reinstated_at === null,
  }));
}

/** The refunds of an order with their status at Stripe (pending and failed ones included). */
export async function orderRefunds(db: Db, orderId: number) {
  const rows = await db('stripe_refunds').where({ order_id: orderId }).orderBy('created_at').select<RefundRow[]>('*');
  return rows.map((row) => ({
    id: row.id,
    amount: row.amount,
    status: row.status,
    failureReason: row.failure_reason,
    requestedBy: row.requested_by,
    bookedAt: toIso(row.booked_at),
    createdAt: toIso(row.created_at),
  }));
}
