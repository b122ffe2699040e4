import type { Knex } from 'knex';
import { itemNameSql } from '../language/item-names.ts';
import type { Language } from '../language/messages.ts';
import { toIso } from '../foundations/dates.ts';

type Db = Knex | Knex.Transaction;

// A vendor reads their account as what happened, not as the books hold it: a card sale books up to
// five rows (the sale, the tip, the licence share, Stripe's fee and the newspaper's cover of it),
// which the vendor sees as one line with what it brought them; a refund is one line too.

/** The kinds a card sale books on the vendor's account, netted into the sale's one line. */
const saleKinds = ['sale', 'tip', 'licence', 'fee', 'fee_cover'];
/** The kinds booked per refund (its Stripe refund), netted into the refund's one line. */
const refundKinds = ['refund', 'refund_failed'];

const list = (kinds: string[]) => kinds.map((kind) => `'${kind}'`).join(', ');

/** One line of a vendor's account as their page shows it; `amount` is signed from the vendor's side. */
export interface VendorLine {
  id: string;
  /** `sale` for a card sale, `refund` or `refund_failed` for a refund, otherwise the row's own kind. */
  kind: string;
  createdAt: string;
  /** The items sold or refunded, in the reader's language; empty for lines of no item. */
  items: { name: string; quantity: number }[];
  amount: number;
  paidOut: boolean;
}

interface LineRow {
  line: string;
  kind: string;
  created_at: Date | string;
  items: { name: string; quantity: number }[];
  amount: number;
  paid_out: boolean;
}

/**
 * The latest `limit` lines of the account `accountId`, newest first, with item names in `language`.
 * Every row of the account belongs to exactly one line, so all lines together sum to its balance.
 */
export async function vendorLines(db: Db, accountId: number, language: Language, limit: number): Promise<VendorLine[]> {
  const { rows } = await db.raw<{ rows: LineRow[] }>(
    `with account_rows as (
       select r.id, r.created_at, r.kind, r.item_id, r.quantity, r.payout_id,
         case when r.receiver_id = :account then r.amount else -r.amount end as signed,
         case when r.order_id is not null and r.kind in (${list(saleKinds)}) then 'sale' else r.kind end as line_kind,
         case
           when r.order_id is not null and r.kind in (${list(saleKinds)}) then 'order-' || r.order_id
           when r.order_id is not null and r.kind in (${list(refundKinds)})
             then r.kind || '-' || r.order_id || '-' || coalesce(r.stripe_ref, r.created_at::text)
           else 'row-' || r.id
         end as line
       from ledger_rows r
       where r.receiver_id = :account or r.sender_id = :account
     )
     select a.line, a.line_kind as kind, min(a.created_at) as created_at,
       sum(a.signed)::integer as amount, bool_and(a.payout_id is not null) as paid_out,
       -- What was sold, or taken back: not the licence share, which a refund gives back to the vendor.
       coalesce(json_agg(json_build_object('name', ${itemNameSql('i', language)}, 'quantity', a.quantity) order by a.id)
         filter (where i.id is not null and (a.kind = 'sale' or (a.kind = 'refund' and a.signed < 0))), '[]') as items
     from account_rows a left join items i on i.id = a.item_id
     group by a.line, a.line_kind
     order by max(a.created_at) desc, max(a.id) desc
     limit :limit`,
    { account: accountId, limit },
  );
  return rows.map((row) => ({
    id: row.line,
    kind: row.kind,
    createdAt: toIso(row.created_at)!,
    items: row.items,
    amount: row.amount,
    paidOut: row.paid_out,
  }));
}
