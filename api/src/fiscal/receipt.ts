import type { Knex } from 'knex';
import qrcode from 'qrcode-generator';
import type { Config } from '../foundations/config.ts';
import { tillFiscal } from './settings.ts';
import { signForReceipt, type FiscalTransaction } from './transactions.ts';

// The fiscal block of a receipt (Kaufbeleg, Auszahlungsbeleg, Kassenbericht): for each transaction
// of the paper, the TSE's data a German receipt must carry (§6 KassenSichV, AEAO zu §146a Nr. 2.2.3:
// TSE and Kassen serial numbers, transaction number, signature counter, start and end, signature) and
// the DSFinV-K QR code that holds them all (Anhang I), drawn as a picture whose alt text is its text.
// A transaction the TSE has not signed says so: the booking stands, and it is signed later. An
// Austrian till prints its RKSV receipt instead (Kassen-ID, Belegnummer, the signed code's QR).

type Lang = 'de' | 'en';

const texts = {
  de: {
    heading: 'TSE',
    cases: {
      Umsatz: 'Verkauf',
      Auszahlung: 'Auszahlung',
      Einzahlung: 'Einzahlung',
      Geldtransit: 'Geldtransit',
      DifferenzSollIst: 'Kassendifferenz',
      Anfangsbestand: 'Anfangsbestand',
    } as Record<string, string>,
    tssSerial: 'TSE-Seriennummer',
    clientSerial: 'Kassen-Seriennummer',
    number: 'TSE-Transaktion',
    counter: 'Signaturzähler',
    start: 'TSE-Start',
    end: 'TSE-Stop',
    algorithm: 'Signaturalgorithmus',
    timeFormat: 'Zeitformat',
    signature: 'TSE-Signatur',
    failed: 'TSE ausgefallen',
    failedText:
      'Die Bewegung ist gebucht; die Technische Sicherheitseinrichtung hat nicht geantwortet. Sie wird signiert, sobald die TSE wieder erreichbar ist.',
    test: 'Testmodus: mit dem lokalen TSE-Simulator oder einer Test-TSE signiert, nicht für das Finanzamt.',
    at: {
      heading: 'RKSV',
      cashRegisterId: 'Kassen-ID',
      receiptNumber: 'Belegnummer',
      time: 'Beleg-Datum',
      kind: 'Belegart',
      certificateSerial: 'Zertifikat-Seriennummer',
      failed: 'Sicherheitseinrichtung ausgefallen',
      failedText:
        'Die Bewegung ist gebucht; der Signaturdienst war nicht erreichbar. Bitte eine Kopie dieses Belegs aufbewahren: Er wird unter seiner Kennung nacherfasst, sobald der Dienst wieder erreichbar ist.',
      unitFailed:
        'Die Signaturerstellungseinheit ist ausgefallen; der Beleg steht in der Belegkette, nach ihrer Wiederinbetriebnahme folgt ein signierter Sammelbeleg (§ 17 RKSV).',
      test: 'Testmodus: mit dem lokalen Simulator von fiskaly SIGN AT signiert, nicht für das Finanzamt.',
    },
  },
  en: {
    heading: 'TSE',
    cases: {
      Umsatz: 'Sale',
      Auszahlung: 'Payout',
      Einzahlung: 'Cash in',
      Geldtransit: 'Cash transfer',
      DifferenzSollIst: 'Count difference',
      Anfangsbestand: 'Opening balance',
    } as Record<string, string>,
    tssSerial: 'TSE serial number',
    clientSerial: 'Till serial number',
    number: 'TSE transaction',
    counter: 'Signature counter',
    start: 'TSE start',
    end: 'TSE end',
    algorithm: 'Signature algorithm',
    timeFormat: 'Time format',
    signature: 'TSE signature',
    failed: 'TSE unavailable',
    failedText:
      'The movement is booked; the technical security device did not answer. It is signed as soon as the TSE can be reached again.',
    test: 'Test mode: signed by the local TSE simulator or a test TSE, not for the tax office.',
    at: {
      heading: 'RKSV',
      cashRegisterId: 'Cash register ID',
      receiptNumber: 'Receipt number',
      time: 'Receipt date',
      kind: 'Receipt type',
      certificateSerial: 'Certificate serial number',
      failed: 'Signature device failed (Sicherheitseinrichtung ausgefallen)',
      failedText:
        'The movement is booked; the signature service could not be reached. Please keep a copy of this receipt: it is entered later under its own id once the service answers.',
      unitFailed:
        'The signature creation unit has failed; the receipt is in the receipt chain, and a signed collective receipt follows once the unit is back (§17 RKSV).',
      test: 'Test mode: signed by the local simulator of fiskaly SIGN AT, not for the tax office.',
    },
  },
} as const;

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The QR code as a GIF data URL (4 pixels a module, the quiet zone of 4 modules the standard asks). */
export function qrDataUrl(text: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  return qr.createDataURL(4, 16);
}

/** The block for these transactions; empty when there are none (a till that does not sign). */
export function fiscalBlockHtml(transactions: FiscalTransaction[], lang: Lang): string {
  if (!transactions.length) return '';
  const t = texts[lang];
  const row = (label: string, value: string | number, cls = '') =>
    `<dt>${label}</dt><dd${cls ? ` class="${cls}"` : ''}>${escape(String(value))}</dd>`;
  const parts = transactions.map((tx) => {
    const austria = tx.country === 'AT';
    const heading = austria ? t.at.heading : t.heading;
    const title = `${heading} · ${escape(t.cases[tx.businessCase] ?? tx.businessCase)}`;
    const sig = tx.signature;
    if (tx.state !== 'signed' || !sig)
      return `<div class="tse tse-failed" data-fiscal-state="${tx.state}"><h3>${title}</h3>
<p id="receipt-tse-failed-${tx.id}" class="tse-failed-text"><strong>${austria ? t.at.failed : t.failed}</strong>: ${austria ? t.at.failedText : t.failedText}</p></div>`;
    // Austria: the receipt's Kassen-ID, Belegnummer and date, and the QR code of the signed
    // machine-readable code (§10 (2) RKSV, Anlage Z 12), its text as the picture's alt text.
    if (sig.country === 'AT')
      return `<div class="tse" data-fiscal-state="signed"><h3>${title}</h3>
<div class="tse-grid"><dl>
${row(t.at.cashRegisterId, sig.cashRegisterId, 'tse-long')}
${row(t.at.receiptNumber, sig.receiptNumber)}
${row(t.at.time, sig.time)}
${row(t.at.kind, sig.kind)}
${row(t.at.certificateSerial, sig.certificateSerial, 'tse-long')}
</dl>
<img class="tse-qr rksv-qr" id="receipt-tse-qr-${tx.id}" src="${qrDataUrl(sig.qr)}" alt="${escape(sig.qr)}"></div>${
        sig.signed === false
          ? `<p class="tse-failed-text rksv-unit-failed"><strong>${t.at.failed}</strong>: ${t.at.unitFailed}</p>`
          : ''
      }</div>`;
    return `<div class="tse" data-fiscal-state="signed"><h3>${title}</h3>
<div class="tse-grid"><dl>
${row(t.tssSerial, sig.tssSerial, 'tse-long')}
${row(t.clientSerial, sig.clientSerial, 'tse-long')}
${row(t.number, sig.transactionNumber)}
${row(t.counter, sig.signatureCounter)}
${row(t.start, sig.start)}
${row(t.end, sig.end)}
${row(t.algorithm, sig.algorithm)}
${row(t.timeFormat, sig.timeFormat)}
${row(t.signature, sig.signature, 'tse-long')}
</dl>
<img class="tse-qr" id="receipt-tse-qr-${tx.id}" src="${qrDataUrl(sig.qr)}" alt="${escape(sig.qr)}"></div></div>`;
  });
  const testing = transactions.filter((tx) => tx.mode === 'test');
  const test = testing.length
    ? `<p class="tse-test">${testing.every((tx) => tx.country === 'AT') ? t.at.test : t.test}</p>`
    : '';
  return `<section id="receipt-tse" class="tse-block">
<style>.tse-block{margin:1rem 0;break-inside:avoid;font-size:8.5pt}.tse-block h3{font-size:10pt;margin:.6rem 0 .2rem}
.tse-grid{display:flex;gap:1rem;align-items:flex-start}.tse-grid dl{flex:1;margin:0;grid-template-columns:max-content minmax(0,1fr)}
.tse-long{overflow-wrap:anywhere;font-family:ui-monospace,monospace}.tse-qr{width:40mm;height:40mm;image-rendering:pixelated}
.tse-failed-text{border:2px solid #000;padding:.4rem}</style>
${parts.join('\n')}
${test}
</section>`;
}

/** What a receipt's movements are, found by what the receipt is of. */
export type ReceiptOf =
  { visitId: string } | { payoutId: number } | { reversalOfPayoutId: number } | { closeId: number };

async function refsOf(
  db: Knex,
  of: ReceiptOf,
): Promise<{ tillId: number; counterVisitId?: string; cashMovementIds: number[] } | undefined> {
  const ids = (rows: { id: number | string }[]) => rows.map((r) => Number(r.id));
  if ('visitId' in of) {
    const visit = await db('counter_visits')
      .where({ id: of.visitId })
      .first<{ till_id: number; payout_id: number | null } | undefined>('till_id', 'payout_id');
    if (!visit) return undefined;
    const movements = await db('cash_movements as m')
      .leftJoin('ledger_rows as r', 'r.id', 'm.ledger_row_id')
      .where('m.counter_visit_id', of.visitId)
      .orWhere((q) => {
        if (visit.payout_id === null) q.whereRaw('false');
        else q.where('r.kind', 'payout').andWhere('r.payout_id', visit.payout_id);
      })
      .select<{ id: number | string }[]>('m.id');
    return { tillId: visit.till_id, counterVisitId: of.visitId, cashMovementIds: ids(movements) };
  }
  if ('payoutId' in of || 'reversalOfPayoutId' in of) {
    const payoutId = 'payoutId' in of ? of.payoutId : of.reversalOfPayoutId;
    const payout = await db('payouts').where({ id: payoutId }).first<{ till_id: number } | undefined>('till_id');
    if (!payout) return undefined;
    const rows =
      'payoutId' in of
        ? db('ledger_rows').where({ kind: 'payout', payout_id: payoutId }).select('id')
        : db('ledger_rows')
            .where('kind', 'payout_reversal')
            .whereIn('reversal_of', db('ledger_rows').where({ kind: 'payout', payout_id: payoutId }).select('id'))
            .select('id');
    const movements = await db('cash_movements').whereIn('ledger_row_id', rows).select<{ id: number | string }[]>('id');
    return { tillId: payout.till_id, cashMovementIds: ids(movements) };
  }
  const close = await db('till_closes')
    .where({ id: of.closeId })
    .first<{ till_id: number; difference_movement_id: number | string | null } | undefined>(
      'till_id',
      'difference_movement_id',
    );
  if (!close) return undefined;
  return {
    tillId: close.till_id,
    cashMovementIds: close.difference_movement_id === null ? [] : [Number(close.difference_movement_id)],
  };
}

/**
 * The fiscal block of a receipt: its movements signed first (a few seconds at most, see
 * signForReceipt), then printed; empty for a till that does not sign.
 */
export async function receiptFiscalBlock(db: Knex, config: Config, of: ReceiptOf, lang: Lang): Promise<string> {
  const refs = await refsOf(db, of);
  if (!refs) return '';
  if ((await tillFiscal(db, config, refs.tillId)).effectiveMode === 'off') return '';
  const transactions = await signForReceipt(db, config, refs.tillId, refs);
  return fiscalBlockHtml(transactions, lang);
}

/** The paper with the fiscal block above its signatures (or at its end). */
export function withFiscalBlock(html: string, block: string): string {
  if (!block) return html;
  const at = html.indexOf('<section class="signatures">');
  const end = at >= 0 ? at : html.lastIndexOf('</body>');
  return end < 0 ? html + block : `${html.slice(0, end)}${block}\n${html.slice(end)}`;
}
