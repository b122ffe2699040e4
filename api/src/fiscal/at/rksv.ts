import { createCipheriv, createHash } from 'node:crypto';
import type { FiscalRequest } from '../port.ts';

// The RKSV receipt as Austria's law defines it: the Registrierkassensicherheitsverordnung (RKSV,
// BGBl. II Nr. 410/2015) and its Anlage ("Detailspezifikation"), with the BMF's "Festlegungen zu
// Detailfragen der RKSV" and the A-SIT reference implementation (github.com/a-sit-plus/
// at-registrierkassen-mustercode) for what the Anlage leaves to the implementer. Pure functions: the
// chain's state and the signing live in chain.ts.

/** The five VAT slots of a receipt (Anlage Z 4, §9 (2) RKSV), in cents. */
export interface Amounts {
  normal: number;
  ermaessigt1: number;
  ermaessigt2: number;
  null: number;
  besonders: number;
}

export const zeroAmounts = (): Amounts => ({ normal: 0, ermaessigt1: 0, ermaessigt2: 0, null: 0, besonders: 0 });

// Which slot a rate (hundredths of a percent) goes to: 20 % Normal, 10 % Ermäßigt-1 (newspapers,
// §10 (2) Z 1 UStG 1994 with Anlage 1 Z 33), 13 % Ermäßigt-2, 0 % Null, 19 % Besonders (Jungholz
// and Mittelberg, §10 (4) UStG 1994); the Anlage names the slots, the UStG their rates.
const slots: Record<number, keyof Amounts> = {
  2000: 'normal',
  1000: 'ermaessigt1',
  1300: 'ermaessigt2',
  0: 'null',
  1900: 'besonders',
};

/** A sale's gross amounts per slot; a movement without a sale is a zero receipt (Nullbeleg). */
export function amountsOf(request: FiscalRequest): Amounts {
  const amounts = zeroAmounts();
  if (request.kind !== 'receipt') return amounts;
  for (const line of request.lines) {
    const slot = slots[line.vatRate ?? 0];
    if (!slot)
      throw new RangeError(`The VAT rate ${(line.vatRate ?? 0) / 100} % has no RKSV slot (20, 10, 13, 0, 19 %).`);
    amounts[slot] += line.gross;
  }
  return amounts;
}

export const sumOf = (a: Amounts) => a.normal + a.ermaessigt1 + a.ermaessigt2 + a.null + a.besonders;

/** An amount as the code writes it (Anlage Z 4): two decimals after a comma, a minus when negative. */
export function formatAmount(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** Date and time of the receipt, local and without a zone (Anlage Z 4: ISO 8601 "yyyy-MM-ddTHH:mm:ss"). */
export function receiptTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

// R1 is the only algorithm suite the Anlage defines (Z 2: ES256, SHA-256, a chain value of 8 bytes).
const chainBytes = 8;

/**
 * The chain value (Anlage Z 4 "Sig-Voriger-Beleg", §6 RKSV): the first 8 bytes of SHA-256 of the
 * previous receipt's JWS compact, base64; for the start receipt of the Kassen-ID itself.
 */
export const chainValue = (previousJws: string | null, cashRegisterId: string) =>
  createHash('sha256')
    .update(previousJws ?? cashRegisterId, 'utf8')
    .digest()
    .subarray(0, chainBytes)
    .toString('base64');

// The counter's length in bytes: the Detailfragen allow 5 to 16 (two's complement), the mustercode's
// default is 8, which holds any sum of cents this counter meets.
const counterBytes = 8;

/** The IV of the counter's encryption (Anlage Z 8): SHA-256 of Kassen-ID and Belegnummer, first 16 bytes. */
const counterIv = (cashRegisterId: string, receiptNumber: string) =>
  createHash('sha256').update(`${cashRegisterId}${receiptNumber}`, 'utf8').digest().subarray(0, 16);

/**
 * The turnover counter encrypted with AES-256 in ICM (the CTR mode of node:crypto, the IV as the
 * first counter block), Anlage Z 8: the counter in cents as a two's complement of 8 bytes, base64.
 */
export function encryptCounter(aesKey: Buffer, cashRegisterId: string, receiptNumber: string, cents: number): string {
  const plain = Buffer.alloc(counterBytes);
  plain.writeBigInt64BE(BigInt(cents));
  const cipher = createCipheriv('aes-256-ctr', aesKey, counterIv(cashRegisterId, receiptNumber));
  return Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
}

/** The counter back in cents: what the tax office's check (and ours) does with the registered key. */
export function decryptCounter(
  aesKey: Buffer,
  cashRegisterId: string,
  receiptNumber: string,
  encrypted: string,
): number {
  const bytes = Buffer.from(encrypted, 'base64');
  const decipher = createCipheriv('aes-256-ctr', aesKey, counterIv(cashRegisterId, receiptNumber));
  const plain = Buffer.concat([decipher.update(bytes), decipher.final()]);
  return Number(plain.readBigInt64BE());
}

/** The receipt's machine-readable code, the payload the signature device signs (Anlage Z 4). */
export interface ReceiptCode {
  /** The ZDA the signature device belongs to (Anlage Z 2): AT0 for a device without a certificate. */
  zda: string;
  cashRegisterId: string;
  receiptNumber: string;
  time: string;
  amounts: Amounts;
  encryptedTurnover: string;
  certificateSerial: string;
  chainValue: string;
}

export const machineCode = (c: ReceiptCode) =>
  [
    '',
    `R1-${c.zda}`,
    c.cashRegisterId,
    c.receiptNumber,
    c.time,
    formatAmount(c.amounts.normal),
    formatAmount(c.amounts.ermaessigt1),
    formatAmount(c.amounts.ermaessigt2),
    formatAmount(c.amounts.null),
    formatAmount(c.amounts.besonders),
    c.encryptedTurnover,
    c.certificateSerial,
    c.chainValue,
  ].join('_');

/** The fields of a machine-readable code, read back (for checks and the receipt). */
export function parseMachineCode(code: string) {
  const f = code.split('_');
  if (f.length !== 13 || f[0] !== '' || !f[1]!.startsWith('R1-')) throw new Error(`not an RKSV code: ${code}`);
  return {
    zda: f[1]!.slice(3),
    cashRegisterId: f[2]!,
    receiptNumber: f[3]!,
    time: f[4]!,
    amounts: f.slice(5, 10),
    encryptedTurnover: f[10]!,
    certificateSerial: f[11]!,
    chainValue: f[12]!,
  };
}

// JWS compact (RFC 7515) with the header of the R1 suite (Anlage Z 2): {"alg":"ES256"}.
const jwsHeader = Buffer.from('{"alg":"ES256"}', 'utf8').toString('base64url');

/** What the signature device signs: the JWS signing input of the code. */
export const signingInput = (code: string) => `${jwsHeader}.${Buffer.from(code, 'utf8').toString('base64url')}`;

/** The QR code's text (Anlage Z 12): the code, `_`, the signature value in base64 (not base64url). */
export function qrOf(jws: string): string {
  const [, payload = '', signature = ''] = jws.split('.');
  return `${Buffer.from(payload, 'base64url').toString('utf8')}_${Buffer.from(signature, 'base64url').toString('base64')}`;
}
