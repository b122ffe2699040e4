import type { Locale } from './locale.ts';

// What the back office and the vendor page both show of a vendor's account, in one place, so a new
// kind of booking is named once for both.

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

/** The names of the kinds of booking, as `kind_<kind>` text keys. */
export const kindNames = {
  de: {
    kind_sale: 'Verkauf',
    kind_tip: 'Trinkgeld',
    kind_licence: 'Lizenz',
    kind_fee: 'Kartengebühr',
    kind_fee_cover: 'Kartengebühr übernommen',
    kind_payout: 'Auszahlung',
    kind_payout_reversal: 'Auszahlung storniert',
    kind_refund: 'Erstattung',
    // the counter (issue 16)
    kind_counter_sale: 'Kauf an der Theke',
    kind_counter_cash: 'Bar bezahlt',
  },
  en: {
    kind_sale: 'Sale',
    kind_tip: 'Tip',
    kind_licence: 'Licence',
    kind_fee: 'Card fee',
    kind_fee_cover: 'Card fee covered',
    kind_payout: 'Payout',
    kind_payout_reversal: 'Payout reversed',
    kind_refund: 'Refund',
    // the counter (issue 16)
    kind_counter_sale: 'Bought at the counter',
    kind_counter_cash: 'Paid in cash',
  },
} satisfies Record<Locale, Record<`kind_${string}`, string>>;
