import type { CloseDay, TillClose } from './closes.ts';
import { escapeHtml, formatters, page, type PaperInput, type PaperLanguage } from './receipt.ts';

// The daily close's report (Kassenbericht), on the counter's paper (receipt.ts). A close covers the
// movements since the previous close, which may span several calendar days (a till closed for the
// first time, a weekend, movements after yesterday's close): each day is listed with its own
// movements, totals and the balance it ended with, so every day with cash has its record. The opening
// balance and the balances stand in their own column, apart from the ins and outs.

const texts = {
  de: {
    report: 'Kassenbericht',
    till: 'Kasse',
    day: 'Abgeschlossen am',
    period: 'Umfasst',
    days: (n: number) => (n === 1 ? '1 Tag mit Bewegungen' : `${n} Tage mit Bewegungen`),
    none: 'keine Bewegungen seit dem letzten Abschluss',
    opening: 'Anfangsbestand',
    movements: 'Bewegungen',
    count: 'Anzahl',
    in: 'Einnahmen',
    out: 'Ausgaben',
    balance: 'Bestand',
    dayTotal: 'Summe des Tages',
    total: 'Summe aller Tage',
    expected: 'Soll-Bestand',
    counted: 'Gezählter Ist-Bestand',
    difference: 'Differenz',
    reason: 'Grund',
    denominations: 'Zählprotokoll',
    closedBy: 'Abgeschlossen von',
    signClose: 'Unterschrift',
    movementKinds: {
      payout: 'Auszahlungen',
      payout_reversal: 'Stornierte Auszahlungen',
      counter_cash: 'Barzahlungen für Exemplare',
      bank_deposit: 'Einzahlungen auf die Bank',
      bank_withdrawal: 'Abhebungen von der Bank',
      expense: 'Sonstige Ausgaben',
      income: 'Sonstige Einnahmen',
      difference: 'Kassendifferenz',
    } as Record<string, string>,
  },
  en: {
    report: 'Cash report',
    till: 'Till',
    day: 'Closed on',
    period: 'Covers',
    days: (n: number) => (n === 1 ? '1 day with movements' : `${n} days with movements`),
    none: 'no movements since the last close',
    opening: 'Opening balance',
    movements: 'Movements',
    count: 'Count',
    in: 'In',
    out: 'Out',
    balance: 'Balance',
    dayTotal: 'Day total',
    total: 'Total of all days',
    expected: 'Expected balance',
    counted: 'Counted balance',
    difference: 'Difference',
    reason: 'Reason',
    denominations: 'Count by denomination',
    closedBy: 'Closed by',
    signClose: 'Signature',
    movementKinds: {
      payout: 'Payouts',
      payout_reversal: 'Reversed payouts',
      counter_cash: 'Cash paid for copies',
      bank_deposit: 'Deposits to the bank',
      bank_withdrawal: 'Withdrawals from the bank',
      expense: 'Other expenses',
      income: 'Other income',
      difference: 'Till difference',
    } as Record<string, string>,
  },
} satisfies Record<PaperLanguage, unknown>;

const styles = `<style>
tbody.day th{padding-top:.7rem;border-bottom:1px solid #000;font-weight:700}
tr.subtotal td{font-weight:600;border-top:1px solid #000}
tbody.count tr:first-child td{border-top:2px solid #000}
</style>`;

/** The report of a close: the opening balance, each day's movements by kind with its totals, expected, counted, difference. */
export function closeReportHtml(input: PaperInput & { close: TillClose; days: CloseDay[] }): string {
  const { close, days } = input;
  const t = texts[input.lang];
  const { amount: money, when, day } = formatters(input);
  const amount = (minor: number) => (minor ? money(minor) : '');
  const row = (
    label: string,
    figures: { count?: number; amountIn?: number; amountOut?: number; balance?: number },
    attributes = '',
  ) =>
    `<tr${attributes}><td>${label}</td><td class="num">${figures.count ?? ''}</td><td class="num">${amount(figures.amountIn ?? 0)}</td><td class="num">${amount(figures.amountOut ?? 0)}</td><td class="num">${figures.balance === undefined ? '' : money(figures.balance)}</td></tr>`;
  const pieces = Object.entries(close.denominations ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(
      ([value, n]) =>
        `<tr><td>${money(Number(value))}</td><td class="num">${n}</td><td class="num">${money(Number(value) * n)}</td></tr>`,
    );
  const period =
    days.length === 0
      ? t.none
      : `${days.length === 1 ? day(days[0]!.day) : `${day(days[0]!.day)} – ${day(days[days.length - 1]!.day)}`} (${t.days(days.length)})`;
  const dayBlocks = days.map(
    (d) => `<tbody class="day" id="report-day-${d.day}">
<tr><th colspan="5" scope="rowgroup">${day(d.day)}</th></tr>
${d.kinds.map((k) => row(escapeHtml(t.movementKinds[k.kind] ?? k.kind), k)).join('\n')}
${row(t.dayTotal, { ...d, balance: d.closingBalance }, ' class="subtotal"')}
</tbody>`,
  );
  const sum = (pick: (d: CloseDay) => number) => days.reduce((total, d) => total + pick(d), 0);
  return page(
    input,
    `${t.report} ${day(close.day, 'medium')}`,
    `${styles}
<dl>
<dt>${t.till}</dt><dd id="report-till">${escapeHtml(close.tillName)}</dd>
<dt>${t.day}</dt><dd id="report-day">${day(close.day)}</dd>
<dt>${t.period}</dt><dd id="report-period">${period}</dd>
<dt>${t.closedBy}</dt><dd id="report-staff">${escapeHtml(close.staff)}, ${when(close.createdAt)}</dd>
</dl>
<table id="report-movements">
<thead><tr><th>${t.movements}</th><th class="num">${t.count}</th><th class="num">${t.in}</th><th class="num">${t.out}</th><th class="num">${t.balance}</th></tr></thead>
<tbody>
${row(t.opening, { balance: close.openingBalance }, ' id="report-opening"')}
</tbody>
${dayBlocks.join('\n')}
<tbody class="count">
${days.length > 1 ? row(t.total, { count: sum((d) => d.count), amountIn: sum((d) => d.amountIn), amountOut: sum((d) => d.amountOut) }, ' class="subtotal" id="report-total"') : ''}
${row(t.expected, { balance: close.expected }, ' id="report-expected"')}
${row(t.counted, { balance: close.counted }, ' id="report-counted"')}
${row(t.difference, { balance: close.difference }, ' class="total" id="report-difference"')}
</tbody>
</table>
${close.reason ? `<p id="report-reason"><strong>${t.reason}:</strong> ${escapeHtml(close.reason)}</p>` : ''}
${pieces.length ? `<h2>${t.denominations}</h2><table id="report-denominations"><tbody>${pieces.join('\n')}</tbody></table>` : ''}
<section class="signatures">
<div>${t.signClose}<br>${escapeHtml(close.staff)}</div>
<div>${t.signClose}</div>
</section>`,
  );
}
