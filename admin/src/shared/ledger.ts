import { kindNames as ledgerKindNames, ledgerKinds } from '../../../api/src/ledger/kinds.ts';
import type { Locale } from './locale.ts';

// What the back office and the vendor page both show of a vendor's account, in one place. The names
// of the kinds of booking come from the API's ledger (api/src/ledger/kinds.ts, free of Node imports),
// so the screens, the CSV and the receipt name a kind the same way.

/** A row of a vendor's account as the API answers it, signed from the vendor's side. */
export interface AccountRow {
  id: number | string;
  createdAt: string;
  kind: string;
  itemName: string | null;
  quantity: number | null;
  amount: number;
  /** +1: the vendor received it; −1: the vendor gave it (a licence share, a fee). */
  sign: 1 | -1;
}

type KindTexts = Record<`kind_${string}`, string>;

const textKeys = (locale: Locale): KindTexts =>
  Object.fromEntries(ledgerKinds.map((kind) => [`kind_${kind}`, ledgerKindNames[locale][kind]]));

/** The names of the kinds of booking, as `kind_<kind>` text keys. */
export const kindNames = { de: textKeys('de'), en: textKeys('en') } satisfies Record<Locale, KindTexts>;
