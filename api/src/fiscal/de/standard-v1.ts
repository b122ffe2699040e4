import type { FiscalRequest } from '../port.ts';
import { SigningFailed } from '../port.ts';

// A transaction in the words of fiskaly SIGN DE v2 and the DSFinV-K. Sources:
// - fiskaly's SIGN DE v2 API reference (developer.fiskaly.com, "upsertTransaction"): a finished
//   transaction carries `schema.standard_v1.receipt` with `receipt_type` (RECEIPT, TRANSFER, …),
//   `amounts_per_vat_rate` (`vat_rate` NORMAL, REDUCED_1, SPECIAL_RATE_1, SPECIAL_RATE_2, NULL, the
//   amount a decimal string) and `amounts_per_payment_type` (`payment_type` CASH or NON_CASH).
// - DSFinV-K 2.3 Anhang I and BSI TR-03153 (the "Kassenbeleg-V1" process type): processData is
//   `<Vorgangstyp>^<gross 19 %>_<7 %>_<10,7 %>_<5,5 %>_<0 %>^<amount>:<Bar|Unbar>_…`, the Vorgangstyp
//   "Beleg" for a sale and "AVTransfer" for cash moved without one; amounts with two decimals and a point.
// - DSFinV-K Anhang I (QR code, also fiskaly's "Receipt data" page and fiskaltrust's list of the
//   receipt's signature items): `V0;<kassen-seriennummer>;<processType>;<processData>;
//   <transaktions-nummer>;<signatur-zaehler>;<start-zeit>;<log-time>;<sig-alg>;<log-time-format>;
//   <signatur>;<public-key>`, the times ISO 8601, signature and key base64.

/** fiskaly's names of the German rates, in processData's order of the five amounts. */
const vatSlots = [
  { rate: 1900, fiskaly: 'NORMAL' },
  { rate: 700, fiskaly: 'REDUCED_1' },
  { rate: 1070, fiskaly: 'SPECIAL_RATE_1' },
  { rate: 550, fiskaly: 'SPECIAL_RATE_2' },
  { rate: 0, fiskaly: 'NULL' },
] as const;

export type FiskalyVatRate = (typeof vatSlots)[number]['fiskaly'];

/** Cents as the API's decimal string: 1234 → "12.34", −5 → "-0.05". */
export const decimal = (cents: number) => `${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2)}`;

/** The rates of a request that have no slot in a German TSE transaction (fiskaly knows five). */
export const ratesWithoutSlot = (request: FiscalRequest) => [
  ...new Set(
    request.lines.map((line) => line.vatRate ?? 0).filter((rate) => !vatSlots.some((slot) => slot.rate === rate)),
  ),
];

/** A rate with no slot of its own (a line without VAT is NULL, 0 %). */
function slotOf(rate: number | null) {
  const slot = vatSlots.find((s) => s.rate === (rate ?? 0));
  if (!slot) throw new SigningFailed(`The VAT rate ${(rate ?? 0) / 100} % has no place in a German TSE transaction.`);
  return slot;
}

export interface StandardV1Receipt {
  receipt_type: 'RECEIPT' | 'TRANSFER' | 'ABORT';
  amounts_per_vat_rate: { vat_rate: FiskalyVatRate; amount: string }[];
  amounts_per_payment_type: { payment_type: 'CASH' | 'NON_CASH'; amount: string }[];
}

/** The request as fiskaly's standard_v1 receipt: sums per rate and per payment type. */
export function standardV1(request: FiscalRequest): StandardV1Receipt {
  const perRate = new Map<FiskalyVatRate, number>();
  for (const line of request.lines) {
    const slot = slotOf(line.vatRate);
    perRate.set(slot.fiskaly, (perRate.get(slot.fiskaly) ?? 0) + line.gross);
  }
  const perType = new Map<'CASH' | 'NON_CASH', number>();
  for (const payment of request.payments) {
    const type = payment.type === 'Bar' ? 'CASH' : 'NON_CASH';
    perType.set(type, (perType.get(type) ?? 0) + payment.amount);
  }
  return {
    receipt_type: request.kind === 'receipt' ? 'RECEIPT' : 'TRANSFER',
    amounts_per_vat_rate: vatSlots
      .filter((s) => perRate.has(s.fiskaly))
      .map((s) => ({ vat_rate: s.fiskaly, amount: decimal(perRate.get(s.fiskaly)!) })),
    amounts_per_payment_type: [...perType].map(([payment_type, amount]) => ({ payment_type, amount: decimal(amount) })),
  };
}

/** What a cancelled transaction records: the receipt that was to be, as an ABORT (a Belegabbruch). */
export const abortReceipt = (request: FiscalRequest): StandardV1Receipt => ({
  ...standardV1(request),
  receipt_type: 'ABORT',
});

// fiskaly's schema of standard_v1.receipt (API reference, upsertTransaction, "schema"): receipt_type
// one of its names, amounts_per_vat_rate and amounts_per_payment_type arrays of objects with a
// vat_rate (the five German slots) or payment_type (CASH, NON_CASH) and an amount (a decimal string
// with a point and two to five decimals), a payment's currency_code ISO 4217; nothing else.
const receiptTypes = [
  'RECEIPT',
  'TRAINING',
  'TRANSFER',
  'ORDER',
  'CANCELLATION',
  'ABORT',
  'BENEFIT_IN_CASH',
  'BENEFIT_IN_KIND',
  'INVOICE',
  'OTHER',
];
const amountPattern = /^-?\d{1,21}\.\d{2,5}$/;

/** What is wrong with a standard_v1 receipt as fiskaly's schema reads it; empty when nothing is. */
export function standardV1Errors(receipt: unknown): string[] {
  const errors: string[] = [];
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(receipt)) return ['schema.standard_v1.receipt must be an object'];
  const known = ['receipt_type', 'amounts_per_vat_rate', 'amounts_per_payment_type'];
  for (const key of Object.keys(receipt))
    if (!known.includes(key)) errors.push(`receipt.${key} is not a field of standard_v1`);
  if (!receiptTypes.includes(receipt.receipt_type as string))
    errors.push(`receipt.receipt_type must be one of ${receiptTypes.join(', ')}`);
  const list = (name: string, field: string, allowed: readonly string[], extra: string[]) => {
    const value = receipt[name];
    if (!Array.isArray(value)) {
      errors.push(`receipt.${name} must be an array`);
      return;
    }
    value.forEach((entry: unknown, n) => {
      const at = `receipt.${name}[${n}]`;
      if (!isObject(entry)) return void errors.push(`${at} must be an object`);
      for (const key of Object.keys(entry))
        if (key !== field && key !== 'amount' && !extra.includes(key)) errors.push(`${at}.${key} is not allowed`);
      if (!allowed.includes(entry[field] as string)) errors.push(`${at}.${field} must be one of ${allowed.join(', ')}`);
      if (typeof entry.amount !== 'string' || !amountPattern.test(entry.amount))
        errors.push(`${at}.amount must be a decimal string like "12.50"`);
      if ('currency_code' in entry && !/^[A-Z]{3}$/.test(String(entry.currency_code)))
        errors.push(`${at}.currency_code must be an ISO 4217 code`);
    });
  };
  list(
    'amounts_per_vat_rate',
    'vat_rate',
    vatSlots.map((s) => s.fiskaly),
    [],
  );
  list('amounts_per_payment_type', 'payment_type', ['CASH', 'NON_CASH'], ['currency_code']);
  return errors;
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** processType and processData of a standard_v1 receipt, as the TSE logs them (Kassenbeleg-V1). */
export function processOf(receipt: StandardV1Receipt): { processType: string; processData: string } {
  const amounts = vatSlots.map((slot) =>
    decimal(
      receipt.amounts_per_vat_rate
        .filter((a) => a.vat_rate === slot.fiskaly)
        .reduce((sum, a) => sum + cents(a.amount), 0),
    ),
  );
  const payments = receipt.amounts_per_payment_type.map(
    (p) => `${decimal(cents(p.amount))}:${p.payment_type === 'CASH' ? 'Bar' : 'Unbar'}`,
  );
  // DSFinV-K Anhang I, Vorgangstyp: a sale's Beleg, cash moved without one (AVTransfer), an aborted Bon
  const type =
    receipt.receipt_type === 'RECEIPT' ? 'Beleg' : receipt.receipt_type === 'ABORT' ? 'AVBelegabbruch' : 'AVTransfer';
  return { processType: 'Kassenbeleg-V1', processData: `${type}^${amounts.join('_')}^${payments.join('_')}` };
}

export interface QrFields {
  clientSerial: string;
  processType: string;
  processData: string;
  transactionNumber: number;
  signatureCounter: number;
  start: string;
  end: string;
  algorithm: string;
  timeFormat: string;
  signature: string;
  publicKey: string;
}

/** The QR code's fields before the signature. */
export const qrSignedPart = (f: Omit<QrFields, 'signature' | 'publicKey'>) =>
  [
    'V0',
    f.clientSerial,
    f.processType,
    f.processData,
    f.transactionNumber,
    f.signatureCounter,
    f.start,
    f.end,
    f.algorithm,
    f.timeFormat,
  ].join(';');

/** The DSFinV-K QR code's text. */
export const qrCode = (f: QrFields) => `${qrSignedPart(f)};${f.signature};${f.publicKey}`;

/** The QR code's text back into its fields (the receipt test reads it so). */
export function parseQrCode(text: string): QrFields & { version: string } {
  const parts = text.split(';');
  if (parts.length !== 12) throw new Error(`A DSFinV-K QR code has 12 fields, this one ${parts.length}`);
  const [
    version,
    clientSerial,
    processType,
    processData,
    number,
    counter,
    start,
    end,
    algorithm,
    timeFormat,
    signature,
    publicKey,
  ] = parts as [string, string, string, string, string, string, string, string, string, string, string, string];
  return {
    version,
    clientSerial,
    processType,
    processData,
    transactionNumber: Number(number),
    signatureCounter: Number(counter),
    start,
    end,
    algorithm,
    timeFormat,
    signature,
    publicKey,
  };
}
