import type { Knex } from 'knex';
import type { BusinessCase, FiscalRequest } from './port.ts';

// What each cash movement of a till is in the tax office's words: its business case (DSFinV-K 2.3
// Anhang C, "Geschäftsvorfalltypen"), its VAT lines and its payment type (Anhang D: Bar, Unbar).
// - A counter visit's copies are a sale (Umsatz) at the item's VAT rate, paid in cash (Bar: the
//   visit's cash movement) and from the vendor's credit (Unbar: the office's debt to the vendor is
//   settled with it). One transaction holds both, and the visit's cash movement with it.
// - A payout of credit is cash out of the till without a sale (Auszahlung), its reversal cash back in
//   (Einzahlung); other expenses and income the same; cash to or from the bank is Geldtransit; the
//   count's difference at a close DifferenzSollIst; the cash a till holds when signing begins its
//   Anfangsbestand. None of them carries VAT (their lines have no rate: fiskaly's NULL, 0 %).

/** The business case of a cash movement of each kind (counter_cash alone: a sale without its visit). */
export const movementCases: Record<string, BusinessCase> = {
  payout: 'Auszahlung',
  payout_reversal: 'Einzahlung',
  counter_cash: 'Umsatz',
  bank_deposit: 'Geldtransit',
  bank_withdrawal: 'Geldtransit',
  expense: 'Auszahlung',
  income: 'Einzahlung',
  difference: 'DifferenzSollIst',
};

// The VAT rate of a counter sale, in hundredths of a percent. The seam for the rates of migration 029
// (ledger_rows.vat_rate as booked, else the item's, else the newspaper's): read through to_jsonb, so
// this works before and after that migration; without any, Germany's reduced rate for newspapers (7 %,
// §12 (2) Nr. 1 UStG with Anlage 2 Nr. 49).
export const fallbackVatRate = 700;
const saleRateSql = `coalesce((to_jsonb(r)->>'vat_rate')::integer, (to_jsonb(i)->>'vat_rate')::integer,
  (select (to_jsonb(s)->>'vat_rate')::integer from settings s limit 1), ${fallbackVatRate})`;

export interface Built {
  businessCase: BusinessCase;
  request: FiscalRequest;
}

/** A movement on its own (not a visit's cash). */
export function movementRequest(movement: { kind: string; amount: number; reason: string }): Built {
  const businessCase = movementCases[movement.kind] ?? 'Auszahlung';
  const sale = businessCase === 'Umsatz';
  return {
    businessCase,
    request: {
      kind: sale ? 'receipt' : 'transfer',
      lines: [
        {
          businessCase,
          label: movement.reason || movement.kind,
          vatRate: sale ? fallbackVatRate : null,
          gross: movement.amount,
        },
      ],
      payments: [{ type: 'Bar', amount: movement.amount }],
    },
  };
}

/** A counter visit's sale: its copies by item, paid in cash and from the credit. */
export async function visitRequest(db: Knex, visitId: string): Promise<Built | undefined> {
  const visit = await db('counter_visits')
    .where({ id: visitId })
    .first<{ copies_amount: number | string; from_credit: number | string; cash_paid: number | string } | undefined>(
      'copies_amount',
      'from_credit',
      'cash_paid',
    );
  if (!visit || Number(visit.copies_amount) === 0) return undefined;
  const { rows } = await db.raw<{ rows: { name: string; quantity: number; amount: number | string; rate: number }[] }>(
    `select i.name, r.quantity, r.amount, ${saleRateSql} as rate
       from ledger_rows r join items i on i.id = r.item_id
      where r.counter_visit_id = ? and r.kind = 'counter_sale'
      order by r.id`,
    [visitId],
  );
  const payments: FiscalRequest['payments'] = [];
  if (Number(visit.cash_paid)) payments.push({ type: 'Bar', amount: Number(visit.cash_paid) });
  if (Number(visit.from_credit)) payments.push({ type: 'Unbar', amount: Number(visit.from_credit) });
  return {
    businessCase: 'Umsatz',
    request: {
      kind: 'receipt',
      lines: rows.map((row) => ({
        businessCase: 'Umsatz',
        label: row.name,
        quantity: row.quantity,
        vatRate: Number(row.rate),
        gross: Number(row.amount),
      })),
      payments,
    },
  };
}

/** The cash a till holds when its signing begins. */
export const openingRequest = (balance: number): Built => ({
  businessCase: 'Anfangsbestand',
  request: {
    kind: 'transfer',
    lines: [{ businessCase: 'Anfangsbestand', label: 'Anfangsbestand', vatRate: null, gross: balance }],
    payments: [{ type: 'Bar', amount: balance }],
  },
});
