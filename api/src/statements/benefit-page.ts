import type { BenefitStatement, MonthEarnings } from '../ledger/benefit.ts';
import { formatAmount, type Currency } from '../money/currency.ts';
import { escapeHtml } from '../payouts/receipt.ts';
import { sheetsDocument } from './page.ts';
import type { StatementLanguage } from './rows.ts';

// The statement of earnings a vendor hands to the job centre (or the Austrian office): the
// newspaper's letterhead, the vendor, each month's earnings with the net line and the tips apart,
// the copies bought with their vouchers, the payouts by date, and a line for the office's signature.
// It names no customer. One A4 page per vendor; a batch is one document with a page break before
// every vendor after the first.

export const benefitTexts = {
  de: {
    locale: 'de-DE',
    title: 'Nachweis der Einnahmen',
    batchTitle: 'Nachweise der Einnahmen',
    vendor: 'Verkäuferin oder Verkäufer',
    licence: 'Lizenz-Nr.',
    period: 'Zeitraum',
    issued: 'Ausgestellt am',
    month: 'Monat',
    // Soft hyphens: the month table's headings break there on a narrow page.
    sales: 'Ver\u00adkäufe',
    licences: 'Lizenz\u00adanteile',
    feesBorne: 'Karten\u00adgebühren',
    copiesBought: 'Gekaufte Exem\u00adplare',
    other: 'Erstattungen',
    net: 'Netto\u00adeinnahmen',
    tips: 'Trink\u00adgeld',
    total: 'Summe',
    average: 'Durchschnitt je Monat',
    purchases: 'Gekaufte Exemplare (Betriebsausgaben)',
    copies: 'Exemplare',
    amount: 'Betrag',
    voucher: 'Beleg',
    date: 'Datum',
    payouts: 'Auszahlungen',
    fromCredit: 'aus dem Guthaben',
    reverses: 'Storno zu',
    none: 'Keine.',
    note:
      'Nettoeinnahmen sind die Verkäufe abzüglich der Lizenzanteile der Zeitung, der selbst getragenen ' +
      'Kartengebühren, der an der Theke gekauften Exemplare und der Erstattungen. Trinkgeld ist eine ' +
      'freiwillige Zuwendung der Kundschaft und gesondert ausgewiesen. Auszahlungen zahlen Guthaben aus ' +
      'früher erzielten Einnahmen aus und sind keine zusätzlichen Einnahmen.',
    place: 'Ort, Datum',
    signature: 'Unterschrift und Stempel',
  },
  en: {
    locale: 'en-GB',
    title: 'Statement of earnings',
    batchTitle: 'Statements of earnings',
    vendor: 'Vendor',
    licence: 'Licence ID',
    period: 'Period',
    issued: 'Issued on',
    month: 'Month',
    sales: 'Sales',
    licences: 'Licence shares',
    feesBorne: 'Card fees',
    copiesBought: 'Copies bought',
    other: 'Refunds',
    net: 'Net earnings',
    tips: 'Tips',
    total: 'Total',
    average: 'Average per month',
    purchases: 'Copies bought (business expenses)',
    copies: 'Copies',
    amount: 'Amount',
    voucher: 'Voucher',
    date: 'Date',
    payouts: 'Payouts',
    fromCredit: 'from the credit',
    reverses: 'Reversal of',
    none: 'None.',
    note:
      'Net earnings are the sales minus the newspaper’s licence shares, the card fees the vendor bore, ' +
      'the copies bought at the counter and refunds. Tips are voluntary gifts from customers and are ' +
      'shown apart. Payouts pay out credit from earlier earnings and are no further earnings.',
    place: 'Place, date',
    signature: 'Signature and stamp',
  },
} as const;

export interface BenefitSheet {
  lang: StatementLanguage;
  vendorName: string;
  licenseId: string;
  /** The period's first and last local day, as "2026-01-01". */
  firstDay: string;
  lastDay: string;
  statement: BenefitStatement;
}

export interface BenefitPageInput {
  newspaperName: string;
  newspaperAddress: string;
  logoUrl: string | null;
  issuedAt: Date;
  timeZone: string;
  /** The installation's currency: the amounts are in its minor unit. */
  currency: Currency;
  sheets: BenefitSheet[];
}

const styles = `
@page{size:A4;margin:12mm 14mm}
*{box-sizing:border-box}
body{margin:0 auto;max-width:182mm;font:9pt/1.3 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#000;background:#fff}
.sheet{padding:4mm 0}
.sheet+.sheet{break-before:page}
header{display:flex;justify-content:space-between;align-items:flex-start;gap:1rem;border-bottom:2px solid #000;padding-bottom:.4rem}
header img{max-height:16mm;max-width:50mm}
header h1,header h2{font-size:14pt;margin:.2rem 0 0}
h3{font-size:10pt;margin:.8rem 0 .2rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.newspaper{font-size:11pt;font-weight:600}
.address{white-space:pre-line;font-size:8.5pt}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.6rem 0}
dt{font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse;margin:.3rem 0}
th,td{text-align:left;padding:.15rem .3rem;border-bottom:1px solid #999;vertical-align:top}
th.num,td.num{text-align:right}
td.num{white-space:nowrap}
thead th{font-size:8pt}
td.net,th.net{font-weight:700}
tfoot td{font-weight:700;border-top:2px solid #000}
tr{break-inside:avoid}
.note{font-size:8pt;color:#333}
.sign{display:flex;gap:2rem;margin-top:12mm;break-inside:avoid}
.sign div{flex:1;border-top:1px solid #000;padding-top:.2rem;font-size:8pt}
@media screen{body{padding:0 1rem}.sheet{margin:1rem 0;padding:8mm;box-shadow:0 0 4px rgba(0,0,0,.3)}}
@media screen and (max-width:600px){body{padding:0;font-size:8pt}.sheet{margin:0;padding:2mm;box-shadow:none}.wide{display:block;overflow-x:auto}th,td{padding:.1rem}}
`;

const monthColumns = ['sales', 'licences', 'feesBorne', 'copiesBought', 'other', 'net', 'tips'] as const;

function sheetHtml(sheet: BenefitSheet, input: BenefitPageInput, index: number): string {
  const t = benefitTexts[sheet.lang];
  const heading = input.sheets.length === 1 ? 'h1' : 'h2';
  const amount = (minor: number) => escapeHtml(formatAmount(minor, input.currency, sheet.lang));
  const day = (value: Date | string) =>
    new Intl.DateTimeFormat(t.locale, { timeZone: input.timeZone, dateStyle: 'medium' }).format(new Date(value));
  const calendarDay = (value: string) => day(`${value}T12:00:00Z`);
  const monthName = (month: string) =>
    new Intl.DateTimeFormat(t.locale, { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(
      new Date(`${month}-15T12:00:00Z`),
    );
  const { statement } = sheet;
  // Refunds and chargebacks are rare: their column is printed only when the period has one.
  const columns = monthColumns.filter((c) => c !== 'other' || statement.months.some((m) => m.other !== 0));
  const cells = (figures: Omit<MonthEarnings, 'month'>) =>
    columns.map((c) => `<td class="num${c === 'net' ? ' net' : ''}">${amount(figures[c])}</td>`).join('');
  const monthRows = statement.months
    .map((m) => `<tr><th scope="row">${escapeHtml(monthName(m.month))}</th>${cells(m)}</tr>`)
    .join('\n');
  const purchases = statement.purchases.length
    ? `<table><thead><tr><th>${t.date}</th><th class="num">${t.copies}</th><th class="num">${t.amount}</th><th>${t.voucher}</th></tr></thead><tbody>
${statement.purchases
  .map(
    (p) =>
      `<tr><td>${escapeHtml(day(p.at))}</td><td class="num">${p.copies}</td><td class="num">${amount(p.amount)}</td>` +
      `<td>${escapeHtml(p.vouchers.join(', ') || t.fromCredit)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : `<p>${t.none}</p>`;
  const payouts = statement.payouts.length
    ? `<table><thead><tr><th>${t.date}</th><th>${t.voucher}</th><th class="num">${t.amount}</th></tr></thead><tbody>
${statement.payouts
  .map(
    (p) =>
      `<tr><td>${escapeHtml(day(p.at))}</td><td>${escapeHtml(p.reverses ? `${p.voucher} (${t.reverses} ${p.reverses})` : p.voucher)}</td><td class="num">${amount(-p.amount)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`
    : `<p>${t.none}</p>`;
  return `<section class="sheet" lang="${sheet.lang}" id="benefit-${index}">
<header>
<div><div class="newspaper">${escapeHtml(input.newspaperName)}</div><div class="address">${escapeHtml(input.newspaperAddress)}</div><${heading}>${t.title}</${heading}></div>
${input.logoUrl ? `<img src="${escapeHtml(input.logoUrl)}" alt="">` : ''}
</header>
<dl>
<dt>${t.vendor}</dt><dd class="benefit-vendor">${escapeHtml(sheet.vendorName)}</dd>
<dt>${t.licence}</dt><dd class="benefit-licence">${escapeHtml(sheet.licenseId)}</dd>
<dt>${t.period}</dt><dd class="benefit-period">${escapeHtml(calendarDay(sheet.firstDay))} – ${escapeHtml(calendarDay(sheet.lastDay))}</dd>
<dt>${t.issued}</dt><dd>${escapeHtml(day(input.issuedAt))}</dd>
</dl>
<div class="wide"><table class="benefit-months">
<thead><tr><th scope="col">${t.month}</th>${columns.map((c) => `<th scope="col" class="num${c === 'net' ? ' net' : ''}">${t[c]}</th>`).join('')}</tr></thead>
<tbody>
${monthRows}
</tbody>
<tfoot><tr><th scope="row">${t.total}</th>${cells(statement.totals)}</tr>
<tr><th scope="row">${t.average}</th>${columns.map((c) => `<td class="num">${c === 'net' ? amount(statement.averageNet) : ''}</td>`).join('')}</tr></tfoot>
</table></div>
<h3>${t.purchases}</h3>
${purchases}
<h3>${t.payouts}</h3>
${payouts}
<p class="note">${t.note}</p>
<div class="sign"><div>${t.place}</div><div>${t.signature} · ${escapeHtml(input.newspaperName)}</div></div>
</section>`;
}

/** The statements of earnings as one printable HTML document; its language is the first sheet's. */
export function benefitPageHtml(input: BenefitPageInput): string {
  const lang = input.sheets[0]?.lang ?? 'de';
  const t = benefitTexts[lang];
  return sheetsDocument({
    lang,
    title: input.sheets.length === 1 ? `${t.title} ${input.sheets[0]!.licenseId}` : t.batchTitle,
    newspaperName: input.newspaperName,
    styles,
    sheets: input.sheets.map((sheet, index) => sheetHtml(sheet, input, index)),
    empty: t.none,
  });
}
