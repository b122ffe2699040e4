// How accounts are named where people read them: the lists, the CSV files for the bookkeeper.
// German first (the office's language), English after the slash, so one label serves both interface
// languages and the export. The kinds of booking are named in api/src/ledger/kinds.ts.

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
