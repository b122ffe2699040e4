import { ErrorResponse, UserManager, type User } from 'oidc-client-ts';
import type { IdentityProvider } from '../shared/settings.ts';
import { storedLocale } from '../shared/locale.ts';

/** The two pages that log in: each has its own callback address below its path. */
export type Area = 'backoffice' | 'me';

export type Group = 'backoffice' | 'vendor';

export interface Login {
  /** The logged-in user with an access token that is still valid (renewed if need be), or null. */
  user(): Promise<User | null>;
  /** Sends the browser to the login page; `returnTo` is the path (below the area) to come back to. */
  signIn(returnTo: string): Promise<void>;
  /** At the callback address: finishes the code exchange and answers where to go back to. */
  completeSignIn(): Promise<{ user: User; returnTo: string }>;
  signOut(): Promise<void>;
  /**
   * The API answered 401: starts a new login, unless one started by a 401 has just come back (then
   * the API refuses even a fresh token, and logging in again would loop). Answers whether it did.
   */
  loginAgainAfterRefusal(returnTo: string): Promise<boolean>;
  /** Where the browser is, below the area (/backoffice or /me): where a login comes back to. */
  currentPath(): string;
}

/** Resolves never: for work that ends because the page is on its way to another address. */
export const untilPageLeaves = () => new Promise<never>(() => undefined);

/** Refresh this long before the access token expires (the specification's 100 seconds). */
const refreshBeforeExpirySeconds = 100;
/** A token with less validity left is not sent any more: it could expire on its way. */
const minimumValiditySeconds = 5;
/** A second 401 this soon after a login that a 401 started means the API refuses fresh tokens too. */
const refusalLoopWindowMs = 60_000;
const refusalKey = 'street-paper.login-after-401';

export function createLogin(provider: IdentityProvider, area: Area): Login {
  const origin = window.location.origin;
  const manager = new UserManager({
    authority: provider.url,
    client_id: provider.clientId,
    scope: provider.scopes,
    redirect_uri: `${origin}/${area}/auth-callback`,
    post_logout_redirect_uri: `${origin}/${area}`,
    response_type: 'code',
    // Our API's access tokens are bound to its audience, so userinfo refuses them; the ID token
    // carries the name and the groups.
    loadUserInfo: false,
    automaticSilentRenew: true,
    accessTokenExpiringNotificationTimeInSeconds: refreshBeforeExpirySeconds,
    staleStateAgeInSeconds: 3600,
  });

  // Refresh tokens rotate: two renewals with the same token would make the provider refuse the second
  // (and may end the session). The automatic renewal and ours therefore share one request.
  const signinSilent = manager.signinSilent.bind(manager);
  let renewing: Promise<User | null> | undefined;
  manager.signinSilent = (args) => (renewing ??= signinSilent(args).finally(() => (renewing = undefined)));

  // Once the page is on its way to the login or logout page, nothing else starts another redirect.
  let leaving = false;

  const login: Login = {
    currentPath: () => window.location.pathname.slice(area.length + 1) + window.location.search || '/',
    async user() {
      const user = await manager.getUser();
      if (!user) return null;
      if ((user.expires_in ?? 0) > minimumValiditySeconds) return user;
      if (!user.refresh_token) {
        await manager.removeUser();
        return null;
      }
      try {
        return await manager.signinSilent();
      } catch (error) {
        // The provider refused the refresh token (400): that login is over. A network failure is not.
        if (error instanceof ErrorResponse) {
          await manager.removeUser();
          return null;
        }
        throw error;
      }
    },
    async signIn(returnTo) {
      if (leaving) return;
      leaving = true;
      await manager.signinRedirect({ state: { returnTo }, ui_locales: storedLocale() });
    },
    async completeSignIn() {
      const user = await manager.signinRedirectCallback();
      const state = user.state as { returnTo?: string } | undefined;
      const returnTo =
        state?.returnTo && state.returnTo.startsWith('/') && !state.returnTo.startsWith('/auth-callback')
          ? state.returnTo
          : '/';
      return { user, returnTo };
    },
    async signOut() {
      if (leaving) return;
      leaving = true;
      sessionStorage.removeItem(refusalKey);
      const user = await manager.getUser();
      await manager.signoutRedirect({
        id_token_hint: user?.id_token,
        extraQueryParams: { ui_locales: storedLocale() },
      });
    },
    async loginAgainAfterRefusal(returnTo) {
      const last = Number(sessionStorage.getItem(refusalKey) ?? 0);
      if (Date.now() - last < refusalLoopWindowMs) return false;
      sessionStorage.setItem(refusalKey, String(Date.now()));
      await manager.removeUser();
      await login.signIn(returnTo);
      return true;
    },
  };

  // A refresh the provider refused (400) ends the login: the token is cleared and the login page shown.
  manager.events.addSilentRenewError((error) => {
    if (!(error instanceof ErrorResponse)) return;
    void manager.removeUser().then(() => login.signIn(login.currentPath()));
  });
  // Logins abandoned on the provider's page leave state behind; it expires after an hour.
  void manager.clearStaleState();
  return login;
}

/** The groups of a user, from the ID token or else the access token (Keycloak writes "/backoffice"). */
export function groupsOf(user: User): Group[] {
  const fromToken = (claims: unknown) => (Array.isArray(claims) ? claims.map((g) => String(g).replace(/^\//, '')) : []);
  const groups = new Set([
    ...fromToken(user.profile.groups),
    ...fromToken(accessTokenClaims(user.access_token).groups),
  ]);
  return (['backoffice', 'vendor'] as const).filter((group) => groups.has(group));
}

/** What the header shows: the login name, else the person's name or e-mail. */
export function displayName(user: User): string {
  const claims = { ...accessTokenClaims(user.access_token), ...user.profile };
  return String(claims.preferred_username ?? claims.name ?? claims.email ?? claims.sub);
}

/** The claims of a JWT access token, read (not verified: the API verifies) for names and groups. */
function accessTokenClaims(token: string): Record<string, unknown> {
  try {
    const payload = atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(payload, (c) => c.charCodeAt(0)))) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}
