// The kinds of booking and their names, once for every place people read them: the back office and
// the vendor's /me page (admin/src/shared/ledger.ts imports this file, so it must stay free of Node
// and server imports), the accounting CSV, the payout lines and the receipt.

export const ledgerKinds = [
  'sale',
  'tip',
  'licence',
  'fee',
  'fee_cover',
  'payout',
  'payout_reversal',
  'refund',
  // a refund that failed or was cancelled after it succeeded: what its rows took, given back
  'refund_failed',
  'dispute',
  'dispute_fee',
  // Stripe's dispute fee returned with a dispute won
  'dispute_fee_returned',
  'dispute_won',
  'dispute_vendor',
  // the counter: copies a vendor buys (vendor → newspaper), cash paid for them (cash → vendor)
  'counter_sale',
  'counter_cash',
  // Stripe pays its balance out to the newspaper's bank (bank ← money in transit), and a payout that
  // failed or was cancelled after it was paid comes back
  'stripe_payout',
  'stripe_payout_failed',
  // the cash a vendor pays rounded to the country's smallest coin: the difference between the
  // newspaper and the vendor (newspaper → vendor when rounded down)
  'cash_rounding',
] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

export type KindLanguage = 'de' | 'en';

/** The customers → vendor rows: what the shop sold, tips included. */
export const salesKinds: readonly LedgerKind[] = ['sale', 'tip'];

/** The kinds a paid order books, and that a refund reverses (the fee and its cover stay: Stripe keeps its fee). */
export const orderKinds = ['sale', 'tip', 'licence'] as const;

export const kindNames: Record<KindLanguage, Record<LedgerKind, string>> = {
  de: {
    sale: 'Verkauf',
    tip: 'Trinkgeld',
    licence: 'Lizenzanteil',
    fee: 'Kartengebühr',
    fee_cover: 'Kartengebühr übernommen',
    payout: 'Auszahlung',
    payout_reversal: 'Auszahlung storniert',
    refund: 'Erstattung',
    refund_failed: 'Erstattung gescheitert',
    dispute: 'Rückbuchung (Chargeback)',
    dispute_fee: 'Chargeback-Gebühr',
    dispute_fee_returned: 'Chargeback-Gebühr zurück',
    dispute_won: 'Chargeback gewonnen',
    dispute_vendor: 'Chargeback vom Guthaben',
    counter_sale: 'Kauf an der Theke',
    counter_cash: 'Bar bezahlt',
    stripe_payout: 'Auszahlung von Stripe an die Bank',
    stripe_payout_failed: 'Auszahlung von Stripe gescheitert',
    cash_rounding: 'Rundungsdifferenz',
  },
  en: {
    sale: 'Sale',
    tip: 'Tip',
    licence: 'Licence share',
    fee: 'Card fee',
    fee_cover: 'Card fee covered',
    payout: 'Payout',
    payout_reversal: 'Payout reversed',
    refund: 'Refund',
    refund_failed: 'Refund failed',
    dispute: 'Chargeback',
    dispute_fee: 'Chargeback fee',
    dispute_fee_returned: 'Chargeback fee returned',
    dispute_won: 'Chargeback won',
    dispute_vendor: 'Chargeback borne by vendor',
    counter_sale: 'Bought at the counter',
    counter_cash: 'Paid in cash',
    stripe_payout: 'Stripe payout to the bank',
    stripe_payout_failed: 'Stripe payout failed',
    cash_rounding: 'Cash rounding',
  },
};

/**
 * The names on paper (the receipt, the payout's lines, the bookkeeper's CSV): the same, except that a
 * tip carries both words the newspaper may use for it (the setting "tip instead of donation" changes
 * only the shop's wording), where a screen names it short.
 */
export const documentKindNames: Record<KindLanguage, Record<LedgerKind, string>> = {
  de: { ...kindNames.de, tip: 'Trinkgeld/Spende' },
  en: { ...kindNames.en, tip: 'Tip/donation' },
};

/** The kind as the bookkeeper's CSV names it, in the reader's language ("Verkauf", "Sale"). */
export const kindLabel = (kind: LedgerKind, language: KindLanguage): string => documentKindNames[language][kind];

/** Who bears a dispute's loss: the newspaper until staff decide, or the vendor. */
export type Bearer = 'vendor' | 'newspaper';
