import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AtReceiptKind, AtSignature, FiscalPort, SignJob } from '../port.ts';
import { SigningFailed } from '../port.ts';
import {
  amountsOf,
  chainValue,
  encryptCounter,
  machineCode,
  qrOf,
  receiptTime,
  signingInput,
  sumOf,
  zeroAmounts,
  type Amounts,
} from './rksv.ts';
import { scuInfo, scuSign, type ScuEndpoint } from './scu.ts';

// A till's RKSV receipt chain (RKSV BGBl. II Nr. 410/2015): each fiscal transaction of an Austrian
// till becomes one receipt, numbered after the last, chained to it, its turnover added to the
// counter, its code signed by the signature device (scu.ts). What the chain adds by itself:
// - the start receipt (Startbeleg, §6 (4) RKSV): a zero receipt, the first of the chain; the till's
//   opening balance when signing begins is signed as it, else one is made before the first receipt;
// - the month receipt (Monatsbeleg, §8 RKSV): a zero receipt whose counter is the month's end, made
//   before the first receipt of a new month; December's is the year receipt (Jahresbeleg, §8 (1)).
// Sales are Barumsätze (§131b BAO, §9 RKSV) with their gross per VAT slot; cash moved without a sale
// (payouts, deposits, differences, the opening balance) are zero receipts, so the DEP holds every
// cash movement of the till (Festlegungen zu Detailfragen: Nullbelege).
//
// The chain is one line per till: the next receipt is written only where the last one ended (the
// till's row names its number, the receipts' key forbids two of a number), so two processes never
// fork it; the loser's transaction stays unsigned and is signed at the next run.

interface TillRow {
  till_id: number;
  cash_register_id: string;
  aes_key: string;
  receipt_number: number | string;
  turnover: number | string;
  last_jws: string | null;
  month: string | null;
}

interface ReceiptRow {
  till_id: number;
  number: number | string;
  kind: AtReceiptKind;
  jws: string;
}

/** The till's chain, made on first use: its Kassen-ID and a new AES-256 key (Anlage Z 8). */
export async function rksvTill(db: Knex, tillId: number): Promise<TillRow> {
  await db('fiscal_rksv_tills')
    .insert({
      till_id: tillId,
      // unique within the installation's company (§16 RKSV registers each till by it)
      cash_register_id: `KASSE-${tillId}-${randomBytes(3).toString('hex').toUpperCase()}`,
      aes_key: randomBytes(32).toString('base64'),
    })
    .onConflict('till_id')
    .ignore();
  return db('fiscal_rksv_tills').where({ till_id: tillId }).first<TillRow>();
}

/** A receipt's signature as it is printed and exported, read back from its JWS. */
export function atSignatureOf(row: ReceiptRow, cashRegisterId: string): AtSignature {
  const qr = qrOf(row.jws);
  const fields = qr.split('_');
  return {
    country: 'AT',
    kind: row.kind,
    cashRegisterId,
    receiptNumber: String(row.number),
    time: fields[4] ?? '',
    certificateSerial: fields[11] ?? '',
    algorithm: 'ES256',
    jws: row.jws,
    qr,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === '23505';
}

/** Signs the next receipt of the till's chain; answers it, or refuses when another process was first. */
async function signNext(
  db: Knex,
  scu: ScuEndpoint,
  timeZone: string,
  tillId: number,
  kind: AtReceiptKind,
  amounts: Amounts,
  fiscalTransactionId: number | null,
): Promise<AtSignature> {
  const till = await rksvTill(db, tillId);
  const unit = await scuInfo(scu);
  const number = Number(till.receipt_number) + 1;
  const turnover = Number(till.turnover) + sumOf(amounts);
  const receiptNumber = String(number);
  const time = receiptTime(new Date(), timeZone);
  const code = machineCode({
    zda: unit.zda,
    cashRegisterId: till.cash_register_id,
    receiptNumber,
    time,
    amounts,
    encryptedTurnover: encryptCounter(
      Buffer.from(till.aes_key, 'base64'),
      till.cash_register_id,
      receiptNumber,
      turnover,
    ),
    certificateSerial: unit.serialNumber,
    chainValue: chainValue(till.last_jws, till.cash_register_id),
  });
  const input = signingInput(code);
  const jws = `${input}.${await scuSign(scu, input)}`;
  try {
    await db.transaction(async (trx) => {
      const moved = await trx('fiscal_rksv_tills')
        .where({ till_id: tillId, receipt_number: number - 1 })
        .update({
          receipt_number: number,
          turnover,
          last_jws: jws,
          month: time.slice(0, 7),
          certificate: unit.certificate,
          certificate_chain: JSON.stringify(unit.certificateChain),
        });
      if (moved !== 1) throw new SigningFailed('Another process signed a receipt of this till at the same time.');
      await trx('fiscal_rksv_receipts').insert({
        till_id: tillId,
        number,
        kind,
        fiscal_transaction_id: fiscalTransactionId,
        receipt_date: time.slice(0, 10),
        turnover,
        jws,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new SigningFailed('Another process signed a receipt of this till at the same time.');
    throw error;
  }
  return atSignatureOf({ till_id: tillId, number, kind, jws }, till.cash_register_id);
}

/** Austria's port on one signature device. */
export function rksvPort(db: Knex, scu: ScuEndpoint, timeZone: string): FiscalPort {
  return {
    country: 'AT',
    async sign(job: SignJob) {
      const tx = await db('fiscal_transactions')
        .where({ tx_id: job.txId })
        .first<{ id: number | string; business_case: string } | undefined>('id', 'business_case');
      if (!tx) throw new SigningFailed(`No fiscal transaction ${job.txId}.`);
      const till = await rksvTill(db, job.tillId);
      // Signed before (a retry after the answer was lost): the same receipt, never a second.
      const done = await db('fiscal_rksv_receipts')
        .where({ fiscal_transaction_id: tx.id })
        .first<ReceiptRow | undefined>('till_id', 'number', 'kind', 'jws');
      if (done) return atSignatureOf(done, till.cash_register_id);
      let amounts: Amounts;
      try {
        amounts = amountsOf(job.request);
      } catch (error) {
        throw new SigningFailed((error as Error).message);
      }
      const opening = tx.business_case === 'Anfangsbestand';
      if (Number(till.receipt_number) === 0) {
        if (opening) return signNext(db, scu, timeZone, job.tillId, 'Startbeleg', zeroAmounts(), Number(tx.id));
        await signNext(db, scu, timeZone, job.tillId, 'Startbeleg', zeroAmounts(), null);
      } else if (till.month && till.month !== receiptTime(new Date(), timeZone).slice(0, 7)) {
        const kind = till.month.endsWith('-12') ? 'Jahresbeleg' : 'Monatsbeleg';
        await signNext(db, scu, timeZone, job.tillId, kind, zeroAmounts(), null);
      }
      const kind = sumOf(amounts) !== 0 || job.request.kind === 'receipt' ? 'Barumsatz' : 'Nullbeleg';
      return signNext(db, scu, timeZone, job.tillId, kind, amounts, Number(tx.id));
    },
  };
}

/** What the office registers at FinanzOnline for a till (§16 RKSV); the AES key only the first time it is asked. */
export interface RksvRegistration {
  tillId: number;
  cashRegisterId: string;
  /** The AES-256 key, base64: answered once, then null (it decrypts the till's turnover). */
  aesKey: string | null;
  aesKeyShownAt: string;
  /** The signature device's certificate serial number (or key id) and ZDA, from the start receipt. */
  certificateSerial: string | null;
  zda: string | null;
  /** The start receipt's QR code, to check with the BMF's app (§6 (4) RKSV). */
  startReceipt: string | null;
}

export async function rksvRegistration(db: Knex, tillId: number): Promise<RksvRegistration> {
  const till = await rksvTill(db, tillId);
  const shown = await db('fiscal_rksv_tills')
    .where({ till_id: tillId })
    .whereNull('aes_key_shown_at')
    .update({ aes_key_shown_at: db.fn.now() })
    .returning<{ aes_key: string }[]>('aes_key');
  const at = await db('fiscal_rksv_tills')
    .where({ till_id: tillId })
    .first<{ aes_key_shown_at: Date | string }>('aes_key_shown_at');
  const start = await db('fiscal_rksv_receipts')
    .where({ till_id: tillId, kind: 'Startbeleg' })
    .orderBy('number')
    .first<{ jws: string } | undefined>('jws');
  const qr = start ? qrOf(start.jws) : null;
  const fields = qr?.split('_');
  return {
    tillId,
    cashRegisterId: till.cash_register_id,
    aesKey: shown[0]?.aes_key ?? null,
    aesKeyShownAt: new Date(at.aes_key_shown_at).toISOString(),
    certificateSerial: fields?.[11] ?? null,
    zda: fields?.[1]?.slice(3) ?? null,
    startReceipt: qr,
  };
}
