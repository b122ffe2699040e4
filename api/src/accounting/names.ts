import type { Language } from '../language/messages.ts';
import { pseudonymIn } from '../language/erased.ts';

// How accounts are named where people read them: the lists, the CSV files for the bookkeeper, in
// the reader's language. The kinds of booking are named in api/src/ledger/kinds.ts.

// The newspaper's own account is the organisation's, not the product "Zeitung" of the same word.
const systemAccountNames: Record<Language, Record<string, string>> = {
  de: {
    customers: 'Kundschaft',
    orga: 'Zeitung (Organisation)',
    cash: 'Kasse',
    provider: 'Kartenanbieter',
    bank: 'Bank',
  },
  en: {
    customers: 'Customers',
    orga: 'Newspaper (organisation)',
    cash: 'Cash desk',
    provider: 'Card provider',
    bank: 'Bank',
  },
};

/** What kind of account it is, as the bookkeeper's CSV names it. */
const accountKindNames: Record<Language, Record<string, string>> = {
  de: { ...systemAccountNames.de, vendor: 'Verkäufer·in' },
  en: { ...systemAccountNames.en, vendor: 'Vendor' },
};

export const accountKindName = (kind: string, language: Language) => accountKindNames[language][kind] ?? kind;

/** A ledger account as its name columns come from a join with `vendors`. */
export interface NamedAccount {
  kind: string;
  license_id: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** "Anna Muster (DEMO-1)" for a vendor's account, the label for a system account. */
export function accountName(account: NamedAccount, language: Language): string {
  if (account.kind !== 'vendor') return systemAccountNames[language][account.kind] ?? account.kind;
  const name = `${account.first_name ?? ''} ${account.last_name ?? ''}`.trim();
  // Only an anonymised vendor has no licence id; their first name is the pseudonym.
  if (account.license_id === null) return pseudonymIn(name, language);
  return `${name} (${account.license_id})`;
}
