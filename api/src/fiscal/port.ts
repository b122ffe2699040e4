import type { FiscalCountry } from '../foundations/config.ts';

// The port every country's signing plugs into. The core (transactions.ts) decides what is signed
// and when, keeps the state and retries; an adapter only turns one transaction into the country's
// signature: Germany a TSE transaction at fiskaly SIGN DE (de/), Austria a receipt of the RKSV chain
// signed by a signature device (at/). What the adapter answers is stored as it is (fiscal_transactions.signature)
// and printed by the country's receipt block (receipt.ts).

/** DSFinV-K's business cases (Geschäftsvorfalltypen, DSFinV-K 2.3 Anhang C) a till's movements are. */
export type BusinessCase =
  'Anfangsbestand' | 'Umsatz' | 'Auszahlung' | 'Einzahlung' | 'Geldtransit' | 'DifferenzSollIst';

/** DSFinV-K's payment types (Anhang D): cash, or anything else (here: the vendor's credit). */
export type PaymentType = 'Bar' | 'Unbar';

/** What is signed: lines with their business case and VAT rate, and how they were paid. */
export interface FiscalRequest {
  /** A sale (a receipt), or money moved in or out without a sale (a transfer). */
  kind: 'receipt' | 'transfer';
  lines: { businessCase: BusinessCase; label: string; vatRate: number | null; gross: number; quantity?: number }[];
  /** Cents per payment type, signed like the lines (+ into the till, − out of it). */
  payments: { type: PaymentType; amount: number }[];
  /** Austria: a sale (the default), a storno of one, or a training receipt (RKSV Detailspezifikation Abs. 4). */
  purpose?: 'sale' | 'storno' | 'training';
}

/** One transaction as the adapter is asked to sign it. */
export interface SignJob {
  /** The id the signing service knows it by, the same on every retry. */
  txId: string;
  tillId: number;
  request: FiscalRequest;
}

/** A German TSE's answer: what the receipt prints and the DSFinV-K export holds. */
export interface DeSignature {
  country: 'DE';
  tssId: string;
  tssSerial: string;
  clientId: string;
  clientSerial: string;
  transactionNumber: number;
  /** The signature counter of the start operation and of the finish operation. */
  startSignatureCounter: number | null;
  signatureCounter: number;
  /** ISO 8601, UTC. */
  start: string;
  end: string;
  algorithm: string;
  timeFormat: string;
  signature: string;
  startSignature: string | null;
  publicKey: string;
  processType: string;
  processData: string;
  /** The DSFinV-K QR code's text (`V0;…`). */
  qr: string;
  /** The TSS's X.509 certificate (PEM), where the signing service gives it. */
  certificate?: string;
}

/**
 * The kinds of an Austrian receipt (§§ 6 to 8 and 17 RKSV); a month receipt of December is the year
 * receipt, the Sammelbeleg the signed zero receipt after a failed signature creation unit.
 */
export type AtReceiptKind =
  | 'Startbeleg'
  | 'Barumsatz'
  | 'Nullbeleg'
  | 'Monatsbeleg'
  | 'Jahresbeleg'
  | 'Storno'
  | 'Training'
  | 'Sammelbeleg'
  | 'Schlussbeleg';

/** An Austrian receipt of the RKSV chain: what the receipt prints and the DEP export holds. */
export interface AtSignature {
  country: 'AT';
  kind: AtReceiptKind;
  /** The Kassen-ID registered at FinanzOnline. */
  cashRegisterId: string;
  /** The Belegnummer, consecutive per till. */
  receiptNumber: string;
  /** Local date and time as the code holds it (yyyy-MM-ddTHH:mm:ss). */
  time: string;
  /** The signature device's certificate serial number (or key id, AT0). */
  certificateSerial: string;
  algorithm: 'ES256';
  /** The JWS compact of the machine-readable code. */
  jws: string;
  /** The QR code's text: the code, `_`, the signature in base64. */
  qr: string;
  /** False: the unit had failed, the receipt is in the chain as "Sicherheitseinrichtung ausgefallen" (§17 RKSV). */
  signed: boolean;
}

export type Signature = DeSignature | AtSignature;

/** A country's signing. `sign` must be safe to call again for the same txId: it never signs twice. */
export interface FiscalPort {
  country: FiscalCountry;
  sign(job: SignJob): Promise<Signature>;
}

/** The signing service answered no or could not be reached; the transaction stays unsigned. */
export class SigningFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningFailed';
  }
}
