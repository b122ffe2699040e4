import { payoutLineName } from '../ledger/payout-lines.ts';
import type { TillClose, Visit } from './queries.ts';

// The papers of the counter: the visit's receipt (Kaufbeleg / Auszahlungsbeleg) the vendor signs,
// and the daily close's report (Kassenbericht). Plain HTML with print styles for one A4 page; the
// browser numbers the pages ("Seite x von y") when a long visit runs over. Every text is escaped.

export type PaperLanguage = 'de' | 'en';

const texts = {
  de: {
    locale: 'de-DE',
    purchase: 'Kaufbeleg',
    payout: 'Auszahlungsbeleg',
    both: 'Kauf- und Auszahlungsbeleg',
    vouchers: 'Beleg-Nr.',
    date: 'Datum, Uhrzeit',
    place: 'Ort',
    vendor: 'Verkäufer·in',
    staff: 'Mitarbeiter·in',
    line: 'Position',
    quantity: 'Menge',
    amount: 'Betrag',
    creditBefore: 'Guthaben vor dem Besuch',
    copies: (n: number, name: string, price: string) => `${n} × ${name} à ${price}`,
    fromCredit: 'Davon aus dem Guthaben',
    cashPaid: 'Bar bezahlt',
    payoutTotal: 'Auszahlung',
    creditAfter: 'Guthaben danach',
    settled: 'Mit der Auszahlung abgerechnet',
    signVendor: 'Unterschrift Verkäufer·in',
    signStaff: 'Unterschrift Mitarbeiter·in',
    page: 'Seite',
    of: 'von',
    report: 'Kassenbericht',
    till: 'Kasse',
    day: 'Tag',
    opening: 'Anfangsbestand',
    movements: 'Bewegungen',
    count: 'Anzahl',
    in: 'Einnahmen',
    out: 'Ausgaben',
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
    locale: 'en-GB',
    purchase: 'Purchase receipt',
    payout: 'Payout receipt',
    both: 'Purchase and payout receipt',
    vouchers: 'Voucher no.',
    date: 'Date, time',
    place: 'Place',
    vendor: 'Vendor',
    staff: 'Staff member',
    line: 'Item',
    quantity: 'Qty',
    amount: 'Amount',
    creditBefore: 'Credit before the visit',
    copies: (n: number, name: string, price: string) => `${n} × ${name} at ${price}`,
    fromCredit: 'Paid from the credit',
    cashPaid: 'Paid in cash',
    payoutTotal: 'Payout',
    creditAfter: 'Credit afterwards',
    settled: 'Settled with the payout',
    signVendor: 'Vendor’s signature',
    signStaff: 'Staff signature',
    page: 'Page',
    of: 'of',
    report: 'Cash report',
    till: 'Till',
    day: 'Day',
    opening: 'Opening balance',
    movements: 'Movements',
    count: 'Count',
    in: 'In',
    out: 'Out',
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
} as const;

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Page numbers in the bottom margin: Chromium prints @page margin boxes with counter(page).
const styles = (t: (typeof texts)[PaperLanguage]) => `
@page{size:A4;margin:15mm 15mm 18mm;@bottom-right{content:"${t.page} " counter(page) " ${t.of} " counter(pages);font:9pt system-ui,sans-serif}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:180mm;font:11pt/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#000;background:#fff}
header{display:flex;justify-content:space-between;align-items:flex-start;gap:1rem;border-bottom:2px solid #000;padding-bottom:.5rem}
header img{max-height:18mm;max-width:50mm}
h1{font-size:16pt;margin:0}
h2{font-size:12pt;margin:1rem 0 .3rem}
.newspaper{font-size:13pt;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:1rem 0}
dt{font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse;margin:.5rem 0 1rem}
th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid #999;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap}
tr.total td{font-weight:700;font-size:13pt;border-top:2px solid #000;border-bottom:0}
.signatures{display:grid;grid-template-columns:1fr 1fr;gap:12mm;margin-top:20mm;break-inside:avoid}
.signatures div{border-top:1px solid #000;padding-top:.3rem;font-size:9pt}
tr{break-inside:avoid}
@media screen{body{margin:1rem auto;padding:8mm;box-shadow:0 0 4px rgba(0,0,0,.3)}}
`;

interface PaperInput {
  newspaperName: string;
  logoUrl: string | null;
  lang: PaperLanguage;
  timeZone: string;
}

function formatters({ lang, timeZone }: PaperInput) {
  const t = texts[lang];
  const money = new Intl.NumberFormat(t.locale, { style: 'currency', currency: 'EUR' });
  return {
    t,
    euros: (cents: number) => escapeHtml(money.format(cents / 100)),
    when: (iso: string) =>
      escapeHtml(
        new Intl.DateTimeFormat(t.locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
      ),
    day: (day: string) =>
      escapeHtml(
        new Intl.DateTimeFormat(t.locale, { timeZone: 'UTC', dateStyle: 'full' }).format(new Date(`${day}T00:00:00Z`)),
      ),
  };
}

function page(input: PaperInput, title: string, body: string): string {
  const t = texts[input.lang];
  return `<!doctype html>
<html lang="${input.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} · ${input.newspaperName}`)}</title>
<style>${styles(t)}</style>
</head>
<body>
<header>
<div><div class="newspaper" id="paper-newspaper">${escapeHtml(input.newspaperName)}</div><h1>${escapeHtml(title)}</h1></div>
${input.logoUrl ? `<img src="${escapeHtml(input.logoUrl)}" alt="">` : ''}
</header>
${body}
</body>
</html>`;
}

/** The receipt of a counter visit: the copies bought, how they were paid, the payout. */
export function visitReceiptHtml(input: PaperInput & { visit: Visit }): string {
  const { visit } = input;
  const { t, euros, when } = formatters(input);
  const title = visit.payout && visit.lines.length ? t.both : visit.payout ? t.payout : t.purchase;
  const row = (label: string, amount: number | null, id = '', quantity = '') =>
    `<tr${id ? ` id="${id}"` : ''}><td>${label}</td><td class="num">${quantity}</td><td class="num">${amount === null ? '' : euros(amount)}</td></tr>`;
  const settled = visit.settled.map((line) =>
    row(
      escapeHtml(payoutLineName({ kind: line.kind, itemName: line.label }, input.lang)),
      line.amount,
      '',
      line.quantity === null ? '' : String(line.quantity),
    ),
  );
  const lines = [
    row(t.creditBefore, visit.creditBefore, 'receipt-credit-before'),
    ...visit.lines.map((line) =>
      row(
        escapeHtml(t.copies(line.quantity, line.itemName, '')) + euros(line.unitPrice),
        -line.amount,
        '',
        String(line.quantity),
      ),
    ),
    ...(visit.cashPaid ? [row(t.cashPaid, visit.cashPaid, 'receipt-cash')] : []),
  ];
  const vendor = `${escapeHtml(visit.vendor.name)} (${escapeHtml(visit.vendor.licenseId)})`;
  return page(
    input,
    title,
    `
<dl>
<dt>${t.vouchers}</dt><dd id="receipt-vouchers">${visit.vouchers.map(escapeHtml).join(', ') || '–'}${visit.payout ? ` · ${escapeHtml(visit.payout.receiptNumber)}` : ''}</dd>
<dt>${t.date}</dt><dd id="receipt-date">${when(visit.createdAt)}</dd>
<dt>${t.place}</dt><dd id="receipt-place">${escapeHtml(input.newspaperName)}, ${escapeHtml(visit.till.name)}</dd>
<dt>${t.vendor}</dt><dd id="receipt-vendor">${vendor}</dd>
<dt>${t.staff}</dt><dd id="receipt-staff">${escapeHtml(visit.staff)}</dd>
</dl>
<table id="receipt-lines">
<thead><tr><th>${t.line}</th><th class="num">${t.quantity}</th><th class="num">${t.amount}</th></tr></thead>
<tbody>
${lines.join('\n')}
${visit.payout ? `<tr class="total">${`<td>${t.payoutTotal}</td><td></td><td class="num" id="receipt-payout">${euros(visit.payout.amount)}</td>`}</tr>` : ''}
${row(t.creditAfter, visit.creditAfter, 'receipt-credit-after')}
</tbody>
</table>
${settled.length ? `<h2>${t.settled}</h2><table id="receipt-settled"><tbody>${settled.join('\n')}</tbody></table>` : ''}
<section class="signatures">
<div>${t.signVendor}<br>${vendor}</div>
<div>${t.signStaff}<br>${escapeHtml(visit.staff)}</div>
</section>`,
  );
}

/** The report of a daily close: opening balance, movements by kind, expected, counted, difference. */
export function closeReportHtml(
  input: PaperInput & {
    close: TillClose;
    kinds: { kind: string; count: number; amountIn: number; amountOut: number }[];
  },
): string {
  const { close, kinds } = input;
  const { t, euros, when, day } = formatters(input);
  const pieces = Object.entries(close.denominations ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(
      ([value, n]) =>
        `<tr><td>${euros(Number(value))}</td><td class="num">${n}</td><td class="num">${euros(Number(value) * n)}</td></tr>`,
    );
  return page(
    input,
    `${t.report} ${close.day}`,
    `
<dl>
<dt>${t.till}</dt><dd id="report-till">${escapeHtml(close.tillName)}</dd>
<dt>${t.day}</dt><dd id="report-day">${day(close.day)}</dd>
<dt>${t.closedBy}</dt><dd id="report-staff">${escapeHtml(close.staff)}, ${when(close.createdAt)}</dd>
</dl>
<table id="report-movements">
<thead><tr><th>${t.movements}</th><th class="num">${t.count}</th><th class="num">${t.in}</th><th class="num">${t.out}</th></tr></thead>
<tbody>
<tr id="report-opening"><td>${t.opening}</td><td></td><td class="num" colspan="2">${euros(close.openingBalance)}</td></tr>
${kinds.map((k) => `<tr><td>${escapeHtml(t.movementKinds[k.kind] ?? k.kind)}</td><td class="num">${k.count}</td><td class="num">${k.amountIn ? euros(k.amountIn) : ''}</td><td class="num">${k.amountOut ? euros(k.amountOut) : ''}</td></tr>`).join('\n')}
<tr id="report-expected"><td>${t.expected}</td><td></td><td class="num" colspan="2">${euros(close.expected)}</td></tr>
<tr id="report-counted"><td>${t.counted}</td><td></td><td class="num" colspan="2">${euros(close.counted)}</td></tr>
<tr class="total" id="report-difference"><td>${t.difference}</td><td></td><td class="num" colspan="2">${euros(close.difference)}</td></tr>
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
