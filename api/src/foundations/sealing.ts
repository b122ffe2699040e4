import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets sealed before they reach the database: AES-256-GCM under a key made (HKDF-SHA256) from a
// secret of the configuration, as every secret of the installation lives in its environment
// (docs/configuration.md), never in the database. A copy of the database alone (a backup, a dump)
// therefore holds none of them. A context is bound into each sealed value (GCM's additional data),
// so a value cannot be moved to another row or field.

const version = 'v1';

/** A 32-byte key for `purpose` (HKDF's salt and info) from the configured secret. */
export function deriveKey(secret: string, salt: string, info: string): Buffer {
  if (!secret) throw new Error('no secret to derive the sealing key from');
  return Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
}

export function seal(key: Buffer, plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${version}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The value sealed, or undefined when it was sealed under another key (or changed). */
export function unseal(key: Buffer, sealed: string, context: string): string | undefined {
  const [tag, data = ''] = sealed.split('.');
  if (tag !== version) return undefined;
  const bytes = Buffer.from(data, 'base64url');
  if (bytes.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
