import type { Knex } from 'knex';
import type { LedgerKind } from '../ledger/kinds.ts';
import {
  type CashOnlyKind,
  cashOnlyKinds,
  type DatevRole,
  datevRoles,
  movementContra,
  postingRole,
} from '../ledger/postings.ts';
import { type Message, tr } from '../language/messages.ts';
import type { CsvColumn } from '../foundations/csv.ts';
import type { Period } from '../foundations/period.ts';
import type { DatevSettings } from './datev-settings.ts';

// The trial balance (Summen- und Saldenliste) of the DATEV file: each account's opening balance,
// debits, credits and closing balance as the export books them, beside the product's own figure for
// the same movement where it keeps one: the cash book for Kasse, the balance at Stripe for the
// transit account, the vendors' credit for the vendors' account. The tax adviser checks those
// accounts against exactly these figures; a difference means the file and the product disagree.

type Db = Knex | Knex.Transaction;

/** One account of the chart over a period; balances are debit minus credit. */
export interface TrialBalanceLine {
  role: DatevRole;
  /** The account number, or the range of the vendors' personal accounts. */
  account: string;
  opening: number;
  debit: number;
  credit: number;
  closing: number;
  /** The product's own figure for the period's movement (debit minus credit), where it has one. */
  product: number | null;
  /** DATEV's movement minus the product's; null where there is nothing to compare. */
  difference: number | null;
}

export interface TrialBalance {
  lines: TrialBalanceLine[];
  /** Debits and credits of the period over all accounts: equal when every booking has both sides. */
  debit: number;
  credit: number;
}

interface Turnover {
  within: boolean;
  kind: LedgerKind;
  sender_kind: string;
  receiver_kind: string;
  amount: number;
}

interface CashTurnover {
  within: boolean;
  kind: CashOnlyKind;
  incoming: boolean;
  amount: number;
}

interface ProductFigures {
  cash: number;
  transit: number;
  vendors: number;
}

const bound = (value: Date | undefined, open: string) => value ?? open;

export async function trialBalance(db: Db, settings: DatevSettings, period: Period): Promise<TrialBalance> {
  const from = bound(period.from, '-infinity');
  const to = bound(period.to, 'infinity');
  const { rows: ledger } = await db.raw<{ rows: Turnover[] }>(
    `select r.created_at >= ?::timestamptz as within, r.kind, sa.kind as sender_kind, ra.kind as receiver_kind,
       sum(r.amount)::bigint as amount
     from ledger_rows r
     join ledger_accounts sa on sa.id = r.sender_id
     join ledger_accounts ra on ra.id = r.receiver_id
     where r.created_at < ?::timestamptz
     group by 1, 2, 3, 4`,
    [from, to],
  );
  const { rows: cash } = await db.raw<{ rows: CashTurnover[] }>(
    `select created_at >= ?::timestamptz as within, kind, amount > 0 as incoming, sum(abs(amount))::bigint as amount
     from cash_movements
     where ledger_row_id is null and kind = any(?) and created_at < ?::timestamptz
     group by 1, 2, 3`,
    [from, [...cashOnlyKinds], to],
  );
  const sums = new Map<DatevRole, { opening: number; debit: number; credit: number }>(
    datevRoles.map((role) => [role, { opening: 0, debit: 0, credit: 0 }]),
  );
  const book = (debit: DatevRole, credit: DatevRole, amount: number, within: boolean) => {
    const d = sums.get(debit)!;
    const c = sums.get(credit)!;
    if (within) {
      d.debit += amount;
      c.credit += amount;
    } else {
      d.opening += amount;
      c.opening -= amount;
    }
  };
  for (const t of ledger)
    book(postingRole(t.kind, t.sender_kind), postingRole(t.kind, t.receiver_kind), t.amount, t.within);
  for (const t of cash) {
    const contra = movementContra(t.kind, t.incoming ? 1 : -1);
    if (t.incoming) book('cash', contra, t.amount, t.within);
    else book(contra, 'cash', t.amount, t.within);
  }
  const product = await productFigures(db, from, to);
  const lines = datevRoles.map((role): TrialBalanceLine => {
    const { opening, debit, credit } = sums.get(role)!;
    const own =
      role === 'cash'
        ? product.cash
        : role === 'customers'
          ? product.transit
          : role === 'vendors'
            ? product.vendors
            : null;
    return {
      role,
      account:
        settings.vendorAccounts === 'personal' && role === 'vendors'
          ? `${settings.vendorBase}+`
          : settings.accounts[role],
      opening,
      debit,
      credit,
      closing: opening + debit - credit,
      product: own,
      difference: own === null ? null : debit - credit - own,
    };
  });
  return {
    lines: lines.filter((line) => line.opening || line.debit || line.credit || line.product),
    debit: lines.reduce((total, line) => total + line.debit, 0),
    credit: lines.reduce((total, line) => total + line.credit, 0),
  };
}

/**
 * The product's own figures for the period, read where the product keeps them, each as debit minus
 * credit of its account: what the tills' cash books moved, what the ledger says came into and left
 * the balance at Stripe (customers' money in, Stripe's fees, refunds, disputes and payouts out), and
 * how much the vendors' credit shrank.
 */
async function productFigures(db: Db, from: Date | string, to: Date | string): Promise<ProductFigures> {
  const { rows } = await db.raw<{ rows: { cash: number; transit: number; vendors: number }[] }>(
    `select
       (select coalesce(sum(amount), 0) from cash_movements where created_at >= ?::timestamptz and created_at < ?::timestamptz)::bigint as cash,
       coalesce(sum(case when sa.kind in ('customers', 'provider') then r.amount else 0 end)
              - sum(case when ra.kind in ('customers', 'provider') then r.amount else 0 end), 0)::bigint as transit,
       coalesce(sum(case when sa.kind = 'vendor' then r.amount else 0 end)
              - sum(case when ra.kind = 'vendor' then r.amount else 0 end), 0)::bigint as vendors
     from ledger_rows r
     join ledger_accounts sa on sa.id = r.sender_id
     join ledger_accounts ra on ra.id = r.receiver_id
     where r.created_at >= ?::timestamptz and r.created_at < ?::timestamptz`,
    [from, to, from, to],
  );
  const row = rows[0];
  return { cash: Number(row?.cash ?? 0), transit: Number(row?.transit ?? 0), vendors: Number(row?.vendors ?? 0) };
}

/** The name of each account in the reader's language, as the DATEV settings screen names it. */
export const roleNames: Record<DatevRole, Message> = {
  customers: tr('Card payments in transit (Stripe)'),
  orga: tr('Revenue from copies and licences'),
  cash: tr('Cash desk'),
  bank: tr('Bank'),
  provider: tr('Card fees borne by the newspaper'),
  disputes: tr('Chargebacks borne by the newspaper'),
  vendors: tr('Vendors'),
  otherIncome: tr('Other cash income'),
  otherExpense: tr('Other cash expenses'),
  shortfall: tr('Till shortfall'),
  surplus: tr('Till surplus'),
  rounding: tr('Cash rounding'),
};

export const trialBalanceCsvColumns: CsvColumn<TrialBalanceLine>[] = [
  { header: 'Account', value: (line) => line.account },
  { header: 'Account name', value: (line) => roleNames[line.role] },
  { header: 'Opening balance', value: (line) => line.opening, format: 'cents' },
  { header: 'Debits', value: (line) => line.debit, format: 'cents' },
  { header: 'Credits', value: (line) => line.credit, format: 'cents' },
  { header: 'Closing balance', value: (line) => line.closing, format: 'cents' },
  { header: 'Own figure', value: (line) => line.product, format: 'cents' },
  { header: 'Difference', value: (line) => line.difference, format: 'cents' },
];
