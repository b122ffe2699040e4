import net from 'node:net';
import path from 'node:path';
import { type Country, countries, isCountry, presets } from '../country/presets.ts';
import { currencies, isCurrency, type Currency } from '../money/currency.ts';

/** Everything the process reads from its environment, typed, with the embedded defaults. */
export interface Config {
  port: number;
  /**
   * The interface the server listens on (HOST, or BIND): this machine's loopback unless told, or
   * every interface (undefined) when PUBLIC_URL names another machine. Listening beyond loopback
   * counts as public for every refusal in safety.ts, whatever PUBLIC_URL says.
   */
  host: string | undefined;
  publicUrl: string;
  /** Whether PUBLIC_URL was given, rather than made up from the port. */
  publicUrlSet: boolean;
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl?: string;
  dataDir: string;
  oidc: {
    /**
     * External issuer (e.g. a Keycloak realm URL) whose discovery document and JWKS verify access
     * tokens. When absent, the embedded provider at `<publicUrl>/oidc` is the issuer.
     */
    issuer?: string;
    audience?: string;
    clientId: string;
    realm?: string;
    scopes: string;
    /**
     * Token claim with the licence id that links a vendor's login to the vendor: a user attribute that
     * staff set when they create the login and that its owner cannot change.
     */
    vendorClaim: string;
    /** Whether a token without that claim is linked by its e-mail, and then only a verified one. */
    vendorByEmail: boolean;
  };
  stripe: {
    /** When absent, the local Stripe sandbox answers the SDK's calls (test mode). */
    secretKey?: string;
    webhookSecret?: string;
    /** Another Stripe-compatible API base (e.g. stripe-mock); Stripe's own when absent. */
    apiUrl?: string;
    /**
     * STRIPE_SANDBOX=true: test mode chosen on purpose (the sandbox, or a `sk_test_` key) on a public
     * address; every page then shows a test-mode ribbon. Without it only a local PUBLIC_URL may run in test mode.
     */
    sandbox?: boolean;
    /** The Dashboard's payment method configuration for Checkout (cards, Apple Pay, Google Pay); Stripe's default when absent. */
    paymentMethodConfiguration?: string;
  };
  /**
   * How long one call to Stripe may take; the SDK tries twice more before the customer sees an error.
   * Three tries must fit in the request deadline, so the customer gets Stripe's clean refusal, not a timeout.
   */
  stripeTimeoutMs: number;
  /** The local sandbox's first webhook retry; later ones double it (tests make it short). */
  sandboxWebhookRetryMs: number;
  /**
   * How long after a card payment the local sandbox books its fee (with `charge.updated`), as live
   * Stripe often does; 0 books it at once, with the payment.
   */
  sandboxFeeDelayMs: number;
  /** At most this many objects in the local sandbox; when full, old expired sessions go first. */
  sandboxMaxObjects: number;
  /**
   * The currencies the local sandbox's account settles in, lower case as Stripe writes them; the first
   * is its default currency. A Checkout Session in another is refused, as Stripe refuses one.
   */
  sandboxCurrencies: string[];
  /** SMTP server for customer e-mails; when absent, mails stay in the outbox for staff to read. */
  smtpUrl?: string;
  mailFrom: string;
  /**
   * The first retry of an outbound webhook that failed; the later ones (2 min, 10 min, … up to
   * three days) grow in proportion. Tests make it short.
   */
  webhookRetryFirstMs: number;
  /** How long a PDF download link stays valid. */
  downloadLinkDays: number;
  /** Days after an order's download links expire (after the order, without links) that its customer's e-mail address is erased. */
  customerEmailDays: number;
  /** New orders one client address may place per minute. */
  orderRateLimit: number;
  /** Look-ups of a licence id (the vendor check, the shop page of a vendor) one client address may make per minute. */
  vendorCheckRateLimit: number;
  /** API processes serving the shop together; each allows a client its share of the look-ups. */
  processCount: number;
  /**
   * Logins at the embedded provider within `windowMinutes`: `perPair` attempts per account from one
   * address and `perAddress` from one address; beyond `perAccount` (from all addresses together) each
   * next attempt at the account waits `delaySeconds`, doubling each time, at most the window.
   */
  loginThrottle: {
    windowMinutes: number;
    perPair: number;
    perAddress: number;
    perAccount: number;
    delaySeconds: number;
  };
  /** IPv6 clients are counted by this prefix for rate limits and login throttling (one /64 is one network). */
  ipv6Prefix: number;
  /** Proxies (addresses and CIDR ranges) whose X-Forwarded-For and X-Forwarded-Proto are believed; none by default. */
  trustProxy: string[];
  /** How long a request may take before it is answered 503 (a hung database or Stripe call). */
  requestTimeoutSeconds: number;
  /** Open connections one process accepts at once; more are closed at once (a flood of idle sockets). */
  maxConnections: number;
  /** Of those, the most one client address (IPv6 by `ipv6Prefix`) may hold; a trusted proxy is not counted. */
  maxConnectionsPerAddress: number;
  /** How often each process runs the reconciliation job (the job itself runs in one process at a time). */
  reconcileIntervalSeconds: number;
  /**
   * Signing the till's cash movements (api/src/fiscal, docs/fiscal.md): the installation's default
   * for every till that has no setting of its own. `off` signs nothing (the default); `test` signs with
   * the provider's test credentials, or without any with the local TSE simulator; `live` needs them.
   */
  fiscal: {
    mode: FiscalMode;
    country: FiscalCountry;
    /** fiskaly's API key and secret (SIGN DE), the TSS and the client the tills sign with. */
    apiKey?: string;
    apiSecret?: string;
    tssId?: string;
    clientId?: string;
    /** Another base URL of the signing API (fiskaly's SIGN DE v2 when absent). */
    apiUrl?: string;
    /**
     * The secret the TSS's admin PUK and PIN are encrypted with in the database (fiscal/de/secrets.ts);
     * FISCAL_API_SECRET when absent.
     */
    secretKey?: string;
    /** How long one set-up call to fiskaly may take (a TSS's creation, its states, the admin, a client). */
    setupTimeoutMs: number;
  };
  /**
   * The country a new installation takes at its first start (COUNTRY; the settings row keeps it):
   * its preset (api/src/country/presets.ts) gives the default time zone and whether a till can sign.
   */
  country: Country;
  /** The newspaper's time zone: a bare date in a period, a statistics day and a CSV time are local to it. */
  timeZone: string;
  /** CURRENCY: the currency a new installation keeps its books in (the settings hold it from then on). */
  currency: Currency;
  embedOrigins: string[];
  /** Map tiles of the back office's maps; any {z}/{x}/{y} tile server (OpenStreetMap's by default). */
  mapTileUrl: string;
  logLevel: 'silent' | 'info';
  /**
   * Many papers on one PostgreSQL (api/src/platform): PLATFORM_DOMAIN, under which each paper is
   * reached at `<slug>.<domain>` besides its own hosts; set, `npm start` serves every paper of the
   * platform schema. PLATFORM_SECRET seals the papers' database passwords in that schema.
   * PLATFORM_STRIPE_WEBHOOK_SECRET: the signing secrets of the platform's Connect webhook endpoint
   * (comma-separated while one is replaced), which takes every connected account's events.
   */
  platform: { domain?: string; secret?: string; stripeWebhookSecret?: string };
  /** Seed the demo newspaper into an empty database. */
  seedDemo: boolean;
  /** SEED_DEMO=true, the demo chosen on purpose: only then is it seeded behind a public address. */
  seedDemoChosen: boolean;
  /** With the demo seed, book a history of sales and payouts of the last weeks (only `npm start` does). */
  seedHistory: boolean;
}

export const fiscalModes = ['off', 'test', 'live'] as const;
export type FiscalMode = (typeof fiscalModes)[number];
export const fiscalCountries = ['DE', 'AT'] as const;
export type FiscalCountry = (typeof fiscalCountries)[number];

/** A value of the environment that the server cannot use; its message names the variable and what it needs. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** localhost, 127.0.0.0/8 and ::1 (bare or in brackets): only the person at this machine can reach it. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** localhost, 127.0.0.0/8 and [::1]: only the person at this machine can reach it. */
export function isLocalUrl(publicUrl: string): boolean {
  return isLoopback(new URL(publicUrl).hostname);
}

/**
 * Whether only this machine can reach the server: it listens on loopback and names a loopback
 * address. What PUBLIC_URL says alone decides nothing: a server listening on every interface is
 * reachable from everywhere, whatever address it believes it has.
 */
export const isLocalStart = (config: Pick<Config, 'host' | 'publicUrl'>) =>
  config.host !== undefined && isLoopback(config.host) && isLocalUrl(config.publicUrl);

/**
 * The environment as a typed configuration; throws a ConfigError naming the first variable whose
 * value cannot be used, so a start stops with one line instead of a stack trace.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = portNumber(env.PORT);
  const country = countryOf(env.COUNTRY);
  const publicUrlSet = env.PUBLIC_URL !== undefined;
  const publicUrl = publicUrlSet ? shopAddress(env.PUBLIC_URL ?? '') : `http://localhost:${port}`;
  const publicHost = new URL(publicUrl).hostname;
  return {
    port,
    host: listenHost(env.HOST ?? env.BIND, isLoopback(publicHost) ? publicHost : undefined),
    publicUrl,
    publicUrlSet,
    databaseUrl: databaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    oidc: {
      issuer: env.OIDC_ISSUER?.replace(/\/+$/, '') || undefined,
      audience: env.OIDC_AUDIENCE || undefined,
      clientId: env.OIDC_CLIENT_ID ?? 'backoffice',
      realm: env.OIDC_REALM || undefined,
      scopes: env.OIDC_SCOPES ?? 'openid profile email offline_access',
      vendorClaim: env.OIDC_VENDOR_CLAIM || 'vendor',
      vendorByEmail: env.OIDC_VENDOR_BY_EMAIL === 'true',
    },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || undefined,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
      apiUrl: env.STRIPE_API_URL || undefined,
      sandbox: env.STRIPE_SANDBOX === 'true',
      paymentMethodConfiguration: env.STRIPE_PAYMENT_METHOD_CONFIGURATION || undefined,
    },
    stripeTimeoutMs: positiveInt(env, 'STRIPE_TIMEOUT_MS', 8_000),
    sandboxWebhookRetryMs: positiveInt(env, 'SANDBOX_WEBHOOK_RETRY_MS', 60_000),
    sandboxFeeDelayMs: env.SANDBOX_FEE_DELAY_MS === '0' ? 0 : positiveInt(env, 'SANDBOX_FEE_DELAY_MS', 2000),
    sandboxMaxObjects: positiveInt(env, 'SANDBOX_MAX_OBJECTS', 200_000),
    sandboxCurrencies: sandboxCurrencies(env.SANDBOX_CURRENCIES || env.CURRENCY || presets[country].currency),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Straßenzeitung <shop@localhost>',
    webhookRetryFirstMs: positiveInt(env, 'WEBHOOK_RETRY_FIRST_MS', 30_000),
    downloadLinkDays: positiveInt(env, 'DOWNLOAD_LINK_DAYS', 42),
    customerEmailDays: positiveInt(env, 'CUSTOMER_EMAIL_DAYS', 90),
    orderRateLimit: positiveInt(env, 'ORDER_RATE_LIMIT', 30),
    vendorCheckRateLimit: positiveInt(env, 'VENDOR_CHECK_RATE_LIMIT', 120),
    processCount: positiveInt(env, 'PROCESS_COUNT', 1),
    loginThrottle: {
      windowMinutes: positiveInt(env, 'LOGIN_WINDOW_MINUTES', 15),
      perPair: positiveInt(env, 'LOGIN_LIMIT_PER_PAIR', 5),
      perAddress: positiveInt(env, 'LOGIN_LIMIT_PER_ADDRESS', 20),
      perAccount: positiveInt(env, 'LOGIN_LIMIT_PER_ACCOUNT', 10),
      delaySeconds: positiveInt(env, 'LOGIN_DELAY_SECONDS', 1),
    },
    ipv6Prefix: ipv6Prefix(env.RATE_LIMIT_IPV6_PREFIX),
    trustProxy: trustProxy(env.TRUST_PROXY ?? ''),
    requestTimeoutSeconds: positiveInt(env, 'REQUEST_TIMEOUT_SECONDS', 30),
    maxConnections: positiveInt(env, 'MAX_CONNECTIONS', 1000),
    maxConnectionsPerAddress: positiveInt(env, 'MAX_CONNECTIONS_PER_ADDRESS', 50),
    reconcileIntervalSeconds: positiveInt(env, 'RECONCILE_INTERVAL_SECONDS', 60),
    fiscal: fiscalConfig(env, country),
    country,
    timeZone: timeZone(env.TIME_ZONE || presets[country].timeZone),
    currency: currency(env.CURRENCY || presets[country].currency),
    embedOrigins: embedOrigins(env.EMBED_ORIGINS ?? ''),
    mapTileUrl: env.MAP_TILE_URL || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    logLevel: env.LOG_LEVEL === 'silent' ? 'silent' : 'info',
    platform: {
      domain: platformDomain(env.PLATFORM_DOMAIN),
      secret: env.PLATFORM_SECRET || undefined,
      stripeWebhookSecret: env.PLATFORM_STRIPE_WEBHOOK_SECRET || undefined,
    },
    seedDemo: env.SEED_DEMO !== 'false',
    seedDemoChosen: env.SEED_DEMO === 'true',
    seedHistory: env.SEED_HISTORY !== 'false',
  };
}

/** COUNTRY: one of the countries with a preset, DE when unset. */
function countryOf(raw: string | undefined): Country {
  const value = (raw ?? '').trim().toUpperCase() || 'DE';
  if (!isCountry(value)) throw new ConfigError(`COUNTRY must be one of ${countries.join(', ')}, got "${raw}"`);
  return value;
}

/**
 * Signing follows the country's law: FISCAL_COUNTRY defaults to the country where it has one (DE or
 * AT), and an installation in a country without such a law (CH, GB, …) cannot sign its tills under
 * another's.
 */
function fiscalConfig(env: NodeJS.ProcessEnv, installation: Country): Config['fiscal'] {
  const mode = env.FISCAL_MODE || 'off';
  if (!(fiscalModes as readonly string[]).includes(mode))
    throw new ConfigError(`FISCAL_MODE must be off, test or live, got "${mode}"`);
  const law = presets[installation].fiscal.law;
  const country = env.FISCAL_COUNTRY || law || 'DE';
  if (!(fiscalCountries as readonly string[]).includes(country))
    throw new ConfigError(`FISCAL_COUNTRY must be DE or AT, got "${country}"`);
  if (mode !== 'off' && law === null)
    throw new ConfigError(`FISCAL_MODE must be off with COUNTRY=${installation}: ${presets[installation].fiscal.note}`);
  const apiUrl = env.FISCAL_API_URL?.trim().replace(/\/+$/, '') || undefined;
  if (apiUrl && !/^https?:$/.test(URL.canParse(apiUrl) ? new URL(apiUrl).protocol : ''))
    throw new ConfigError(
      `FISCAL_API_URL must be an address like https://kassensichv-middleware.fiskaly.com/api/v2, got "${apiUrl}"`,
    );
  return {
    mode: mode as FiscalMode,
    country: country as FiscalCountry,
    apiKey: env.FISCAL_API_KEY || undefined,
    apiSecret: env.FISCAL_API_SECRET || undefined,
    tssId: env.FISCAL_TSS_ID || undefined,
    clientId: env.FISCAL_CLIENT_ID || undefined,
    apiUrl,
    secretKey: env.FISCAL_SECRET_KEY || undefined,
    setupTimeoutMs: positiveInt(env, 'FISCAL_SETUP_TIMEOUT_MS', 30_000),
  };
}

function portNumber(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port > 65535)
    throw new ConfigError(`PORT must be a port number from 0 to 65535, got "${raw}"`);
  return port;
}

/** The address people open, without a trailing slash; nothing else (a path, a query, a login) is guessed at. */
function shopAddress(raw: string): string {
  const value = raw.trim().replace(/\/+$/, '');
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!value)
    throw new ConfigError(
      'PUBLIC_URL is empty: set it to the address people open the shop at (like https://shop.example.org), ' +
        'or leave it out to serve this machine only.',
    );
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.search || url.hash)
    throw new ConfigError(`PUBLIC_URL must be an address like https://shop.example.org, got "${raw}"`);
  return value;
}

/**
 * Where the server listens: HOST as given (an IP address or localhost), else the loopback address
 * PUBLIC_URL names (a local PUBLIC_URL, or none, serves this machine only), else every interface.
 */
function listenHost(raw: string | undefined, loopbackOfUrl: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '') {
    if (loopbackOfUrl === undefined) return undefined;
    const bare = loopbackOfUrl.replace(/^\[|\]$/g, '');
    return bare === 'localhost' ? '127.0.0.1' : bare;
  }
  const host = raw.trim().replace(/^\[|\]$/g, '');
  if (host !== 'localhost' && !net.isIP(host))
    throw new ConfigError(`HOST must be an IP address to listen on (127.0.0.1, 0.0.0.0, ::), got "${raw}"`);
  return host === 'localhost' ? '127.0.0.1' : host;
}

/** A host name as a Host header carries it (lower case, no port), for `<slug>.<domain>`. */
export const hostName = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

function platformDomain(raw: string | undefined): string | undefined {
  const domain = raw
    ?.trim()
    .toLowerCase()
    .replace(/^\.|\.$/g, '');
  if (!domain) return undefined;
  if (!hostName.test(domain))
    throw new ConfigError(`PLATFORM_DOMAIN must be a domain like papers.example.org, got "${raw}"`);
  return domain;
}

function databaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!URL.canParse(raw) || !/^postgres(ql)?:$/.test(new URL(raw).protocol))
    throw new ConfigError('DATABASE_URL must be a PostgreSQL address like postgres://user:password@host:5432/shop');
  return raw;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

/**
 * The origin (`scheme://host[:port]`) a person meant, or undefined when the text is something else:
 * a path, a query, a login or another scheme is refused rather than cut away, so a typo is noticed.
 */
export function toOrigin(text: string): string | undefined {
  const value = text.trim();
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return undefined;
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(value)) return undefined; // "https://x.org?" parses, but is no origin
  return url.origin;
}

/** Compared exactly with a browser's Origin header, so each entry must be an origin and nothing more. */
function embedOrigins(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const origin = toOrigin(entry);
      if (!origin)
        throw new ConfigError(`EMBED_ORIGINS must list origins like https://www.example.org (no path), got "${entry}"`);
      return origin;
    });
}

/**
 * The proxies of a TRUST_PROXY list (addresses and CIDR ranges, comma-separated); throws a sentence
 * naming the entry that is neither.
 */
export function trustedProxies(list: string[]): net.BlockList {
  const blocks = new net.BlockList();
  for (const entry of list) {
    // split always yields a first element, even for ''
    const [address = '', bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const maxBits = family === 6 ? 128 : 32;
    if (
      !family ||
      extra !== undefined ||
      (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxBits && bits !== ''))
    ) {
      throw new ConfigError(`TRUST_PROXY must list IP addresses or ranges like 10.0.0.0/8, got "${entry}"`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) blocks.addAddress(address, type);
    else blocks.addSubnet(address, prefix, type);
  }
  return blocks;
}

/** Checked at start, so a typo in the list stops the process instead of trusting nobody (or everybody). */
function trustProxy(list: string): string[] {
  const entries = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  trustedProxies(entries);
  return entries;
}

/** 64 unless set: a provider hands each customer at least a /64, so one address alone limits nothing. */
function ipv6Prefix(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 64;
  const bits = Number(raw);
  if (!Number.isInteger(bits) || bits < 1 || bits > 128)
    throw new ConfigError(`RATE_LIMIT_IPV6_PREFIX must be 1 to 128, got "${raw}"`);
  return bits;
}

function sandboxCurrencies(value: string): string[] {
  const codes = value.split(/[\s,]+/).filter(Boolean);
  for (const code of codes)
    if (!/^[A-Za-z]{3}$/.test(code))
      throw new ConfigError(`SANDBOX_CURRENCIES must list ISO 4217 codes like chf,eur, got "${value}"`);
  return [...new Set(codes.map((code) => code.toLowerCase()))];
}

function currency(value: string): Currency {
  const code = value.trim().toUpperCase();
  if (!isCurrency(code)) throw new ConfigError(`CURRENCY must be one of ${currencies.join(', ')}, got "${value}"`);
  return code;
}

function timeZone(name: string): string {
  try {
    new Intl.DateTimeFormat('de-DE', { timeZone: name });
  } catch {
    throw new ConfigError(`TIME_ZONE must be an IANA time zone like Europe/Berlin, got "${name}"`);
  }
  return name;
}
