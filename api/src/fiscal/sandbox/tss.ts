import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  timingSafeEqual,
} from 'node:crypto';
import { processOf, qrCode, type StandardV1Receipt } from '../de/standard-v1.ts';

// What the simulated TSE computes: keys, serial numbers, tokens and signatures. It signs with a real
// ECDSA key on P-384 (node:crypto), as certified TSEs do (BSI TR-03116-5: ecdsa-plain-SHA384), and
// what it signs is what a certified TSE signs: TR-03151's transaction log message (ASN.1 DER). A
// verifier rebuilds that message from a receipt's QR code alone (its fields and the public key, whose
// SHA-256 is the TSE's serial number) and checks the signature against it.

export const signatureAlgorithm = 'ecdsa-plain-SHA384';
export const timestampFormat = 'unixTime';

/** A new key pair: the private key as PKCS #8 PEM, the public key as base64 of its uncompressed point. */
export function newKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  // P-384's uncompressed point (0x04, X, Y) is the last 97 bytes of its SubjectPublicKeyInfo
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: spki.subarray(spki.length - 97).toString('base64'),
  };
}

/** TR-03153 7.5: a TSE's serial number is the SHA-256 of its public key, in hex. */
export const serialOf = (publicKey: string) =>
  createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex');

const signBytes = (privateKeyPem: string, message: Buffer) =>
  sign('sha384', message, { key: createPrivateKey(privateKeyPem), dsaEncoding: 'ieee-p1363' }).toString('base64');

/** id-SE-API-transaction-log (0.4.0.127.0.7.3.7.1.1), TR-03151's certifiedDataType of a transaction log. */
const transactionLogOid = Buffer.from('04007f000703070101', 'hex');
/** ecdsa-plain-SHA384 (0.4.0.127.0.7.1.1.4.1.4), BSI TR-03111. */
const ecdsaPlainSha384Oid = Buffer.from('04007f00070101040104', 'hex');

/** A non-negative whole number as the content of a DER INTEGER: big-endian, shortest, never negative. */
function integerContent(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a non-negative whole number: ${value}`);
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  return bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes;
}

export interface TransactionLog {
  operationType: 'StartTransaction' | 'UpdateTransaction' | 'FinishTransaction';
  /** The client's serial number (the QR code's Kassen-Seriennummer). */
  clientSerial: string;
  processData: string;
  processType: string;
  transactionNumber: number;
  /** The TSE's serial number, hex (SHA-256 of its public key). */
  tssSerial: string;
  signatureCounter: number;
  /** Unix seconds (the TSS's signature_timestamp_format is unixTime). */
  logTime: number;
}

/**
 * What a TSE signs for a transaction (BSI TR-03151, transaction log message): the log message's
 * elements from version to logTime, each DER-encoded, one after the other, without the SEQUENCE
 * around them and without signatureValue. certifiedData is operationType [0], clientId [1],
 * processData [2], processType [3], transactionNumber [5] (implicitly tagged; the optional
 * additionalExternalData [4], additionalInternalData [6] and seAuditData are absent).
 */
export function transactionLogMessage(log: TransactionLog): Buffer {
  const utf8 = (text: string) => Buffer.from(text, 'utf8');
  return Buffer.concat([
    der(0x02, integerContent(2)),
    der(0x06, transactionLogOid),
    der(0x80, utf8(log.operationType)),
    der(0x81, utf8(log.clientSerial)),
    der(0x82, utf8(log.processData)),
    der(0x83, utf8(log.processType)),
    der(0x85, integerContent(log.transactionNumber)),
    der(0x04, Buffer.from(log.tssSerial, 'hex')),
    sequence(der(0x06, ecdsaPlainSha384Oid)),
    der(0x02, integerContent(log.signatureCounter)),
    der(0x02, integerContent(log.logTime)),
  ]);
}

export const signTransactionLog = (privateKeyPem: string, log: TransactionLog) =>
  signBytes(privateKeyPem, transactionLogMessage(log));

const iso = (unix: number) => new Date(unix * 1000).toISOString();

/** The finish operation's signature and QR code of a transaction. */
export function finishSignature(
  key: { privateKey: string; publicKey: string },
  f: { clientSerial: string; transactionNumber: number; signatureCounter: number; timeStart: number; timeEnd: number },
  receipt: StandardV1Receipt,
): { value: string; qr: string } {
  const process = processOf(receipt);
  const value = signTransactionLog(key.privateKey, {
    operationType: 'FinishTransaction',
    clientSerial: f.clientSerial,
    ...process,
    transactionNumber: f.transactionNumber,
    tssSerial: serialOf(key.publicKey),
    signatureCounter: f.signatureCounter,
    logTime: f.timeEnd,
  });
  const qr = qrCode({
    clientSerial: f.clientSerial,
    ...process,
    transactionNumber: f.transactionNumber,
    signatureCounter: f.signatureCounter,
    start: iso(f.timeStart),
    end: iso(f.timeEnd),
    algorithm: signatureAlgorithm,
    timeFormat: timestampFormat,
    signature: value,
    publicKey: key.publicKey,
  });
  return { value, qr };
}

/** The start operation's signature: a transaction starts with neither process type nor data. */
export const startSignature = (
  key: { privateKey: string; publicKey: string },
  f: { clientSerial: string; transactionNumber: number; signatureCounter: number; timeStart: number },
) =>
  signTransactionLog(key.privateKey, {
    operationType: 'StartTransaction',
    clientSerial: f.clientSerial,
    processData: '',
    processType: '',
    transactionNumber: f.transactionNumber,
    tssSerial: serialOf(key.publicKey),
    signatureCounter: f.signatureCounter,
    logTime: f.timeStart,
  });

/** A bearer token for `seconds`: its expiry and an HMAC of it under the API secret. */
export function newToken(secret: string, seconds: number): string {
  const expires = Math.floor(Date.now() / 1000) + seconds;
  return `${expires}.${createHmac('sha256', secret).update(`token:${expires}`).digest('base64url')}`;
}

export function validToken(secret: string, token: string): boolean {
  const [expires = '', mac = ''] = token.split('.');
  if (!/^\d+$/.test(expires) || Number(expires) < Date.now() / 1000) return false;
  const expected = createHmac('sha256', secret).update(`token:${expires}`).digest();
  const given = Buffer.from(mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// DER, as much of it as a certificate needs (X.690): a tag, the length, the content.
const der = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const length =
    body.length < 0x80
      ? Buffer.from([body.length])
      : body.length < 0x100
        ? Buffer.from([0x81, body.length])
        : Buffer.from([0x82, body.length >> 8, body.length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
};
const sequence = (...parts: Buffer[]) => der(0x30, ...parts);
const positive = (bytes: Buffer) => der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
/** ecdsa-with-SHA384 (1.2.840.10045.4.3.3), as a certified TSE's certificate is signed. */
const ecdsaSha384 = sequence(der(0x06, Buffer.from('2a8648ce3d040303', 'hex')));
const commonName = (name: string) =>
  sequence(der(0x31, sequence(der(0x06, Buffer.from('550403', 'hex')), der(0x0c, Buffer.from(name, 'utf8')))));
/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
const time = (at: Date) => {
  const text = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return at.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${text.slice(2)}Z`)) : der(0x18, Buffer.from(`${text}Z`));
};

/**
 * The simulated TSS's X.509 certificate (PEM) for its key: self-signed, where a certified TSE's is
 * issued by its manufacturer's CA. The DSFinV-K export carries it (tse.csv, TSE_ZERTIFIKAT_I/_II) as a
 * real TSE's: base64 of the DER.
 */
export function selfSignedCertificate(privateKeyPem: string, serialNumber: string, from = new Date()): string {
  const privateKey = createPrivateKey(privateKeyPem);
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const name = commonName(`TSE-Simulator ${serialNumber.slice(0, 16)}`);
  const until = new Date(from.getTime());
  until.setUTCFullYear(until.getUTCFullYear() + 8);
  const tbs = sequence(
    der(0xa0, positive(Buffer.from([2]))),
    positive(Buffer.from(serialNumber.slice(0, 32), 'hex')),
    ecdsaSha384,
    name,
    sequence(time(from), time(until)),
    name,
    spki,
  );
  const signature = sign('sha384', tbs, { key: privateKey, dsaEncoding: 'der' });
  const certificate = sequence(tbs, ecdsaSha384, der(0x03, Buffer.from([0]), signature));
  const lines = certificate.toString('base64').match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
