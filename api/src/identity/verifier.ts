import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { findActiveAccount } from './accounts/queries.ts';
import { apiAudience, issuerUrl } from './issuer.ts';
import { publicSigningKey, type ProviderKeys } from './provider/keys.ts';
import type { User } from './user.ts';

export class InvalidToken extends Error {}
export class IssuerUnreachable extends Error {}

export type Verifier = (token: string) => Promise<User>;

/** What a verifier's error says of the token: it is not valid, or it cannot be checked now. */
export function tokenRefusal(error: unknown): 'invalid_token' | 'issuer_unreachable' | undefined {
  if (error instanceof InvalidToken) return 'invalid_token';
  if (error instanceof IssuerUnreachable) return 'issuer_unreachable';
  return undefined;
}

/** Groups may be plain names or Keycloak group paths ('/backoffice'). */
export function normaliseGroups(claim: unknown): string[] {
  if (!Array.isArray(claim)) return [];
  return claim.filter((g): g is string => typeof g === 'string').map((g) => g.replace(/^\/+/, ''));
}

/**
 * A token must be meant for us: the configured audience, or, as Keycloak issues them without an
 * audience mapper (aud "account"), our client in azp. Without a configured audience only the
 * client check remains, so a token the realm issued to another application is still refused.
 */
function audienceMatches(payload: JWTPayload, oidc: Config['oidc']): boolean {
  const aud = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
  if (oidc.audience && aud.includes(oidc.audience)) return true;
  if (!oidc.audience && aud.includes(oidc.clientId)) return true;
  return (!oidc.audience || aud.includes('account')) && payload.azp === oidc.clientId;
}

/** Verifies access tokens against the issuer's discovery document and JWKS, as for Keycloak. */
export function createVerifier(oidc: Config['oidc']): Verifier {
  let jwks: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const loadJwks = async () => {
    const response = await fetch(`${oidc.issuer}/.well-known/openid-configuration`).catch(() => undefined);
    if (!response?.ok) throw new IssuerUnreachable('The login service cannot be reached.');
    const discovery = (await response.json()) as { jwks_uri?: string };
    if (!discovery.jwks_uri) throw new IssuerUnreachable('The login service publishes no keys.');
    return createRemoteJWKSet(new URL(discovery.jwks_uri));
  };

  return async (token) => {
    if (!oidc.issuer) throw new InvalidToken('No login service is configured.');
    jwks ??= loadJwks();
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await jwks;
    } catch (error) {
      jwks = undefined; // try the discovery again on the next request
      throw error;
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer: oidc.issuer }));
    } catch {
      throw new InvalidToken('The access token is not valid.');
    }
    if (!audienceMatches(payload, oidc)) throw new InvalidToken('The access token is not meant for this service.');
    const user = userOf(payload);
    return {
      ...user,
      vendorClaim: typeof payload[oidc.vendorClaim] === 'string' ? (payload[oidc.vendorClaim] as string) : undefined,
      // A user can often edit their own e-mail: only a verified one, and only if the newspaper chose it.
      vendorEmail: oidc.vendorByEmail && payload.email_verified === true ? user.email : undefined,
    };
  };
}

function userOf(payload: JWTPayload): User {
  if (!payload.sub) throw new InvalidToken('The access token names no user.');
  return {
    sub: payload.sub,
    username: typeof payload.preferred_username === 'string' ? payload.preferred_username : payload.sub,
    email: typeof payload.email === 'string' ? payload.email : undefined,
    groups: normaliseGroups(payload.groups),
  };
}

/**
 * Verifies access tokens of the embedded provider the same way, against its public key as stored in
 * the database (no HTTP call to ourselves). The account must still be allowed to log in: a
 * deactivated vendor's token stops working at once, not when it expires.
 */
export function createEmbeddedVerifier(db: Db, config: Config, keys: () => Promise<ProviderKeys>): Verifier {
  const options = { issuer: issuerUrl(config), audience: apiAudience(config), algorithms: ['RS256'] };
  let jwks: ReturnType<typeof createLocalJWKSet> | undefined;
  return async (token) => {
    jwks ??= createLocalJWKSet({ keys: [publicSigningKey(await keys())] });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, options));
    } catch {
      throw new InvalidToken('The access token is not valid.');
    }
    const user = userOf(payload);
    const account = await findActiveAccount(db, user.sub);
    if (!account) throw new InvalidToken('This login is no longer active.');
    return { ...user, accountId: account.id, vendorId: account.vendor_id };
  };
}
