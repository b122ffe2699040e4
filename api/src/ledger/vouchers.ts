// One numbering for cash: every cash movement has a voucher of its till and year
// (`voucherLabel` in ledger/till.ts, "1-2026-000042"), and that voucher is THE number of the
// movement on every paper, list and CSV. A payout's number is its cash movement's voucher; a
// reversal's is the voucher of its own movement (the cash going back into the till), which names
// the payout's voucher it reverses. A payout older than the tills (migration 014) has no movement:
// its receipt number (payouts.receipt_number, "2026-000012") stands in for the voucher.
//
// The SQL here reads with trusted aliases only (never input), one index lookup per payout:
// ledger_rows_one_payout_row, ledger_rows_reversed_once and cash_movements' unique ledger_row_id.
// The reversal's kind is named: it implies the partial index's condition (not a refund), without
// which PostgreSQL joins every reversal of the ledger for each payout.

/** `voucherLabel` in SQL over a `cash_movements` row aliased `m`; null without a row. */
export const voucherLabelSql = (m: string) =>
  `(${m}.till_id || '-' || ${m}.year || '-' || lpad(${m}.voucher_number::text, greatest(6, length(${m}.voucher_number::text)), '0'))`;

/** The voucher of the cash movement that books the ledger row `rowId` (SQL), or null. */
export const rowVoucherSql = (rowId: string) =>
  `(select ${voucherLabelSql('vm')} from cash_movements vm where vm.ledger_row_id = ${rowId})`;

/** A payout's voucher over a `payouts` row aliased `p`: its cash movement's, else its receipt number. */
export const payoutVoucherSql = (p: string) =>
  `coalesce((select ${voucherLabelSql('vm')} from ledger_rows vr join cash_movements vm on vm.ledger_row_id = vr.id
     where vr.payout_id = ${p}.id and vr.kind = 'payout'), ${p}.receipt_number)`;

/** The voucher of a payout's reversal over a `payouts` row aliased `p`; null when not reversed (or reversed before the tills). */
export const reversalVoucherSql = (p: string) =>
  `(select ${voucherLabelSql('vm')} from ledger_rows vr
     join ledger_rows vrr on vrr.reversal_of = vr.id and vrr.kind = 'payout_reversal'
     join cash_movements vm on vm.ledger_row_id = vrr.id
     where vr.payout_id = ${p}.id and vr.kind = 'payout')`;

/** For a reversal's ledger row `rowId` (SQL): the voucher of the payout it reverses. */
export const reversedVoucherSql = (rowId: string) =>
  `(select ${payoutVoucherSql('vp')} from ledger_rows vrev
     join ledger_rows vorig on vorig.id = vrev.reversal_of
     join payouts vp on vp.id = vorig.payout_id
     where vrev.id = ${rowId})`;
