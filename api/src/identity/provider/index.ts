import type { Context, Middleware } from 'koa';
import { errors, Provider, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { log } from '../../foundations/log.ts';
import { findActiveAccount, subjectOf, type AccountRow } from '../accounts/queries.ts';
import { apiAudience, apiResource, issuerUrl, providerPath } from '../issuer.ts';
import { createEmbeddedVerifier, type Verifier } from '../verifier.ts';
import { databaseAdapter } from './adapter.ts';
import { interactions, interactionUrl, readBrand } from './interactions.ts';
import { loadProviderKeys, type ProviderKeys } from './keys.ts';
import { logoutPage, messagePage, pickLang, texts } from './pages.ts';

/** Lifetimes in seconds: access tokens short, a login lasts a working day. */
const ttl = {
  AccessToken: 5 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  Interaction: 60 * 60,
  Grant: 10 * 60 * 60,
  Session: 10 * 60 * 60,
  RefreshToken: 10 * 60 * 60,
};

/** Claims of an account as tokens and userinfo carry them. */
function claimsOf(account: AccountRow) {
  return {
    sub: subjectOf(account),
    preferred_username: account.username,
    email: account.email ?? undefined,
    groups: account.groups,
  };
}

function uiLang(ctx: KoaContextWithOIDC) {
  return pickLang(undefined, ctx.oidc?.params?.ui_locales);
}

function configuration(db: Db, config: Config, keys: ProviderKeys): Configuration {
  const resource = apiResource(config);
  const audience = apiAudience(config);
  const publicUrl = config.publicUrl;
  return {
    adapter: databaseAdapter(db),
    clients: [
      {
        client_id: config.oidc.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        redirect_uris: [`${publicUrl}/backoffice/auth-callback`, `${publicUrl}/me/auth-callback`],
        post_logout_redirect_uris: [`${publicUrl}/backoffice`, `${publicUrl}/me`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    responseTypes: ['code'],
    pkce: { required: () => true },
    jwks: { keys: [keys.signing] },
    cookies: {
      keys: keys.cookies,
      names: { session: 'oidc_session', interaction: 'oidc_interaction', resume: 'oidc_resume' },
    },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    claims: { openid: ['sub', 'groups'], profile: ['preferred_username'], email: ['email'] },
    async findAccount(_ctx, sub) {
      const account = await findActiveAccount(db, sub);
      return account && { accountId: sub, claims: () => claimsOf(account) };
    },
    async extraTokenClaims(_ctx, token) {
      const account =
        'accountId' in token && token.accountId ? await findActiveAccount(db, token.accountId) : undefined;
      if (!account) return undefined;
      const { sub: _sub, ...claims } = claimsOf(account);
      return claims;
    },
    // Without a consent page oidc-provider would issue refresh tokens only for offline_access with
    // prompt=consent; our own client gets them always. They rotate on every use.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl,
    interactions: { url: (_ctx, interaction) => interactionUrl(interaction.uid) },
    clientBasedCORS: (_ctx, origin, client) =>
      (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource still gets a JWT for our API.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: '',
            audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ttl.AccessToken,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const page = logoutPage({
            lang: uiLang(ctx),
            brand: await readBrand(db, config),
            form,
            confirmAtOnce: Boolean(ctx.oidc.entities.IdTokenHint),
          });
          ctx.set('Content-Security-Policy', page.csp);
          ctx.body = page.html;
        },
        async postLogoutSuccessSource(ctx) {
          const lang = uiLang(ctx);
          const t = texts[lang];
          const page = messagePage({
            lang,
            brand: await readBrand(db, config),
            title: t.logout,
            message: t.loggedOut,
            link: { href: '/backoffice', text: t.toBackoffice },
          });
          ctx.set('Content-Security-Policy', page.csp);
          ctx.body = page.html;
        },
      },
    },
    async renderError(ctx, out) {
      const lang = uiLang(ctx);
      const t = texts[lang];
      const detail = [out.error, out.error_description].filter(Boolean).join(': ');
      const page = messagePage({
        lang,
        brand: await readBrand(db, config),
        title: t.error,
        message: detail,
        alert: true,
        link: { href: '/backoffice', text: t.toBackoffice },
      });
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', page.csp);
      ctx.body = page.html;
    },
  };
}

function createProvider(db: Db, config: Config, keys: ProviderKeys): Provider {
  const provider = new Provider(issuerUrl(config), configuration(db, config, keys));
  // The request reaching us may come through a proxy or another port; every URL the provider hands
  // out must be the public one. delegate() states it in the forwarded headers, trusted only here.
  provider.proxy = true;
  provider.on('server_error', (_ctx: unknown, error: Error) =>
    log.error('login service failed', { error: String(error?.stack ?? error) }),
  );
  return provider;
}

/** Runs a request through oidc-provider (a Koa app of its own) as if it were mounted at `/oidc`. */
function delegate(ctx: Context, handle: ReturnType<Provider['callback']>, publicUrl: URL): Promise<void> {
  const { req } = ctx;
  const url = req.url ?? '/';
  const rest = url.slice(providerPath.length);
  req.headers['x-forwarded-proto'] = publicUrl.protocol.replace(/:$/, '');
  req.headers['x-forwarded-host'] = publicUrl.host;
  (req as { originalUrl?: string }).originalUrl = url;
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
  ctx.respond = false;
  return Promise.resolve(handle(req, ctx.res)).finally(() => {
    req.url = url;
  });
}

/** Calls `make` once; a failure (database not reachable yet) is retried on the next call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error) => {
      made = undefined;
      throw error;
    }));
}

export interface EmbeddedIdentity {
  /** Serves everything below `/oidc`: oidc-provider's endpoints and our login page. */
  middleware: Middleware;
  /** Verifies the provider's access tokens against its stored keys. */
  verify: Verifier;
}

/**
 * The embedded OpenID provider, used when no external issuer is configured. It is built on the first
 * request, when the keys can be read from the database.
 */
export function embeddedIdentity(db: Db, config: Config): EmbeddedIdentity {
  const keys = once(() => loadProviderKeys(db));
  const publicUrl = new URL(config.publicUrl);
  const started = once(async () => {
    const provider = createProvider(db, config, await keys());
    return { handle: provider.callback(), interaction: interactions(provider, db, config) };
  });
  return {
    middleware: async (ctx, next) => {
      if (ctx.path !== providerPath && !ctx.path.startsWith(`${providerPath}/`)) {
        await next();
        return;
      }
      const { handle, interaction } = await started();
      if (await interaction(ctx)) return;
      await delegate(ctx, handle, publicUrl);
    },
    verify: createEmbeddedVerifier(db, config, keys),
  };
}
