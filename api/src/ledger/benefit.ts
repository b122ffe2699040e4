import type { Knex } from 'knex';
import type { LedgerKind } from './kinds.ts';
import { signedRowsSince, statements, type StatementPeriod, type StatementVoucher } from './statement.ts';
import { voucherLabelSql } from './vouchers.ts';

type Db = Knex | Knex.Transaction;

// What a vendor on benefits shows the job centre: their earnings month by month, and how close each
// month comes to a limit of the benefit scheme the newspaper's vendors live under. The money read is
// the statement's (statement.ts: the same signed rows of the vendor's account), split by local month.
//
// Net earnings are every movement of the vendor's credit except tips, cash paid in at the counter
// and payouts: card sales, minus licence shares, card fees the vendor bore, copies bought at the
// counter (the vendor's expense, whether paid from the credit or in cash), refunds and chargebacks.
// Tips are gifts from customers and stand apart (BSG, judgment of 13 July 2022, B 7/14 AS 75/20 R:
// tips are not income up to about 10 % of the standard rate); payouts move credit that was earned
// before, so they are listed by date but earn nothing.

/** One local month of a vendor's earnings; every amount signed from the vendor's side, in cents. */
export interface MonthEarnings {
  /** "2026-05", in the newspaper's time zone. */
  month: string;
  sales: number;
  licences: number;
  feesBorne: number;
  copiesBought: number;
  /** Refunds and chargebacks. */
  other: number;
  net: number;
  tips: number;
  /** Payouts and their reversals. */
  payouts: number;
}

/** Copies a vendor bought at the counter on one visit, with the vouchers of the cash paid for them. */
export interface CopiesPurchase {
  at: string;
  copies: number;
  /** Cents the copies cost, negative (the vendor's expense). */
  amount: number;
  /** The cash movements' vouchers; empty when the credit paid it all. */
  vouchers: string[];
}

export interface BenefitStatement {
  vendorId: number;
  months: MonthEarnings[];
  totals: Omit<MonthEarnings, 'month'>;
  /** The mean net earnings of a month of the period (Anlage EKS averages over its six months), rounded down. */
  averageNet: number;
  purchases: CopiesPurchase[];
  payouts: StatementVoucher[];
  openingCredit: number;
  closingCredit: number;
}

type Figure = Exclude<keyof MonthEarnings, 'month' | 'net'>;

/** The figure each kind on a vendor's account adds to; what is not listed is refunds and chargebacks. */
const figureOf: Partial<Record<LedgerKind, Figure | null>> = {
  sale: 'sales',
  licence: 'licences',
  fee: 'feesBorne',
  fee_cover: 'feesBorne',
  counter_sale: 'copiesBought',
  tip: 'tips',
  payout: 'payouts',
  payout_reversal: 'payouts',
  // Cash paid for copies only settles them: the copies are the expense.
  counter_cash: null,
};

const earningFigures: Figure[] = ['sales', 'licences', 'feesBorne', 'copiesBought', 'other'];

const zeroMonth = (month: string): MonthEarnings => ({
  month,
  sales: 0,
  licences: 0,
  feesBorne: 0,
  copiesBought: 0,
  other: 0,
  net: 0,
  tips: 0,
  payouts: 0,
});

/** The months "2026-01" … "2026-06", both ends included. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let [year, month] = from.split('-').map(Number) as [number, number];
  for (;;) {
    const key = `${year}-${String(month).padStart(2, '0')}`;
    if (key > to) return months;
    months.push(key);
    month += 1;
    if (month === 13) [year, month] = [year + 1, 1];
  }
}

interface MonthRow {
  vendor_id: number;
  month: string;
  kind: LedgerKind;
  amount: number | string;
}

interface PurchaseRow {
  vendor_id: number;
  at: Date | string;
  copies: number | string;
  amount: number | string;
  vouchers: string | null;
}

/**
 * The benefit statements of the given vendors (or, with `'all'`, of every vendor whose account
 * moved in the period) for the local months `months` (consecutive, oldest first) of `period`.
 */
export async function benefitStatements(
  db: Db,
  vendorIds: number[] | 'all',
  months: string[],
  period: StatementPeriod,
  timeZone: string,
): Promise<BenefitStatement[]> {
  const found = await statements(db, vendorIds, period);
  const ids = found.map((s) => s.vendorId);
  const accounts = `select id, vendor_id from ledger_accounts where vendor_id = any(?::integer[])`;
  const { rows: monthRows } = await db.raw<{ rows: MonthRow[] }>(
    `select m.vendor_id, to_char(m.created_at at time zone ?, 'YYYY-MM') as month, m.kind, sum(m.signed)::bigint as amount
     from (${signedRowsSince(accounts)}) m
     where m.created_at < ?
     group by 1, 2, 3`,
    [timeZone, ids, period.from, ids, period.from, period.to],
  );
  // One line per counter visit: its copies, their price and the vouchers of the cash paid for them.
  const { rows: purchaseRows } = await db.raw<{ rows: PurchaseRow[] }>(
    `select a.vendor_id, min(r.created_at) as at, sum(r.quantity)::bigint as copies, -sum(r.amount)::bigint as amount,
       (select string_agg(${voucherLabelSql('cm')}, ' ' order by cm.id) from cash_movements cm
         where cm.counter_visit_id = r.counter_visit_id) as vouchers
     from ledger_accounts a join ledger_rows r on r.sender_id = a.id
     where a.vendor_id = any(?::integer[]) and r.kind = 'counter_sale' and r.created_at >= ? and r.created_at < ?
     group by a.vendor_id, r.counter_visit_id
     order by 1, 2`,
    [ids, period.from, period.to],
  );

  const result: BenefitStatement[] = [];
  for (const statement of found) {
    const own = monthRows.filter((row) => row.vendor_id === statement.vendorId);
    if (vendorIds === 'all' && own.length === 0) continue;
    const byMonth = new Map(months.map((month) => [month, zeroMonth(month)]));
    for (const row of own) {
      const month = byMonth.get(row.month);
      const figure = row.kind in figureOf ? figureOf[row.kind] : 'other';
      if (month && figure) month[figure] += Number(row.amount);
    }
    const monthList = [...byMonth.values()];
    for (const month of monthList) month.net = earningFigures.reduce((sum, figure) => sum + month[figure], 0);
    const { month: _month, ...totals } = monthList.reduce((sum, month) => {
      for (const key of Object.keys(month) as (keyof MonthEarnings)[]) {
        if (key !== 'month') sum[key] += month[key];
      }
      return sum;
    }, zeroMonth(''));
    result.push({
      vendorId: statement.vendorId,
      months: monthList,
      totals,
      averageNet: months.length ? Math.floor(totals.net / months.length) : 0,
      purchases: purchaseRows
        .filter((row) => row.vendor_id === statement.vendorId)
        .map((row) => ({
          at: new Date(row.at).toISOString(),
          copies: Number(row.copies),
          amount: Number(row.amount),
          vouchers: row.vouchers ? row.vouchers.split(' ') : [],
        })),
      payouts: statement.vouchers,
      openingCredit: statement.openingCredit,
      closingCredit: statement.closingCredit,
    });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Benefit schemes: how much of a month's net earnings a scheme leaves to the vendor, as bands of
// earnings and the percent of each band that stays free. They are data (stored in the settings,
// editable by the office) because the law changes; the presets are the rules as published.
// ---------------------------------------------------------------------------------------------

export const benefitSchemeKeys = ['de-buergergeld', 'at-grundversorgung', 'custom', 'none'] as const;
export type BenefitSchemeKey = (typeof benefitSchemeKeys)[number];

/** Earnings up to `upTo` cents (from the band below's edge) stay free by `percent`. */
export interface BenefitBand {
  upTo: number;
  percent: number;
}

export interface BenefitScheme {
  scheme: BenefitSchemeKey;
  /** Ascending by `upTo`. */
  bands: BenefitBand[];
  /** The gauge warns when a month's net earnings lie within this percent of a band edge. */
  warnPercent: number;
  /** Tips of a month the scheme leaves aside, in cents; null where it names no amount. */
  tipsFreeUpTo: number | null;
}

export const benefitSchemePresets: Record<BenefitSchemeKey, BenefitScheme> = {
  // Bürgergeld, Erwerbstätigenfreibetrag: § 11b Abs. 2 Satz 1 and Abs. 3 SGB II
  // (https://www.gesetze-im-internet.de/sgb_2/__11b.html): 100 € free, then 20 % of 100–520 €,
  // 30 % of 520–1,000 €, 10 % of 1,000–1,200 € (1,500 € for a vendor with a child: the office edits
  // the last edge). Tips up to about 10 % of the standard rate (Regelbedarfsstufe 1, 563 € in 2026)
  // are not income: BSG, 13 July 2022, B 7/14 AS 75/20 R.
  'de-buergergeld': {
    scheme: 'de-buergergeld',
    bands: [
      { upTo: 10_000, percent: 100 },
      { upTo: 52_000, percent: 20 },
      { upTo: 100_000, percent: 30 },
      { upTo: 120_000, percent: 10 },
    ],
    warnPercent: 10,
    tipsFreeUpTo: 5_630,
  },
  // Austria, Grundversorgung: the Berufsfreibetrag of 110 € a month for the earning person (plus 80 €
  // for each further family member in the household, which the office adds to the edge), e.g. Land
  // Salzburg, https://www.salzburg.gv.at/themen/soziales/asyl/arbeit-und-asyl/berufsfreibetrag.
  'at-grundversorgung': {
    scheme: 'at-grundversorgung',
    bands: [{ upTo: 11_000, percent: 100 }],
    warnPercent: 10,
    tipsFreeUpTo: null,
  },
  custom: { scheme: 'custom', bands: [], warnPercent: 10, tipsFreeUpTo: null },
  none: { scheme: 'none', bands: [], warnPercent: 10, tipsFreeUpTo: null },
};

export type GaugeLevel = 'ok' | 'near' | 'over';

export interface BenefitGauge {
  /** 'near': within the warning distance of a band edge, on either side; 'over': above the last edge. */
  level: GaugeLevel;
  /** The band edge the warning is about, in cents. */
  edge: number | null;
  /** What the bands leave free of the net earnings, rounded down to a cent. */
  allowance: number;
  /** What the scheme counts: net earnings minus the allowance. */
  counted: number;
  tips: GaugeLevel;
}

/** The gauge of one month's (or an average month's) net earnings and tips under a scheme. */
export function benefitGauge(net: number, tips: number, scheme: BenefitScheme): BenefitGauge {
  let lower = 0;
  let freeHundredths = 0;
  for (const band of scheme.bands) {
    const portion = Math.min(Math.max(net - lower, 0), band.upTo - lower);
    freeHundredths += portion * band.percent;
    lower = band.upTo;
  }
  const allowance = Math.floor(freeHundredths / 100);
  const near = (amount: number, edge: number) => Math.abs(amount - edge) * 100 <= edge * scheme.warnPercent;
  const top = scheme.bands.at(-1)?.upTo;
  let level: GaugeLevel = 'ok';
  let edge: number | null = null;
  if (top !== undefined && net > top) {
    level = 'over';
    edge = top;
  } else {
    const close = scheme.bands
      .map((band) => band.upTo)
      .filter((upTo) => near(net, upTo))
      .sort((a, b) => Math.abs(net - a) - Math.abs(net - b));
    if (close.length) {
      level = 'near';
      edge = close[0]!;
    }
  }
  const limit = scheme.tipsFreeUpTo;
  const tipsLevel: GaugeLevel =
    limit === null ? 'ok' : tips > limit ? 'over' : tips * 100 >= limit * (100 - scheme.warnPercent) ? 'near' : 'ok';
  return { level, edge, allowance, counted: Math.max(net - allowance, 0), tips: tipsLevel };
}
