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

/** Whether a rate (hundredths of a percent) has a slot of the receipt: one without cannot be signed. */
export const rateHasSlot = (rate: number) => slots[rate] !== undefined;

/** The rates with a slot, for a sentence that names them: "20, 10, 13, 0, 19 %". */
export const slotRates = () =>
  `${Object.keys(slots)
    .map((rate) => Number(rate) / 100)
    .sort((a, b) => b - a)
    .join(', ')} %`;

/** A sale's gross amounts per slot; a movement without a sale is a zero receipt (Nullbeleg). */
export function amountsOf(request: FiscalRequest): Amounts {
  const amounts = zeroAmounts();
  if (request.kind !== 'receipt') return amounts;
  for (const line of request.lines) {
    const slot = slots[line.vatRate ?? 0];
    if (!slot) throw new RangeError(`The VAT rate ${(line.vatRate ?? 0) / 100} % has no RKSV slot (${slotRates()}).`);
    amounts[slot] += line.gross;
  }
  return amounts;
}

// fiskaly SIGN AT names the five slots in a receipt's `schema.raw` as decimal strings
// (https://developer.fiskaly.com/api/rksv/v1, "Sign a Receipt"; the same names in the public
// ERPNext client github.com/KMU-ERP/ERPNext-Fiskaly-SIGN-AT, providers/sign_at_v1.py).
export const rawFields: Record<keyof Amounts, string> = {
  normal: 'gross_amount_standard',
  ermaessigt1: 'gross_amount_reduced_1',
  ermaessigt2: 'gross_amount_reduced_2',
  null: 'gross_amount_zero',
  besonders: 'gross_amount_special',
};

/** Cents as SIGN AT's decimal string: "12.50", "-3.00". */
export function decimalOf(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A decimal string back in cents; anything else is refused (null). */
export function centsOfDecimal(value: unknown): number | null {
  const match = typeof value === 'string' ? /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value) : null;
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '0').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** The receipt's amounts as SIGN AT's `schema.raw`. */
export const rawOf = (amounts: Amounts): Record<string, string> =>
  Object.fromEntries(
    (Object.keys(rawFields) as (keyof Amounts)[]).map((slot) => [rawFields[slot], decimalOf(amounts[slot])]),
  );

/** `schema.raw` back as amounts; a field missing or not a decimal string is refused (null). */
export function amountsOfRaw(raw: unknown): Amounts | null {
  if (!raw || typeof raw !== 'object') return null;
  const amounts = zeroAmounts();
  for (const slot of Object.keys(rawFields) as (keyof Amounts)[]) {
    const cents = centsOfDecimal((raw as Record<string, unknown>)[rawFields[slot]]);
    if (cents === null) return null;
    amounts[slot] = cents;
  }
  return amounts;
}

export const sumOf = (a: Amounts) => a.normal + a.ermaessigt1 + a.ermaessigt2 + a.null + a.besonders;

/** An amount as the code writes it (Anlage Z 4): two decimals after a comma, a minus when negative. */
export function formatAmount(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
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

// What a storno and a training receipt hold instead of the encrypted counter (Detailspezifikation
// Abs. 4 "Umsatzzähler", Festlegungen zu Detailfragen 5.3): the UTF-8 text "STO" or "TRA" in base64. A
// storno's amounts still count (the counter goes down by them); a training receipt's do not.
export const stornoMarker = Buffer.from('STO', 'utf8').toString('base64'); // U1RP
export const trainingMarker = Buffer.from('TRA', 'utf8').toString('base64'); // VFJB

// A receipt made while the signature creation unit has failed (§17 (1) RKSV, Detailspezifikation
// Abs. 5): it is in the chain like any other, its signature value the UTF-8 text "Sicherheitseinrichtung
// ausgefallen" (base64 in the QR code, base64url in the JWS) instead of the unit's signature.
export const failedText = 'Sicherheitseinrichtung ausgefallen';
export const failedSignature = Buffer.from(failedText, 'utf8').toString('base64url');

/** Whether a JWS's (or QR code's) signature value is the failed unit's text instead of a signature. */
export const isFailedSignature = (jws: string) => jws.split('.')[2] === failedSignature;

/**
 * The check value of an AES key (Prüfwert) FinanzOnline asks with the key at a till's registration:
 * SHA-256 of the key's base64 text, its first 3 bytes in base64 without "=" (4 characters), as the
 * BMF's "Bekanntgabe zur Registrierung von Registrierkassen über FinanzOnline" defines it (in the
 * README of github.com/a-sit-plus/at-registrierkassen-mustercode, N = 3).
 */
export const aesKeyCheckValue = (base64Key: string) =>
  createHash('sha256').update(base64Key, 'utf8').digest().subarray(0, 3).toString('base64').replace(/=/g, '');

// JWS compact (RFC 7515) with the header of the R1 suite (Anlage Z 2): {"alg":"ES256"}.
const jwsHeader = Buffer.from('{"alg":"ES256"}', 'utf8').toString('base64url');

/** What the signature device signs: the JWS signing input of the code. */
export const signingInput = (code: string) => `${jwsHeader}.${Buffer.from(code, 'utf8').toString('base64url')}`;

/**
 * The JWS compact back from a QR code's text: the header of the R1 suite, the code and the signature
 * value, each base64url. The DEP (Anlage Z 3) holds this form; SIGN AT answers the QR code's text.
 */
export function jwsOfQr(qr: string): string {
  const at = qr.lastIndexOf('_');
  const code = qr.slice(0, at);
  const signature = Buffer.from(qr.slice(at + 1), 'base64').toString('base64url');
  return `${signingInput(code)}.${signature}`;
}

/** The QR code's text (Anlage Z 12): the code, `_`, the signature value in base64 (not base64url). */
export function qrOf(jws: string): string {
  const [, payload = '', signature = ''] = jws.split('.');
  return `${Buffer.from(payload, 'base64url').toString('utf8')}_${Buffer.from(signature, 'base64url').toString('base64')}`;
}
