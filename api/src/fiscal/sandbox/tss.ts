import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  timingSafeEqual,
} from 'node:crypto';
import { processOf, qrCode, qrSignedPart, type StandardV1Receipt } from '../de/standard-v1.ts';

// What the simulated TSE computes: keys, serial numbers, tokens and signatures. It signs with a real
// ECDSA key on P-384 (node:crypto), as certified TSEs do (BSI TR-03116-5: ecdsa-plain-SHA384), so a
// test verifies every signature with the public key the TSS publishes.
//
// A real TSE signs TR-03153's log message, an ASN.1 structure of the same fields; the simulator signs
// their text instead (documented in docs/fiscal.md), the QR code's fields before the signature for a
// finished transaction and `startSignedText` for a started one, so a verifier needs nothing but the
// receipt's QR code and the public key.

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

/** A key of the verifier's: the uncompressed P-384 point as a node:crypto public key. */
export function publicKeyOf(base64Point: string) {
  const point = Buffer.from(base64Point, 'base64');
  if (point.length !== 97 || point[0] !== 4) throw new Error('not an uncompressed P-384 point');
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-384',
      x: point.subarray(1, 49).toString('base64url'),
      y: point.subarray(49).toString('base64url'),
    },
    format: 'jwk',
  });
}

export const signText = (privateKeyPem: string, text: string) =>
  sign('sha384', Buffer.from(text, 'utf8'), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: 'ieee-p1363',
  }).toString('base64');

/** What a started transaction's signature covers. */
export const startSignedText = (f: {
  clientSerial: string;
  transactionNumber: number;
  signatureCounter: number;
  start: string;
}) => ['StartTransaction', f.clientSerial, f.transactionNumber, f.signatureCounter, f.start].join(';');

const iso = (unix: number) => new Date(unix * 1000).toISOString();

/** The finish operation's signature and QR code of a transaction. */
export function finishSignature(
  key: { privateKey: string; publicKey: string },
  f: { clientSerial: string; transactionNumber: number; signatureCounter: number; timeStart: number; timeEnd: number },
  receipt: StandardV1Receipt,
): { value: string; qr: string } {
  const fields = {
    clientSerial: f.clientSerial,
    ...processOf(receipt),
    transactionNumber: f.transactionNumber,
    signatureCounter: f.signatureCounter,
    start: iso(f.timeStart),
    end: iso(f.timeEnd),
    algorithm: signatureAlgorithm,
    timeFormat: timestampFormat,
  };
  const value = signText(key.privateKey, qrSignedPart(fields));
  return { value, qr: qrCode({ ...fields, signature: value, publicKey: key.publicKey }) };
}

export const startSignature = (
  privateKey: string,
  f: { clientSerial: string; transactionNumber: number; signatureCounter: number; timeStart: number },
) => signText(privateKey, startSignedText({ ...f, start: iso(f.timeStart) }));

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
