import { payoutLineName, type PayoutLine } from '../ledger/payout-lines.ts';
import { formatAmount, type Currency } from '../money/currency.ts';
import type { Payout } from './queries.ts';

// The paper the vendor signs at the counter: who got how much for what, when, from whom. What the
// payout settled is printed as its lines (ledger/payout-lines.ts), the same lines as on the receipt
// of a counter visit that paid out. One page of plain HTML with print styles; every text from the
// database is escaped.

export type ReceiptLanguage = 'de' | 'en';

const texts = {
  de: {
    locale: 'de-DE',
    title: 'Auszahlungsbeleg',
    number: 'Beleg-Nr.',
    vendor: 'Verkäufer·in',
    licence: 'Lizenz-Nr.',
    paidAt: 'Ausgezahlt am',
    authorisedBy: 'Ausgezahlt von',
    line: 'Position',
    quantity: 'Menge',
    amount: 'Betrag',
    total: 'Auszahlungsbetrag',
    signVendor: 'Betrag erhalten – Unterschrift Verkäufer·in',
    signStaff: 'Unterschrift Mitarbeiter·in',
    reversed: (at: string, by: string) => `STORNIERT am ${at} von ${by}`,
    reversedWith: (voucher: string) => `Stornobeleg ${voucher}`,
    reason: 'Grund',
    reversalTitle: 'Stornobeleg',
    reverses: 'Storno zu',
    reversedAt: 'Storniert am',
    reversedBy: 'Storniert von',
    returned: 'Zurück in die Kasse',
    signReversal: 'Unterschrift Mitarbeiter·in',
    signVendorPlain: 'Unterschrift Verkäufer·in',
  },
  en: {
    locale: 'en-GB',
    title: 'Payout receipt',
    number: 'Receipt no.',
    vendor: 'Vendor',
    licence: 'Licence ID',
    paidAt: 'Paid out on',
    authorisedBy: 'Paid out by',
    line: 'Item',
    quantity: 'Qty',
    amount: 'Amount',
    total: 'Amount paid out',
    signVendor: 'Amount received – vendor’s signature',
    signStaff: 'Staff signature',
    reversed: (at: string, by: string) => `REVERSED on ${at} by ${by}`,
    reversedWith: (voucher: string) => `Reversal voucher ${voucher}`,
    reason: 'Reason',
    reversalTitle: 'Reversal receipt',
    reverses: 'Reversal of',
    reversedAt: 'Reversed on',
    reversedBy: 'Reversed by',
    returned: 'Returned to the till',
    signReversal: 'Staff signature',
    signVendorPlain: 'Vendor’s signature',
  },
} as const;

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const styles = `
@page{size:A4;margin:15mm}
*{box-sizing:border-box}
body{margin:0 auto;max-width:180mm;padding:8mm;font:11pt/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#000;background:#fff}
header{display:flex;justify-content:space-between;align-items:flex-start;gap:1rem;border-bottom:2px solid #000;padding-bottom:.5rem}
header img{max-height:18mm;max-width:50mm}
h1{font-size:16pt;margin:0}
.newspaper{font-size:13pt;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:1rem 0}
dt{font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse;margin:1rem 0}
th,td{text-align:left;padding:.3rem .4rem;border-bottom:1px solid #999;vertical-align:top}
th.num,td.num{text-align:right;white-space:nowrap}
tfoot td{font-weight:700;font-size:13pt;border-top:2px solid #000;border-bottom:0}
.reversed{border:3px solid #b00;color:#b00;font-weight:700;padding:.5rem;margin:1rem 0}
.signatures{display:grid;grid-template-columns:1fr 1fr;gap:12mm;margin-top:22mm}
.signatures div{border-top:1px solid #000;padding-top:.3rem;font-size:9pt}
tr{break-inside:avoid}
@media screen{body{margin:1rem auto;box-shadow:0 0 4px rgba(0,0,0,.3)}}
`;

export interface ReceiptInput {
  newspaperName: string;
  logoUrl: string | null;
  payout: Payout;
  lines: PayoutLine[];
  lang: ReceiptLanguage;
  timeZone: string;
  /** The installation's currency: the amounts are in its minor unit. */
  currency: Currency;
}

/** The receipt of a payout as a complete HTML page. */
export function receiptHtml({ newspaperName, logoUrl, payout, lines, lang, timeZone, currency }: ReceiptInput): string {
  const t = texts[lang];
  const amount = (minor: number) => escapeHtml(formatAmount(minor, currency, lang));
  const when = (iso: string) =>
    new Intl.DateTimeFormat(t.locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const rows = lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(payoutLineName(line, lang))}</td>` +
        `<td class="num">${line.quantity ?? ''}</td><td class="num">${amount(line.amount)}</td></tr>`,
    )
    .join('\n');
  const vendor = `${escapeHtml(payout.vendor.name)} (${escapeHtml(payout.vendor.licenseId)})`;
  const reversal = payout.reversedAt
    ? `<p class="reversed" id="receipt-reversed">${escapeHtml(t.reversed(when(payout.reversedAt), payout.reversedBy ?? ''))}` +
      `${payout.reversalVoucher ? `<br>${escapeHtml(t.reversedWith(payout.reversalVoucher))}` : ''}` +
      `<br>${t.reason}: ${escapeHtml(payout.reversalReason ?? '')}</p>`
    : '';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${t.title} ${payout.voucher} · ${newspaperName}`)}</title>
<style>${styles}</style>
</head>
<body>
<header>
<div><div class="newspaper" id="receipt-newspaper">${escapeHtml(newspaperName)}</div><h1>${t.title}</h1></div>
${logoUrl ? `<img src="${escapeHtml(logoUrl)}" alt="">` : ''}
</header>
<dl>
<dt>${t.number}</dt><dd id="receipt-number">${escapeHtml(payout.voucher)}</dd>
<dt>${t.vendor}</dt><dd id="receipt-vendor">${vendor}</dd>
<dt>${t.paidAt}</dt><dd id="receipt-date">${escapeHtml(when(payout.createdAt))}</dd>
<dt>${t.authorisedBy}</dt><dd id="receipt-staff">${escapeHtml(payout.authorisedBy)}</dd>
</dl>
${reversal}
<table id="receipt-rows">
<thead><tr><th>${t.line}</th><th class="num">${t.quantity}</th><th class="num">${t.amount}</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot><tr><td colspan="2">${t.total}</td><td class="num" id="receipt-total">${amount(payout.amount)}</td></tr></tfoot>
</table>
<section class="signatures">
<div>${t.signVendor}<br>${vendor}</div>
<div>${t.signStaff}<br>${escapeHtml(payout.authorisedBy)}</div>
</section>
</body>
</html>`;
}

/**
 * The paper of a payout's reversal: its own voucher (the cash that came back into the till), the
 * payout's voucher it reverses, who reversed it, when and why, and the amount.
 */
export function reversalReceiptHtml({
  newspaperName,
  logoUrl,
  payout,
  lang,
  timeZone,
  currency,
}: Omit<ReceiptInput, 'lines'>): string {
  const t = texts[lang];
  const amount = (minor: number) => escapeHtml(formatAmount(minor, currency, lang));
  const when = (iso: string) =>
    new Intl.DateTimeFormat(t.locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  const vendor = `${escapeHtml(payout.vendor.name)} (${escapeHtml(payout.vendor.licenseId)})`;
  const voucher = payout.reversalVoucher ?? '–';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${t.reversalTitle} ${voucher} · ${newspaperName}`)}</title>
<style>${styles}</style>
</head>
<body>
<header>
<div><div class="newspaper" id="receipt-newspaper">${escapeHtml(newspaperName)}</div><h1>${t.reversalTitle}</h1></div>
${logoUrl ? `<img src="${escapeHtml(logoUrl)}" alt="">` : ''}
</header>
<dl>
<dt>${t.number}</dt><dd id="receipt-number">${escapeHtml(voucher)}</dd>
<dt>${t.reverses}</dt><dd id="receipt-reverses">${escapeHtml(payout.voucher)}</dd>
<dt>${t.vendor}</dt><dd id="receipt-vendor">${vendor}</dd>
<dt>${t.reversedAt}</dt><dd id="receipt-date">${payout.reversedAt ? escapeHtml(when(payout.reversedAt)) : ''}</dd>
<dt>${t.reversedBy}</dt><dd id="receipt-staff">${escapeHtml(payout.reversedBy ?? '')}</dd>
<dt>${t.reason}</dt><dd id="receipt-reason">${escapeHtml(payout.reversalReason ?? '')}</dd>
</dl>
<table id="receipt-rows">
<tfoot><tr><td>${t.returned}</td><td class="num" id="receipt-total">${amount(payout.amount)}</td></tr></tfoot>
</table>
<section class="signatures">
<div>${t.signVendorPlain}<br>${vendor}</div>
<div>${t.signReversal}<br>${escapeHtml(payout.reversedBy ?? '')}</div>
</section>
</body>
</html>`;
}
