import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Knex } from 'knex';

/** The embedded provider's secrets: its token signing key and the keys that sign its cookies. */
export interface ProviderKeys {
  signing: JWK & { kid: string };
  cookies: string[];
}

const stateKey = 'oidc_keys';

async function generateKeys(): Promise<ProviderKeys> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { signing: { ...jwk, kid, alg: 'RS256', use: 'sig' }, cookies: [randomBytes(32).toString('base64url')] };
}

/**
 * The keys as stored, generated on the very first start. Insert-if-absent and read back: when two
 * processes start together, both end up with the one set that won, and tokens signed by either
 * verify in both.
 */
export async function loadProviderKeys(db: Knex): Promise<ProviderKeys> {
  const read = async () =>
    (await db('system_state').where({ key: stateKey }).first<{ value: ProviderKeys } | undefined>('value'))?.value;
  const stored = await read();
  if (stored) return stored;
  await db('system_state')
    .insert({ key: stateKey, value: JSON.stringify(await generateKeys()) })
    .onConflict('key')
    .ignore();
  return (await read())!;
}

/** The public half of the signing key, as published in the JWKS. */
export function publicSigningKey(keys: ProviderKeys): JWK {
  const { kty, n, e, kid, alg, use } = keys.signing;
  return { kty, n, e, kid, alg, use };
}
