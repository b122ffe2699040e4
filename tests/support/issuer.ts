import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

/**
 * A stand-in OpenID issuer for tests: serves a discovery document and a JWKS on loopback and mints
 * tokens signed with its key, so the API verifies them exactly as it verifies a real provider's.
 */
export interface TestIssuer {
  issuer: string;
  audience: string;
  mint(
    claims?: JWTPayload & { groups?: string[] },
    options?: { expiresIn?: string | number; issuer?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startTestIssuer(audience = 'street-paper-api'): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    } else if (req.url === '/jwks') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    audience,
    async mint(claims = {}, options = {}) {
      return new SignJWT({ preferred_username: 'tester', ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(audience)
        .setSubject(String(claims.sub ?? 'user-1'))
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '10m')
        .sign(privateKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
