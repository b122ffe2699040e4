import { createHash } from 'node:crypto';

/**
 * A UUID made from a name (RFC 9562 version 5: SHA-1, the name-based kind), the same for the same
 * name on every machine: a transaction's id at the signing service comes from what it signs, so a
 * retry, another process or a restart asks for the same transaction.
 */
export function uuidFrom(name: string): string {
  const hash = createHash('sha1').update(`streetpaper-fiscal:${name}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A till's serial number (DSFinV-K: KASSE_SERIENNR): its TSE client is registered with it, so it is
 * the Kassen-Seriennummer of the till's receipts and QR codes.
 */
export const tillSerial = (tillId: number) => `streetpaper-till-${tillId}`;
