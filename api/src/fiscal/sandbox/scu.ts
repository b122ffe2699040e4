import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';

// What the simulated Austrian signature device computes: a real ES256 key (ECDSA on P-256 with
// SHA-256, the R1 suite of the RKSV's Anlage Z 2) and its signatures, r‖s as JWS wants them
// (RFC 7515 A.3), so a test verifies every receipt with the key the device publishes. It has no
// certificate: like a closed system (AT0), its public key is what FinanzOnline would register and
// its serial number is the key's id.

export const atSimulatorPath = '/fiscal-sandbox/api/at/v1';

/** A new key: the private key as PKCS #8 PEM, the public key as base64 of its SubjectPublicKeyInfo. */
export function newScuKey(): { privateKey: string; publicKey: string; serialNumber: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    publicKey: spki.toString('base64'),
    // the key's id: the first 8 bytes of its hash, in hex (no underscore: the code's separator)
    serialNumber: `SIM-${createHash('sha256').update(spki).digest().subarray(0, 8).toString('hex').toUpperCase()}`,
  };
}

export const es256 = (privateKeyPem: string, data: string) =>
  sign('sha256', Buffer.from(data, 'utf8'), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: 'ieee-p1363',
  }).toString('base64url');
