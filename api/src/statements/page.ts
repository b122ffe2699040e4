import { formatAmount, type Currency } from '../money/currency.ts';
import { escapeHtml } from '../payouts/receipt.ts';
import { statementTexts, type StatementLanguage, type StatementRow } from './rows.ts';

// The printed statement: one A4 page for a normal month, in the vendor's language. A batch is one
// document with a page break before every vendor after the first. Every text from the database is
// escaped; the page loads nothing but the newspaper's logo.

export interface StatementSheet {
  lang: StatementLanguage;
  vendorName: string;
  licenseId: string;
  /** The period's first and last local day, as "2026-05-01". */
  firstDay: string;
  lastDay: string;
  rows: StatementRow[];
}

export interface StatementPageInput {
  newspaperName: string;
  logoUrl: string | null;
  issuedAt: Date;
  timeZone: string;
  /** The installation's currency: the amounts are in its minor unit. */
  currency: Currency;
  sheets: StatementSheet[];
}

const styles = `
@page{size:A4;margin:12mm 15mm}
*{box-sizing:border-box}
body{margin:0 auto;max-width:180mm;font:10pt/1.35 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#000;background:#fff}
.sheet{padding:6mm 0}
.sheet+.sheet{break-before:page}
header{display:flex;justify-content:space-between;align-items:flex-start;gap:1rem;border-bottom:2px solid #000;padding-bottom:.4rem}
header img{max-height:16mm;max-width:50mm}
header h1,header h2{font-size:15pt;margin:0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.newspaper{font-size:12pt;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.8rem 0}
dt{font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse;margin:.6rem 0}
th,td{text-align:left;padding:.2rem .4rem;border-bottom:1px solid #999;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap}
td.nowrap{white-space:nowrap}
tr.credit td{font-weight:700;border-bottom:2px solid #000}
tr.credit.closing td{border-top:2px solid #000;border-bottom:0;font-size:11pt}
tr{break-inside:avoid}
.note{font-size:8.5pt;color:#333}
@media screen{body{padding:0 1rem}.sheet{margin:1rem 0;padding:8mm;box-shadow:0 0 4px rgba(0,0,0,.3)}}
@media screen and (max-width:600px){body{padding:0;font-size:8.5pt}.sheet{margin:0;padding:2mm;box-shadow:none}dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.3rem}th,td{padding:.15rem}td.nowrap{white-space:normal;overflow-wrap:anywhere}}
`;

function sheetHtml(sheet: StatementSheet, input: StatementPageInput, index: number): string {
  const t = statementTexts[sheet.lang];
  // One statement is the page's heading; in a batch the document has one and each statement is a part.
  const heading = input.sheets.length === 1 ? 'h1' : 'h2';
  const amount = (minor: number) => escapeHtml(formatAmount(minor, input.currency, sheet.lang));
  const day = (value: Date | string) =>
    new Intl.DateTimeFormat(t.locale, { timeZone: input.timeZone, dateStyle: 'medium' }).format(new Date(value));
  // Calendar days are printed as such: noon UTC is the same day in every zone.
  const calendarDay = (value: string) => day(`${value}T12:00:00Z`);
  const lines = sheet.rows
    .map((row) => {
      const credit = row.kind === 'opening' || row.kind === 'closing';
      return (
        `<tr class="${credit ? `credit ${row.kind}` : row.kind}"><td class="nowrap">${row.at ? escapeHtml(day(row.at)) : ''}</td>` +
        `<td>${escapeHtml(row.label)}</td><td class="nowrap">${escapeHtml(row.voucher ?? '')}</td>` +
        `<td class="num">${row.count ?? ''}</td><td class="num">${amount(row.amount)}</td></tr>`
      );
    })
    .join('\n');
  const empty = sheet.rows.length === 2 ? `<p>${t.nothing}</p>` : '';
  return `<section class="sheet" lang="${sheet.lang}" id="statement-${index}">
<header>
<div><div class="newspaper">${escapeHtml(input.newspaperName)}</div><${heading}>${t.title}</${heading}></div>
${input.logoUrl ? `<img src="${escapeHtml(input.logoUrl)}" alt="">` : ''}
</header>
<dl>
<dt>${t.vendor}</dt><dd class="statement-vendor">${escapeHtml(sheet.vendorName)}</dd>
<dt>${t.licence}</dt><dd class="statement-licence">${escapeHtml(sheet.licenseId)}</dd>
<dt>${t.period}</dt><dd class="statement-period">${escapeHtml(calendarDay(sheet.firstDay))} – ${escapeHtml(calendarDay(sheet.lastDay))}</dd>
<dt>${t.issued}</dt><dd class="statement-issued">${escapeHtml(day(input.issuedAt))}</dd>
</dl>
<table class="statement-rows">
<thead><tr><th>${t.date}</th><th>${t.line}</th><th>${t.voucher}</th><th class="num">${t.count}</th><th class="num">${t.amount}</th></tr></thead>
<tbody>
${lines}
</tbody>
</table>
${empty}
<p class="note">${t.note}</p>
</section>`;
}

/**
 * A printable document of one sheet per vendor (one page each in print): the shell every statement
 * page shares. With several sheets, the batch's title is a heading only screen readers see.
 */
export function sheetsDocument(input: {
  lang: StatementLanguage;
  title: string;
  newspaperName: string;
  styles: string;
  sheets: string[];
  empty: string;
}): string {
  return `<!doctype html>
<html lang="${input.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${input.title} · ${input.newspaperName}`)}</title>
<style>${input.styles}</style>
</head>
<body>
<main>
${input.sheets.length === 1 ? '' : `<h1 class="visually-hidden">${escapeHtml(input.title)}</h1>`}
${input.sheets.length ? input.sheets.join('\n') : `<p>${input.empty}</p>`}
</main>
</body>
</html>`;
}

/** The statements as one printable HTML document; its language is the first sheet's. */
export function statementPageHtml(input: StatementPageInput): string {
  const lang = input.sheets[0]?.lang ?? 'de';
  const t = statementTexts[lang];
  return sheetsDocument({
    lang,
    title: input.sheets.length === 1 ? `${t.title} ${input.sheets[0]!.licenseId}` : t.batchTitle,
    newspaperName: input.newspaperName,
    styles,
    sheets: input.sheets.map((sheet, index) => sheetHtml(sheet, input, index)),
    empty: t.nothing,
  });
}
