import type { LedgerKind } from './kinds.ts';

// Which account of the newspaper's chart each booking debits and credits, once for the DATEV file and
// the trial balance (the back office's DATEV settings import this file, so it stays free of Node and
// server imports, like kinds.ts).
//
// A ledger row moves money from its sender to its receiver; in the books that is a debit (Soll) of
// the sender's account and a credit (Haben) of the receiver's. The ledger's accounts stand for DATEV
// accounts as follows:
// - `customers` is the card money at Stripe: the transit account (Geldtransit). A sale or a tip is
//   customers → vendor: Soll transit, Haben vendors, the vendor's money the newspaper holds.
// - `provider` is what Stripe keeps of that money (its fees): in DATEV that is the transit account
//   again, since Stripe takes its fee out of the balance it pays out. Who bears the fee decides the
//   other side: the vendor (vendor → provider: Soll vendors, Haben transit) or the newspaper (orga →
//   provider, or the fee cover orga → vendor: Soll card fees, an expense).
// - `orga` is the newspaper itself, and what it stands for depends on the booking: revenue for a
//   licence share, copies sold at the counter and their refunds; the card-fee expense for a fee, its
//   cover and a dispute's fee; chargeback losses for a dispute's money.
// - `cash`, `bank` and the vendor's account are Kasse, the bank and the vendors (collective or
//   personal) as they are.
// A cash movement without a ledger row (a bank deposit, an expense, a count's difference) books the
// till against its own counter-account: movementPostings.

/** The accounts of the chart a booking may touch, by what they stand for. */
export const datevRoles = [
  'customers',
  'orga',
  'cash',
  'bank',
  'provider',
  'disputes',
  'vendors',
  'otherIncome',
  'otherExpense',
  'shortfall',
  'surplus',
  'rounding',
] as const;
export type DatevRole = (typeof datevRoles)[number];

export const charts = ['SKR03', 'SKR04'] as const;
export type Chart = (typeof charts)[number];

/**
 * The accounts a newspaper (a non-profit) usually takes in each chart. The tax adviser confirms or
 * changes each (docs/datev-and-statements.md says which account takes what and why); these make a first export
 * importable.
 */
export const chartDefaults: Record<Chart, Record<DatevRole, string>> = {
  SKR03: {
    customers: '1360',
    orga: '8300',
    cash: '1000',
    bank: '1200',
    provider: '4970',
    disputes: '2400',
    vendors: '1600',
    otherIncome: '2700',
    otherExpense: '4980',
    shortfall: '4900',
    surplus: '2705',
    // No account of the chart is meant for cash rounding; a free number beside the till's
    // differences, which the tax adviser confirms or changes.
    rounding: '4901',
  },
  SKR04: {
    customers: '1460',
    orga: '4300',
    cash: '1600',
    bank: '1800',
    provider: '6855',
    disputes: '6930',
    vendors: '3300',
    otherIncome: '4830',
    otherExpense: '6850',
    shortfall: '6300',
    surplus: '4835',
    rounding: '6301',
  },
};

/** What the newspaper's own account stands for in each kind of booking. */
const orgaRoles: Record<LedgerKind, DatevRole> = {
  sale: 'orga',
  tip: 'orga',
  licence: 'orga',
  counter_sale: 'orga',
  counter_cash: 'orga',
  refund: 'orga',
  refund_failed: 'orga',
  payout: 'orga',
  payout_reversal: 'orga',
  stripe_payout: 'orga',
  stripe_payout_failed: 'orga',
  fee: 'provider',
  fee_cover: 'provider',
  dispute_fee: 'provider',
  dispute_fee_returned: 'provider',
  dispute: 'disputes',
  dispute_won: 'disputes',
  dispute_vendor: 'disputes',
  cash_rounding: 'rounding',
};

/** The role a side of a ledger row books on: its ledger account's kind read for the row's kind. */
export function postingRole(kind: LedgerKind, accountKind: string): DatevRole {
  switch (accountKind) {
    case 'vendor':
      return 'vendors';
    case 'customers':
    case 'provider':
      return 'customers';
    case 'orga':
      return orgaRoles[kind];
    case 'cash':
    case 'bank':
      return accountKind;
    default:
      throw new Error(`A ledger account of kind ${accountKind} has no place in the chart.`);
  }
}

/** The cash movements that come without a ledger row. */
export const cashOnlyKinds = ['bank_deposit', 'bank_withdrawal', 'expense', 'income', 'difference'] as const;
export type CashOnlyKind = (typeof cashOnlyKinds)[number];

/**
 * The counter-account of a cash movement without a ledger row; the till (Kasse) is the other side,
 * debited when cash comes in. A count's difference books a shortfall or a surplus on its own account.
 */
export function movementContra(kind: CashOnlyKind, amount: number): DatevRole {
  switch (kind) {
    case 'bank_deposit':
    case 'bank_withdrawal':
      return 'bank';
    case 'expense':
      return 'otherExpense';
    case 'income':
      return 'otherIncome';
    case 'difference':
      return amount < 0 ? 'shortfall' : 'surplus';
  }
}
