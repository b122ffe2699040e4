import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';

// Logs in at the embedded OpenID provider through the real flow over HTTP, as a browser and the back
// office's oidc-client-ts would: authorize with PKCE → our login page → POST the credentials →
// redirects → the code at the redirect URI → token endpoint. Cookies are kept like a browser keeps them.

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
  expires_in: number;
  token_type: string;
}

const pathMatches = (requested: string, cookiePath: string) =>
  cookiePath === '/' ||
  requested === cookiePath ||
  requested.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`);

/** A cookie jar of one browser: cookies by name and path, sent where their path matches. */
export class Browser {
  private cookies = new Map<string, { value: string; path: string }>();

  /** `headers` go with every request, e.g. an X-Forwarded-For that a trusting shop takes as the client. */
  constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(url: URL): string {
    return [...this.cookies.entries()]
      .filter(([, c]) => pathMatches(url.pathname, c.path))
      .map(([key, c]) => `${key.split('\n')[0]}=${c.value}`)
      .join('; ');
  }

  private keep(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttribute = attributes.find((a) => /^path=/i.test(a));
      const path = pathAttribute ? pathAttribute.slice(5) : url.pathname.replace(/\/[^/]*$/, '') || '/';
      const expired =
        attributes.some((a) => /^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()) ||
        attributes.some((a) => /^max-age=(0|-)/i.test(a));
      const key = `${name}\n${path}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  /** One request, no redirect followed; relative URLs are taken from the shop's base URL. */
  async request(target: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const url = new URL(target, this.baseUrl);
    const headers: Record<string, string> = { Accept: 'text/html', ...this.headers };
    const cookie = this.cookieHeader(url);
    if (cookie) headers.Cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    this.keep(url, response);
    return response;
  }

  /** Follows redirects until a page answers or the location is outside the provider (the client's redirect URI). */
  async follow(
    response: Response,
    stopAt: (location: URL) => boolean,
  ): Promise<{ response: Response; location?: URL }> {
    for (let hops = 0; hops < 10; hops++) {
      if (response.status < 300 || response.status >= 400) return { response };
      const location = new URL(response.headers.get('location')!, this.baseUrl);
      if (stopAt(location)) return { response, location };
      response = await this.request(location.href);
    }
    throw new Error('too many redirects');
  }
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(48).toString('base64url'); // 64 characters
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeOptions {
  clientId?: string;
  redirectUri?: string;
  scope?: string;
  uiLocales?: string;
  challenge?: string;
}

/** The authorization URL the back office sends the browser to. */
export function authorizeUrl(shopUrl: string, options: AuthorizeOptions & { state?: string } = {}): string {
  const params = new URLSearchParams({
    client_id: options.clientId ?? 'backoffice',
    redirect_uri: options.redirectUri ?? `${shopUrl}/backoffice/auth-callback`,
    response_type: 'code',
    scope: options.scope ?? 'openid profile email offline_access',
    state: options.state ?? randomBytes(8).toString('hex'),
  });
  if (options.challenge) {
    params.set('code_challenge', options.challenge);
    params.set('code_challenge_method', 'S256');
  }
  if (options.uiLocales) params.set('ui_locales', options.uiLocales);
  return `${shopUrl}/oidc/auth?${params}`;
}

/** The login page reached from a fresh authorization request, ready for one or more submissions. */
export interface LoginPage {
  browser: Browser;
  pkce: Pkce;
  redirectUri: string;
  /** Where the form posts to (the interaction URL). */
  action: string;
  status: number;
  html: string;
  /** Submits the form; the answer is the login page again, or the code when the login worked. */
  submit(username: string, password: string, lang?: string): Promise<{ status: number; html: string; code?: string }>;
}

export async function openLoginPage(
  shopUrl: string,
  options: AuthorizeOptions = {},
  browser = new Browser(shopUrl),
): Promise<LoginPage> {
  const challenge = pkce();
  const redirectUri = options.redirectUri ?? `${shopUrl}/backoffice/auth-callback`;
  const first = await browser.request(
    authorizeUrl(shopUrl, { ...options, redirectUri, challenge: challenge.challenge }),
  );
  const { response } = await browser.follow(first, () => false);
  const html = await response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, `no login form on the page (${response.status}): ${html.slice(0, 500)}`);
  const toCode = (location: URL) => location.href.startsWith(redirectUri);
  return {
    browser,
    pkce: challenge,
    redirectUri,
    action,
    status: response.status,
    html,
    async submit(username, password, lang) {
      const posted = await browser.request(action, { form: { username, password, ...(lang ? { lang } : {}) } });
      const { response: last, location } = await browser.follow(posted, toCode);
      if (location) {
        const code = location.searchParams.get('code');
        assert.ok(code, `no code at the redirect URI: ${location.href}`);
        return { status: last.status, html: '', code };
      }
      return { status: last.status, html: await last.text() };
    },
  };
}

/** POSTs to the token endpoint as a public client; the raw answer, for tests of refusals. */
export async function tokenRequest(
  shopUrl: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${shopUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'backoffice', ...form }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function exchangeCode(
  shopUrl: string,
  code: string,
  verifier: string,
  redirectUri = `${shopUrl}/backoffice/auth-callback`,
): Promise<Tokens> {
  const { status, body } = await tokenRequest(shopUrl, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  });
  assert.equal(status, 200, `token endpoint: ${JSON.stringify(body)}`);
  return body as unknown as Tokens;
}

export interface LoggedIn extends Tokens {
  browser: Browser;
  /** Renews the tokens with the current refresh token (rotated: the answer's replaces it). */
  refresh(): Promise<Tokens>;
}

/** A complete login: the tokens of `username`, and refresh() for new ones. */
export async function loginWithPkce(
  shopUrl: string,
  username: string,
  password: string,
  options: AuthorizeOptions = {},
): Promise<LoggedIn> {
  const page = await openLoginPage(shopUrl, options);
  const result = await page.submit(username, password);
  assert.ok(
    result.code,
    `the login as ${username} failed (${result.status}): ${/role="alert">([^<]*)/.exec(result.html)?.[1] ?? result.html.slice(0, 300)}`,
  );
  const tokens = await exchangeCode(shopUrl, result.code, page.pkce.verifier, page.redirectUri);
  const loggedIn: LoggedIn = {
    ...tokens,
    browser: page.browser,
    async refresh() {
      const { status, body } = await tokenRequest(shopUrl, {
        grant_type: 'refresh_token',
        refresh_token: loggedIn.refresh_token,
      });
      assert.equal(status, 200, `refresh: ${JSON.stringify(body)}`);
      Object.assign(loggedIn, body);
      return body as unknown as Tokens;
    },
  };
  return loggedIn;
}
