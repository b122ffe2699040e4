import type { Knex } from 'knex';
import { uuidFrom } from '../ids.ts';
import type { AtReceiptKind, AtSignature, FiscalPort, SignJob } from '../port.ts';
import { SigningFailed } from '../port.ts';
import {
  ensureRegister,
  ensureScu,
  receiptsFrom,
  signReceipt,
  type Json,
  type LegalEntity,
  type SignAtEndpoint,
  type SignAtReceiptType,
} from './fiskaly.ts';
import { aesKeyCheckValue, amountsOf, amountsOfRaw, isFailedSignature, jwsOfQr, qrOf, rawOf, sumOf } from './rksv.ts';

// A till's RKSV receipt chain (RKSV BGBl. II Nr. 410/2015) at fiskaly SIGN AT (fiskaly.ts): each
// Austrian till is one cash register there, each fiscal transaction one receipt of its chain, signed
// under the transaction's id (so a retry answers the same receipt). SIGN AT makes by itself the start
// receipt (§6 (4) RKSV) when the register is initialised, the month and year receipts (§8 RKSV), and,
// after its signature creation unit failed, the Sammelbeleg (§17 (4) RKSV); while the unit has failed,
// receipts stay in the chain with "Sicherheitseinrichtung ausgefallen" as their signature value. A copy
// of every receipt of the chain, in its order, is kept here (fiscal_rksv_receipts): what the receipt
// prints and the DEP export (dep.ts) holds, one Kassen-ID per DEP.
//
// Sales are Barumsätze (§131b BAO, §9 RKSV) with their gross per VAT slot; cash moved without a sale
// (payouts, deposits, differences, the opening balance) are zero receipts (Nullbelege), so the DEP
// holds every cash movement of the till. A storno is a receipt of its own with the amounts reversed,
// a training receipt one whose amounts do not count (rksv.ts). When SIGN AT cannot be reached at all,
// that is an outage of the register itself (fiskaly's word, support.fiskaly.com/hc/de/articles/
// 4961028134546): the receipt says so, and the transaction is entered later under its own id.

interface TillRow {
  till_id: number;
  cash_register_id: string;
  register_id: string | null;
  scu_id: string | null;
  aes_key_shown_at: Date | string | null;
}

interface ReceiptRow {
  till_id: number;
  number: number | string;
  kind: AtReceiptKind;
  jws: string;
  signed: boolean;
}

/** The till's cash register at SIGN AT: an id of its own, the same on every machine. */
export const registerIdOf = (scuId: string, tillId: number) => uuidFrom(`rksv-register:${scuId}:${tillId}`);

/** What SIGN AT's receipt types are in the RKSV's words. */
function kindOf(receipt: Json): AtReceiptKind {
  switch (receipt.receipt_type) {
    case 'INITIALIZATION':
      return 'Startbeleg';
    case 'MONTHLY_CLOSE':
      return 'Monatsbeleg';
    case 'YEARLY_CLOSE':
      return 'Jahresbeleg';
    case 'SIGNATURE_CREATION_UNIT_FAULT_CLEARANCE':
      return 'Sammelbeleg';
    case 'DECOMMISSION':
      return 'Schlussbeleg';
    case 'CANCELLATION':
      return 'Storno';
    case 'TRAINING':
      return 'Training';
    default: {
      const amounts = amountsOfRaw((receipt.schema as Json | undefined)?.raw);
      return amounts && sumOf(amounts) !== 0 ? 'Barumsatz' : 'Nullbeleg';
    }
  }
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
    signed: row.signed && !isFailedSignature(row.jws),
  };
}

/** Cash registers this process has set up at SIGN AT, per paper's database (till ids repeat between papers). */
const ensuredOfDb = new WeakMap<Knex, Set<string>>();
function ensuredIn(db: Knex): Set<string> {
  let ensured = ensuredOfDb.get(db);
  if (!ensured) ensuredOfDb.set(db, (ensured = new Set()));
  return ensured;
}

/** The till's cash register, set up at SIGN AT on first use (with the unit), and its row here. */
async function registeredTill(
  db: Knex,
  endpoint: SignAtEndpoint,
  entity: () => Promise<LegalEntity>,
  tillId: number,
): Promise<TillRow & { register_id: string }> {
  const registerId = registerIdOf(endpoint.scuId, tillId);
  const key = `${endpoint.baseUrl} ${registerId}`;
  const known = await db('fiscal_rksv_tills').where({ till_id: tillId }).first<TillRow | undefined>();
  if (known?.register_id === registerId && ensuredIn(db).has(key)) return { ...known, register_id: registerId };
  // A chain begun elsewhere (another unit, or before this till signed at SIGN AT) is not continued
  // by a new register under the same till: its copy here would mix two Kassen-IDs.
  if (
    known &&
    known.register_id !== registerId &&
    (await db('fiscal_rksv_receipts').where({ till_id: tillId }).first())
  )
    throw new SigningFailed(
      `This till's receipt chain (Kassen-ID ${known.cash_register_id}) was signed by another signature service; a till signs with one cash register for good.`,
    );
  await ensureScu(endpoint, await entity());
  const register = await ensureRegister(endpoint, registerId, `Kasse ${tillId}`);
  const cashRegisterId = String(register.serial_number);
  await db('fiscal_rksv_tills')
    .insert({ till_id: tillId, cash_register_id: cashRegisterId, register_id: registerId, scu_id: endpoint.scuId })
    .onConflict('till_id')
    .merge(['cash_register_id', 'register_id', 'scu_id']);
  ensuredIn(db).add(key);
  const row = await db('fiscal_rksv_tills').where({ till_id: tillId }).first<TillRow>();
  return { ...row, register_id: registerId };
}

/** Copies the register's receipts this installation does not hold yet, in the order of the chain. */
async function copyReceipts(db: Knex, endpoint: SignAtEndpoint, tillId: number, registerId: string): Promise<void> {
  const held = Number(
    (await db('fiscal_rksv_receipts').where({ till_id: tillId }).count<{ count: string }[]>('* as count'))[0]!.count,
  );
  const receipts = await receiptsFrom(endpoint, registerId, held);
  if (!receipts.length) return;
  const transactions = await db('fiscal_transactions')
    .whereIn(
      'tx_id',
      receipts.map((r) => String(r._id)),
    )
    .select<{ id: number | string; tx_id: string }[]>('id', 'tx_id');
  const txOf = new Map(transactions.map((t) => [t.tx_id, Number(t.id)]));
  for (const receipt of receipts) {
    const qr = String(receipt.qr_code_data);
    const jws = jwsOfQr(qr);
    await db('fiscal_rksv_receipts')
      .insert({
        till_id: tillId,
        number: Number(receipt.receipt_number),
        kind: kindOf(receipt),
        fiscal_transaction_id: txOf.get(String(receipt._id)) ?? null,
        receipt_id: String(receipt._id),
        receipt_date: (qr.split('_')[4] ?? '').slice(0, 10),
        turnover: null,
        jws,
        signed: receipt.signed !== false && !isFailedSignature(jws),
      })
      .onConflict(['till_id', 'number'])
      .ignore();
  }
}

const receiptTypes: Record<string, SignAtReceiptType> = {
  sale: 'NORMAL',
  storno: 'CANCELLATION',
  training: 'TRAINING',
};

/** Austria's port on fiskaly SIGN AT (or its local simulator, which speaks the same API). */
export function rksvPort(db: Knex, endpoint: SignAtEndpoint, entity: () => Promise<LegalEntity>): FiscalPort {
  return {
    country: 'AT',
    async sign(job: SignJob) {
      const tx = await db('fiscal_transactions')
        .where({ tx_id: job.txId })
        .first<{ id: number | string } | undefined>('id');
      if (!tx) throw new SigningFailed(`No fiscal transaction ${job.txId}.`);
      let amounts;
      try {
        amounts = amountsOf(job.request);
      } catch (error) {
        throw new SigningFailed((error as Error).message);
      }
      const till = await registeredTill(db, endpoint, entity, job.tillId);
      const copied = () =>
        db('fiscal_rksv_receipts')
          .where({ receipt_id: job.txId })
          .first<ReceiptRow | undefined>('till_id', 'number', 'kind', 'jws', 'signed');
      // Signed before (a retry after the answer was lost): the same receipt, never a second.
      const done = await copied();
      if (done) return atSignatureOf(done, till.cash_register_id);
      await signReceipt(
        endpoint,
        till.register_id,
        job.txId,
        receiptTypes[job.request.purpose ?? 'sale'] ?? 'NORMAL',
        rawOf(amounts),
      );
      await copyReceipts(db, endpoint, job.tillId, till.register_id);
      const row = await copied();
      if (!row) throw new SigningFailed('The receipt SIGN AT signed is not among the register’s receipts.');
      return atSignatureOf(row, till.cash_register_id);
    },
  };
}

/** What the office registers at FinanzOnline for a till (§16 RKSV). */
export interface RksvRegistration {
  tillId: number;
  cashRegisterId: string;
  /** The cash register's and the unit's ids at SIGN AT. */
  registerId: string | null;
  scuId: string | null;
  /** The AES-256 key, base64, where it is known here (the simulator): answered once, then null. */
  aesKey: string | null;
  /** Its check value (Prüfwert) FinanzOnline asks with it, where the key is known. */
  aesKeyCheckValue: string | null;
  aesKeyShownAt: string | null;
  /** The unit's key id (AT0) or certificate serial, and its ZDA, from the start receipt. */
  certificateSerial: string | null;
  zda: string | null;
  /** The start receipt's QR code, to check with the BMF's app (§6 (4) RKSV). */
  startReceipt: string | null;
}

/**
 * A till's registration data; `aesKeyOf` reads the register's AES key where this installation can
 * (the simulator): fiskaly keeps it and registers the till at FinanzOnline itself.
 */
export async function rksvRegistration(
  db: Knex,
  tillId: number,
  aesKeyOf?: (registerId: string) => Promise<string | null>,
): Promise<RksvRegistration | null> {
  const till = await db('fiscal_rksv_tills').where({ till_id: tillId }).first<TillRow | undefined>();
  if (!till) return null;
  const key = till.register_id && aesKeyOf ? await aesKeyOf(till.register_id) : null;
  let shownAt = till.aes_key_shown_at;
  let answered: string | null = null;
  if (key && !shownAt) {
    const shown = await db('fiscal_rksv_tills')
      .where({ till_id: tillId })
      .whereNull('aes_key_shown_at')
      .update({ aes_key_shown_at: db.fn.now() })
      .returning<{ aes_key_shown_at: Date | string }[]>('aes_key_shown_at');
    if (shown[0]) {
      answered = key;
      shownAt = shown[0].aes_key_shown_at;
    }
  }
  const start = await db('fiscal_rksv_receipts')
    .where({ till_id: tillId, kind: 'Startbeleg' })
    .orderBy('number')
    .first<{ jws: string } | undefined>('jws');
  const qr = start ? qrOf(start.jws) : null;
  const fields = qr?.split('_');
  return {
    tillId,
    cashRegisterId: till.cash_register_id,
    registerId: till.register_id,
    scuId: till.scu_id,
    aesKey: answered,
    aesKeyCheckValue: key ? aesKeyCheckValue(key) : null,
    aesKeyShownAt: shownAt ? new Date(shownAt).toISOString() : null,
    certificateSerial: fields?.[11] ?? null,
    zda: fields?.[1]?.slice(3) ?? null,
    startReceipt: qr,
  };
}
