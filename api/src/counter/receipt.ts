import { cashRoundingName, payoutLineName } from '../ledger/payout-lines.ts';
import { formatAmount, type Currency } from '../money/currency.ts';
import type { Visit } from './visits.ts';

// The papers of the counter: the visit's receipt (Kaufbeleg / Auszahlungsbeleg) the vendor signs; the
// daily close's report (Kassenbericht, close-report.ts) shares the page. Plain HTML with print styles
// for one A4 page; the browser numbers the pages ("Seite x von y") when a long visit runs over. Every
// text is escaped.

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
    seller: 'Verkauft von',
    bought: 'Gekaufte Exemplare',
    vatRate: 'MwSt-Satz',
    vat: 'MwSt',
    gross: 'Betrag (brutto)',
    grossTotal: 'Summe (brutto)',
    vatIncluded: (rate: string, gross: string) => `Darin MwSt ${rate} auf ${gross}`,
    copiesTotal: 'Gekaufte Exemplare (brutto)',
    fromCredit: 'Davon aus dem Guthaben',
    cashPaid: 'Bar bezahlt',
    tendered: 'Gegeben',
    change: 'Rückgeld',
    payoutTotal: 'Auszahlung',
    creditAfter: 'Guthaben danach',
    settled: 'Mit der Auszahlung abgerechnet',
    signVendor: 'Unterschrift Verkäufer·in',
    signStaff: 'Unterschrift Mitarbeiter·in',
    page: 'Seite',
    of: 'von',
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
    seller: 'Sold by',
    bought: 'Copies bought',
    vatRate: 'VAT rate',
    vat: 'VAT',
    gross: 'Amount (gross)',
    grossTotal: 'Total (gross)',
    vatIncluded: (rate: string, gross: string) => `Including VAT ${rate} on ${gross}`,
    copiesTotal: 'Copies bought (gross)',
    fromCredit: 'Paid from the credit',
    cashPaid: 'Paid in cash',
    tendered: 'Handed over',
    change: 'Change',
    payoutTotal: 'Payout',
    creditAfter: 'Credit afterwards',
    settled: 'Settled with the payout',
    signVendor: 'Vendor’s signature',
    signStaff: 'Staff signature',
    page: 'Page',
    of: 'of',
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
.address{white-space:pre-line}
tfoot td{font-weight:700;border-top:2px solid #000;border-bottom:0}
@media screen{body{margin:1rem auto;padding:8mm;box-shadow:0 0 4px rgba(0,0,0,.3)}}
`;

export interface PaperInput {
  newspaperName: string;
  /** The newspaper's address from the settings: the seller on a purchase receipt. */
  newspaperAddress?: string;
  logoUrl: string | null;
  lang: PaperLanguage;
  timeZone: string;
  /** The installation's currency: every amount on the paper is in its minor unit. */
  currency: Currency;
}

export function formatters({ lang, timeZone, currency }: PaperInput) {
  const t = texts[lang];
  return {
    t,
    /** An amount in minor units as the reader's language writes the currency: "CHF 3.50", "3,50 €", "¥500". */
    amount: (minor: number) => escapeHtml(formatAmount(minor, currency, lang)),
    when: (iso: string) =>
      escapeHtml(
        new Intl.DateTimeFormat(t.locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
      ),
    day: (day: string, dateStyle: 'full' | 'medium' = 'full') =>
      escapeHtml(
        new Intl.DateTimeFormat(t.locale, { timeZone: 'UTC', dateStyle }).format(new Date(`${day}T00:00:00Z`)),
      ),
  };
}

export function page(input: PaperInput, title: string, body: string): string {
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

/**
 * The receipt of a counter visit: the copies bought with their VAT (the vendor's invoice: seller,
 * rate, VAT and gross amount of each line, ledger/vat.ts), how they were paid, the payout. Every
 * cash movement's voucher is the number; a visit without cash has none.
 */
export function visitReceiptHtml(input: PaperInput & { visit: Visit }): string {
  const { visit } = input;
  const { t, amount: money, when } = formatters(input);
  const percent = new Intl.NumberFormat(texts[input.lang].locale, { style: 'percent', maximumFractionDigits: 2 });
  const rate = (vatRate: number) => escapeHtml(percent.format(vatRate / 100));
  const title = visit.payout && visit.lines.length ? t.both : visit.payout ? t.payout : t.purchase;
  const row = (label: string, amount: number | null, id = '', quantity = '') =>
    `<tr${id ? ` id="${id}"` : ''}><td>${label}</td><td class="num">${quantity}</td><td class="num">${amount === null ? '' : money(amount)}</td></tr>`;
  const settled = visit.settled.map((line) =>
    row(
      escapeHtml(payoutLineName({ kind: line.kind, itemName: line.label }, input.lang)),
      line.amount,
      '',
      line.quantity === null ? '' : String(line.quantity),
    ),
  );
  const gross = visit.vatTotals.reduce((sum, rate) => sum + rate.gross, 0);
  const vat = visit.vatTotals.reduce((sum, rate) => sum + rate.vat, 0);
  const bought = visit.lines.map(
    (line) =>
      `<tr><td>${escapeHtml(t.copies(line.quantity, line.itemName, ''))}${money(line.unitPrice)}</td>` +
      `<td class="num">${line.quantity}</td><td class="num">${rate(line.vatRate)}</td>` +
      `<td class="num">${money(line.vat)}</td><td class="num">${money(line.amount)}</td></tr>`,
  );
  // With more than one rate, the VAT of each rate on its own line, as an invoice must state it.
  const perRate =
    visit.vatTotals.length > 1
      ? visit.vatTotals.map(
          (sum) =>
            `<tr><td colspan="3">${escapeHtml(t.vatIncluded(percent.format(sum.rate / 100), '')) + money(sum.gross)}</td>` +
            `<td class="num">${money(sum.vat)}</td><td></td></tr>`,
        )
      : [];
  const purchase = visit.lines.length
    ? `<h2>${t.bought}</h2>
<table id="receipt-purchase">
<thead><tr><th>${t.line}</th><th class="num">${t.quantity}</th><th class="num">${t.vatRate}</th><th class="num">${t.vat}</th><th class="num">${t.gross}</th></tr></thead>
<tbody>
${bought.join('\n')}
${perRate.join('\n')}
</tbody>
<tfoot><tr><td colspan="3">${t.grossTotal}</td><td class="num" id="receipt-vat">${money(vat)}</td><td class="num" id="receipt-gross">${money(gross)}</td></tr></tfoot>
</table>`
    : '';
  const lines = [
    row(t.creditBefore, visit.creditBefore, 'receipt-credit-before'),
    ...(visit.lines.length ? [row(t.copiesTotal, -gross, 'receipt-copies')] : []),
    ...(visit.cashPaid ? [row(t.cashPaid, visit.cashPaid, 'receipt-cash')] : []),
    // What rounding the cash took off the copies stays the vendor's (+), what it added is paid (−):
    // the lines add up to the credit afterwards.
    ...(visit.cashRounding ? [row(cashRoundingName[input.lang], visit.cashRounding, 'receipt-rounding')] : []),
  ];
  const vendor = `${escapeHtml(visit.vendor.name)} (${escapeHtml(visit.vendor.licenseId)})`;
  const seller = [input.newspaperName, input.newspaperAddress?.trim()].filter(Boolean).map((part) => escapeHtml(part!));
  return page(
    input,
    title,
    `
<dl>
<dt>${t.vouchers}</dt><dd id="receipt-vouchers">${visit.vouchers.map(escapeHtml).join(', ') || '–'}</dd>
<dt>${t.date}</dt><dd id="receipt-date">${when(visit.createdAt)}</dd>
<dt>${t.place}</dt><dd id="receipt-place">${escapeHtml(input.newspaperName)}, ${escapeHtml(visit.till.name)}</dd>
${visit.lines.length ? `<dt>${t.seller}</dt><dd id="receipt-seller" class="address">${seller.join('\n')}</dd>` : ''}
<dt>${t.vendor}</dt><dd id="receipt-vendor">${vendor}</dd>
<dt>${t.staff}</dt><dd id="receipt-staff">${escapeHtml(visit.staff)}</dd>
</dl>
${purchase}
<table id="receipt-lines">
<thead><tr><th>${t.line}</th><th class="num">${t.quantity}</th><th class="num">${t.amount}</th></tr></thead>
<tbody>
${lines.join('\n')}
${visit.payout ? `<tr class="total">${`<td>${t.payoutTotal}</td><td></td><td class="num" id="receipt-payout">${money(visit.payout.amount)}</td>`}</tr>` : ''}
${row(t.creditAfter, visit.creditAfter, 'receipt-credit-after')}
</tbody>
</table>
${visit.change ? `<dl id="receipt-change"><dt>${t.tendered}</dt><dd>${money(visit.cashTendered)}</dd><dt>${t.change}</dt><dd>${money(visit.change)}</dd></dl>` : ''}
${settled.length ? `<h2>${t.settled}</h2><table id="receipt-settled"><tbody>${settled.join('\n')}</tbody></table>` : ''}
<section class="signatures">
<div>${t.signVendor}<br>${vendor}</div>
<div>${t.signStaff}<br>${escapeHtml(visit.staff)}</div>
</section>`,
  );
}
