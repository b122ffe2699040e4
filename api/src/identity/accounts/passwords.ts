import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt with a salt of its own per password. The parameters travel in the stored string
// (`scrypt$N$r$p$salt$hash`), so they can be raised later without breaking existing hashes.
const cost = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 64;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs a little over 128·N·r bytes, just above Node's default ceiling (32 MiB) at N = 2^15.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, scryptOptions, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const hashPattern = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Constant-time comparison; a missing or unreadable hash never matches. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const match = stored ? hashPattern.exec(stored) : null;
  if (!match) {
    // Same work as a real check, so the answer time does not tell whether the account exists.
    await derive(password, randomBytes(16), cost);
    return false;
  }
  // every group of hashPattern is mandatory, so a match has all five
  const [, N, r, p, salt = '', hash = ''] = match;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// No 0/o, 1/l/i: read aloud at the counter and typed on a phone without confusion.
const readable = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A random password in three groups of four (about 59 bits), easy to read out and type. */
export function generatePassword(): string {
  const group = () => Array.from({ length: 4 }, () => readable[randomInt(readable.length)]).join('');
  return [group(), group(), group()].join('-');
}
