// How accounts and kinds of ledger rows are named where people read them: the lists, the CSV files
// for the bookkeeper. German first (the office's language), English after the slash, so one label
// serves both interface languages and the export.

export const ledgerKinds = [
  'sale', 'tip', 'licence', 'fee', 'fee_cover', 'payout', 'payout_reversal', 'refund',
  // the counter (issue 16)
  'counter_sale', 'counter_cash',
] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

/** The customers → vendor rows: what the shop sold, tips included. */
export const salesKinds: readonly LedgerKind[] = ['sale', 'tip'];

export const kindLabels: Record<LedgerKind, string> = {
  sale: 'Verkauf / Sale',
  tip: 'Trinkgeld, Spende / Tip, donation',
  licence: 'Lizenzanteil / Licence share',
  fee: 'Kartengebühr / Card fee',
  fee_cover: 'Gebührenübernahme / Fee covered',
  payout: 'Auszahlung / Payout',
  payout_reversal: 'Storno Auszahlung / Payout reversed',
  refund: 'Erstattung / Refund',
  // the counter (issue 16)
  counter_sale: 'Kauf an der Theke / Bought at the counter',
  counter_cash: 'Bar bezahlt an der Theke / Paid in cash at the counter',
};

const systemAccountNames: Record<string, string> = {
  customers: 'Kundschaft / Customers',
  orga: 'Zeitung / Newspaper',
  cash: 'Kasse / Cash desk',
  provider: 'Kartenanbieter / Card provider',
};

/** A ledger account as its name columns come from a join with `vendors`. */
export interface NamedAccount {
  kind: string;
  license_id: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** "Anna Muster (DEMO-1)" for a vendor's account, the label for a system account. */
export function accountName(account: NamedAccount): string {
  if (account.kind !== 'vendor') return systemAccountNames[account.kind] ?? account.kind;
  const name = `${account.first_name ?? ''} ${account.last_name ?? ''}`.trim();
  return `${name} (${account.license_id})`;
}
