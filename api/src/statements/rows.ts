import { documentKindNames, type KindLanguage } from '../ledger/kinds.ts';
import type { Statement } from '../ledger/statement.ts';

// What a statement says, line by line, in the words of one language: the same lines for the JSON
// answer, the CSV and the printed page, so the three cannot tell different stories.

export type StatementLanguage = KindLanguage;

export const statementTexts = {
  de: {
    locale: 'de-DE',
    title: 'Abrechnung',
    batchTitle: 'Abrechnungen',
    vendor: 'Verkäuferin oder Verkäufer',
    licence: 'Lizenz-Nr.',
    period: 'Zeitraum',
    issued: 'Ausgestellt am',
    date: 'Datum',
    line: 'Position',
    voucher: 'Beleg',
    reverses: 'Storno zu',
    count: 'Anzahl',
    amount: 'Betrag',
    from: 'Von',
    to: 'Bis',
    opening: 'Guthaben am Beginn des Zeitraums',
    closing: 'Guthaben am Ende des Zeitraums',
    tip: 'Trinkgeld',
    feesBorne: 'Kartengebühren, selbst getragen',
    nothing: 'Keine Buchungen in diesem Zeitraum.',
    note: 'Ein negatives Guthaben ist ein Betrag, der mit den nächsten Verkäufen verrechnet wird.',
  },
  en: {
    locale: 'en-GB',
    title: 'Statement',
    batchTitle: 'Statements',
    vendor: 'Vendor',
    licence: 'Licence ID',
    period: 'Period',
    issued: 'Issued on',
    date: 'Date',
    line: 'Item',
    voucher: 'Voucher',
    reverses: 'Reversal of',
    count: 'Count',
    amount: 'Amount',
    from: 'From',
    to: 'To',
    opening: 'Credit at the start of the period',
    closing: 'Credit at the end of the period',
    tip: 'Tip',
    feesBorne: 'Card fees borne',
    nothing: 'No bookings in this period.',
    note: 'A negative credit is an amount settled against the next sales.',
  },
} as const;

/** One line as people read it; `kind` names what it is for programs ('opening', 'closing', 'fees_borne' or a ledger kind). */
export interface StatementRow {
  kind: string;
  label: string;
  /** Payouts and their reversals: when, and the payout's receipt number. */
  at: string | null;
  voucher: string | null;
  count: number | null;
  amount: number;
}

export { vendorLanguage } from '../vendors/language.ts';

/**
 * The lines of a statement: the opening credit, each movement, each payout with its voucher, the
 * closing credit. A tip is "Trinkgeld" whatever the shop calls it: a job centre reads a gift from a
 * customer as a tip (BSG, B 7/14 AS 75/20 R), as the lists and the statement of earnings do.
 */
export function statementRows(statement: Statement, lang: StatementLanguage): StatementRow[] {
  const t = statementTexts[lang];
  const names = documentKindNames[lang];
  const rows: StatementRow[] = [
    { kind: 'opening', label: t.opening, at: null, voucher: null, count: null, amount: statement.openingCredit },
  ];
  let fees: { count: number; amount: number } | undefined;
  for (const line of statement.lines) {
    if (line.kind === 'payout' || line.kind === 'payout_reversal') continue;
    // A covered fee and its cover cancel out; what is left is the fee the vendor bore.
    if (line.kind === 'fee' || line.kind === 'fee_cover') {
      fees ??= { count: 0, amount: 0 };
      fees.count += line.kind === 'fee' ? line.count : -line.count;
      fees.amount += line.amount;
      continue;
    }
    const name = line.kind === 'tip' ? t.tip : names[line.kind];
    rows.push({
      kind: line.kind,
      label: line.itemName ? `${name}: ${line.itemName}` : name,
      at: null,
      voucher: null,
      count: line.count,
      amount: line.amount,
    });
  }
  if (fees && (fees.count !== 0 || fees.amount !== 0)) {
    rows.push({ kind: 'fees_borne', label: t.feesBorne, at: null, voucher: null, ...fees });
  }
  for (const voucher of statement.vouchers) {
    rows.push({
      kind: voucher.kind,
      label: voucher.reverses ? `${names[voucher.kind]} (${t.reverses} ${voucher.reverses})` : names[voucher.kind],
      at: voucher.at,
      voucher: voucher.voucher,
      count: null,
      amount: voucher.amount,
    });
  }
  rows.push({
    kind: 'closing',
    label: t.closing,
    at: null,
    voucher: null,
    count: null,
    amount: statement.closingCredit,
  });
  return rows;
}
