import type { Knex } from 'knex';
import { documentKindNames, type KindLanguage, type LedgerKind } from './kinds.ts';

type Db = Knex | Knex.Transaction;

// What a payout settled, as lines: one per item (its sales, licence shares and their refunds), one
// per item bought at the counter, and one per kind of row without an item (tips, fees, cash paid for
// copies, a reversed payout, a dispute). Both papers a vendor signs (the payout receipt and the
// receipt of the counter visit that paid out) print these lines, and the payouts list sums them the
// same way, so one payout never shows two different quantities.
//
// A refund counts −n pieces: it takes back the very pieces its sale counted, so an item's line says
// how many copies the vendor was paid for in the end (2 sold, 1 refunded: 1), and its amount matches.
// Amounts are signed from the vendor's side: what the vendor received is positive, a licence share,
// a fee or copies bought at the counter negative.

/** The kind of a line: 'item' for an item's rows, else the kind of its rows. */
export type PayoutLineKind =
  | 'item'
  | 'tip'
  | 'fee'
  | 'fee_cover'
  | 'payout_reversal'
  | 'dispute_vendor'
  | 'dispute_won'
  | 'counter_sale'
  | 'counter_cash'
  | 'cash_rounding';

export interface PayoutLine {
  itemId: number | null;
  kind: PayoutLineKind;
  itemName: string | null;
  /** Pieces net of refunds; null for a line whose rows carry no pieces (tips, fees, cash). */
  quantity: number | null;
  amount: number;
}

/**
 * The papers leave a card fee the newspaper covered out: the fee and its cover cancel out, so they
 * are one line, and an empty one is not printed. The list shows the fee and its cover apart, and
 * counts the rows of a line without pieces (a tip is 1), as its screen and CSV always did.
 */
type Form = 'paper' | 'list';

/** The line a vendor's row belongs to; a refund without an item takes back a tip. */
const lineSql = (r: string, form: Form) => `case
    when ${r}.kind in ('counter_sale', 'counter_cash') then ${r}.kind
    when ${r}.item_id is not null then 'item'
    when ${r}.kind = 'refund' then 'tip'
    ${form === 'paper' ? `when ${r}.kind = 'fee_cover' then 'fee'` : ''}
    else ${r}.kind end`;

/** The pieces a row counts: a refund takes back what its sale counted. */
const piecesSql = (r: string, form: Form) =>
  `(case when ${r}.kind = 'refund' then -1 else 1 end * ${form === 'list' ? `coalesce(${r}.quantity, 1)` : `${r}.quantity`})`;

/**
 * The lines of the payout aliased `p` in the surrounding query (a trusted alias), summed per line;
 * `except` leaves out rows of that SQL condition (a trusted fragment).
 */
const linesSql = (p: string, form: Form, except = 'false') => `
  select l.* from (
    select r.item_id, ${lineSql('r', form)} as line, max(i.name) as item_name,
      sum(${piecesSql('r', form)})::integer as quantity,
      sum(case when r.receiver_id = a.id then r.amount else -r.amount end)::bigint as amount
    from ledger_rows r
    join ledger_accounts a on a.vendor_id = ${p}.vendor_id
    left join items i on i.id = r.item_id
    where r.payout_id = ${p}.id and r.kind <> 'payout' and not (${except})
    group by 1, 2
  ) l
  ${form === 'paper' ? `where not (l.line = 'fee' and l.amount = 0)` : ''}`;

/**
 * The payouts list's lines as a JSON column of the payout aliased `p`: one scalar subquery per payout,
 * so only the listed page computes it (the count and the totals leave it out).
 */
export const payoutLinesJsonSql = (p: string) => `(
  select coalesce(json_agg(json_build_object(
      'itemId', l.item_id, 'kind', l.line, 'itemName', l.item_name, 'quantity', l.quantity, 'amount', l.amount
    ) order by l.item_id nulls last, l.line), '[]'::json)
  from (${linesSql(p, 'list')}) l)`;

interface LineRow {
  item_id: number | null;
  line: PayoutLineKind;
  item_name: string | null;
  quantity: number | null;
  amount: number | string;
}

/**
 * What a payout settled, as the papers print it. With `exceptVisit`, the rows of that counter visit
 * are left out: its receipt prints them as the visit's own lines.
 */
export async function payoutLines(
  db: Db,
  payoutId: number,
  { exceptVisit }: { exceptVisit?: string } = {},
): Promise<PayoutLine[]> {
  const { rows } = await db.raw<{ rows: LineRow[] }>(
    `select l.* from payouts p
     cross join lateral (${linesSql('p', 'paper', 'coalesce(r.counter_visit_id = ?::uuid, false)')}) l
     where p.id = ?
     order by l.item_id nulls last, l.line`,
    [exceptVisit ?? null, payoutId],
  );
  return rows.map((row) => ({
    itemId: row.item_id,
    kind: row.line,
    itemName: row.item_name,
    quantity: row.quantity,
    amount: Number(row.amount),
  }));
}

/** Cash rounded at the counter or in a payout, as the papers a vendor signs name it (the books: "Cash rounding"). */
export const cashRoundingName: Record<KindLanguage, string> = {
  de: 'Rundung auf die kleinste Münze',
  en: 'Rounding to the smallest coin',
};

/** A line's name on paper and in the list: the item's, or the kind's; a counter purchase names both. */
export function payoutLineName(line: Pick<PayoutLine, 'kind' | 'itemName'>, language: KindLanguage): string {
  if (line.kind === 'item') return line.itemName ?? '';
  if (line.kind === 'cash_rounding') return cashRoundingName[language];
  const name = documentKindNames[language][line.kind satisfies LedgerKind];
  return line.kind === 'counter_sale' && line.itemName ? `${name}: ${line.itemName}` : name;
}
