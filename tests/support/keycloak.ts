import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { Provider, type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';

/**
 * A stand-in for a Keycloak realm, separate from our app: a real OpenID provider (oidc-provider) on
 * its own loopback port, shaped the way Keycloak issues tokens: a realm URL as issuer, JWT access
 * tokens with `aud: "account"` and the client in `azp`, groups as paths (`/backoffice`), realm roles.
 * Users log in without a form: the authorization request names them in `login_hint`.
 */
export interface KeycloakStandIn {
  /** http://127.0.0.1:<port>/realms/<realm> */
  issuer: string;
  realm: string;
  /** Runs the authorization code flow with PKCE for a user and answers the access token. */
  login(username: string, options?: { clientId?: string }): Promise<string>;
  /** A token signed with the realm's own key, for cases the flow cannot produce (an expired one). */
  sign(claims: JWTPayload, expiresAt: number): Promise<string>;
  close(): Promise<void>;
}

export interface RealmUser {
  email?: string;
  /** Whether Keycloak verified the e-mail (the `email_verified` claim); a user may change an unverified one. */
  emailVerified?: boolean;
  /** User attributes put into the access token by attribute mappers, e.g. `{ vendor: 'DEMO-1' }`. */
  attributes?: Record<string, string>;
  /** As Keycloak's group mapper with "full group path" writes them: '/backoffice'. */
  groups: string[];
}

const redirectUri = 'http://shop.test/backoffice/auth-callback';

/** The provider's state in memory: the stand-in lives as long as one test run. */
function memoryAdapter() {
  const store = new Map<string, AdapterPayload>();
  return class MemoryAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    // In memory, so nothing is awaited; the adapter interface asks for promises.
    upsert(id: string, payload: AdapterPayload) {
      store.set(this.key(id), payload);
      return Promise.resolve();
    }
    find(id: string) {
      return Promise.resolve(store.get(this.key(id)));
    }
    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined);
    }
    findByUid(uid: string) {
      return Promise.resolve([...store.values()].find((payload) => payload.uid === uid));
    }
    consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }
    destroy(id: string) {
      store.delete(this.key(id));
      return Promise.resolve();
    }
    revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
      return Promise.resolve();
    }
  };
}

export async function startKeycloakStandIn(options: {
  realm?: string;
  clients: string[];
  users: Record<string, RealmUser>;
}): Promise<KeycloakStandIn> {
  const realm = options.realm ?? 'streetpaper';
  const prefix = `/realms/${realm}`;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const account = 'urn:keycloak:account';

  const configuration: Configuration = {
    adapter: memoryAdapter(),
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    clients: options.clients.map((clientId) => ({
      client_id: clientId,
      token_endpoint_auth_method: 'none',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    pkce: { required: () => true },
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'realm-key', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'profile', 'email'],
    findAccount(_ctx, sub) {
      const user = options.users[sub];
      return user && { accountId: sub, claims: () => ({ sub, email: user.email }) };
    },
    extraTokenClaims(_ctx, token) {
      const sub = 'accountId' in token ? token.accountId : undefined;
      const user = sub ? options.users[sub] : undefined;
      if (!user) return undefined;
      return {
        azp: token.clientId,
        preferred_username: sub,
        email: user.email,
        ...(user.emailVerified === undefined ? {} : { email_verified: user.emailVerified }),
        ...user.attributes,
        groups: user.groups,
        realm_access: { roles: ['offline_access', 'uma_authorization'] },
      };
    },
    interactions: { url: (_ctx, interaction) => `${prefix}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => account,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: '',
          audience: 'account',
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();

  // Logs the named user in and consents on their behalf, in whichever order the provider asks.
  async function interact(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: String(details.params.login_hint) } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session!.accountId,
      clientId: String(details.params.client_id),
    });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(' '));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  server.on('request', (req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(prefix)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (url.startsWith(`${prefix}/interaction/`)) {
      interact(req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    // Mounted below the realm path, as Keycloak serves each realm.
    (req as { originalUrl?: string }).originalUrl = url;
    req.url = url.slice(prefix.length) || '/';
    void handle(req, res);
  });

  async function login(username: string, { clientId = options.clients[0] } = {}): Promise<string> {
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL(`${issuer}/auth`);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      login_hint: username,
      state: randomBytes(8).toString('hex'),
    }).toString();

    // Follows the redirects by hand, carrying the provider's cookies, until it sends us back with a code.
    const cookies = new Map<string, string>();
    let next = authorize.href;
    for (let hop = 0; hop < 10 && !next.startsWith(redirectUri); hop++) {
      const res = await fetch(next, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = res.headers.get('location');
      if (!location)
        throw new Error(`The stand-in provider stopped at ${next} with ${res.status}: ${await res.text()}`);
      next = new URL(location, next).href;
    }
    const code = new URL(next).searchParams.get('code');
    if (!code) throw new Error(`No code in ${next}`);
    const token = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
    const body = (await token.json()) as { access_token?: string };
    if (!token.ok || !body.access_token) throw new Error(`The token request failed: ${JSON.stringify(body)}`);
    return body.access_token;
  }

  const sign = (claims: JWTPayload, expiresAt: number) =>
    new SignJWT({ aud: 'account', azp: options.clients[0], ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
      .setIssuer(issuer)
      .setIssuedAt(expiresAt - 300)
      .setExpirationTime(expiresAt)
      .sign(privateKey);

  return {
    issuer,
    realm,
    login,
    sign,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
