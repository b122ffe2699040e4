import path from 'node:path';
import { trustedProxies } from './http/client-address.ts';
import { toOrigin } from './shop/origins.ts';

/** Everything the process reads from its environment, typed, with the embedded defaults. */
export interface Config {
  port: number;
  publicUrl: string;
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
    /** Token claim that matches a vendor login to its vendor record (compared with the vendor's e-mail). */
    vendorClaim: string;
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
  /** SMTP server for customer e-mails; when absent, mails stay in the outbox for staff to read. */
  smtpUrl?: string;
  mailFrom: string;
  /** How long a PDF download link stays valid. */
  downloadLinkDays: number;
  /** New orders one client address may place per minute. */
  orderRateLimit: number;
  /** Look-ups of a licence id (the vendor check, the shop page of a vendor) one client address may make per minute. */
  vendorCheckRateLimit: number;
  /** Proxies (addresses and CIDR ranges) whose X-Forwarded-For and X-Forwarded-Proto are believed; none by default. */
  trustProxy: string[];
  /** How long a request may take before it is answered 503 (a hung database or Stripe call). */
  requestTimeoutSeconds: number;
  /** How often each process runs the reconciliation job (the job itself runs in one process at a time). */
  reconcileIntervalSeconds: number;
  /** The newspaper's time zone: a bare date in a period, a statistics day and a CSV time are local to it. */
  timeZone: string;
  embedOrigins: string[];
  /** Map tiles of the back office's maps; any {z}/{x}/{y} tile server (OpenStreetMap's by default). */
  mapTileUrl: string;
  logLevel: 'silent' | 'info';
  /** Seed the demo newspaper into an empty database. */
  seedDemo: boolean;
  /** SEED_DEMO=true, the demo chosen on purpose: only then is it seeded behind a public address. */
  seedDemoChosen: boolean;
  /** With the demo seed, book a history of sales and payouts of the last weeks (only `npm start` does). */
  seedHistory: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    publicUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    oidc: {
      issuer: env.OIDC_ISSUER?.replace(/\/+$/, '') || undefined,
      audience: env.OIDC_AUDIENCE || undefined,
      clientId: env.OIDC_CLIENT_ID ?? 'backoffice',
      realm: env.OIDC_REALM || undefined,
      scopes: env.OIDC_SCOPES ?? 'openid profile email offline_access',
      vendorClaim: env.OIDC_VENDOR_CLAIM || 'email',
    },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || undefined,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
      apiUrl: env.STRIPE_API_URL || undefined,
      sandbox: env.STRIPE_SANDBOX === 'true',
      paymentMethodConfiguration: env.STRIPE_PAYMENT_METHOD_CONFIGURATION || undefined,
    },
    stripeTimeoutMs: positiveInt(env, 'STRIPE_TIMEOUT_MS', 8_000),
    sandboxWebhookRetryMs: positiveInt(env, 'SANDBOX_WEBHOOK_RETRY_MS', 1000),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Straßenzeitung <shop@localhost>',
    downloadLinkDays: positiveInt(env, 'DOWNLOAD_LINK_DAYS', 42),
    orderRateLimit: positiveInt(env, 'ORDER_RATE_LIMIT', 30),
    vendorCheckRateLimit: positiveInt(env, 'VENDOR_CHECK_RATE_LIMIT', 120),
    trustProxy: trustProxy(env.TRUST_PROXY ?? ''),
    requestTimeoutSeconds: positiveInt(env, 'REQUEST_TIMEOUT_SECONDS', 30),
    reconcileIntervalSeconds: positiveInt(env, 'RECONCILE_INTERVAL_SECONDS', 60),
    timeZone: timeZone(env.TIME_ZONE || 'Europe/Berlin'),
    embedOrigins: embedOrigins(env.EMBED_ORIGINS ?? ''),
    mapTileUrl: env.MAP_TILE_URL || 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    logLevel: env.LOG_LEVEL === 'silent' ? 'silent' : 'info',
    seedDemo: env.SEED_DEMO !== 'false',
    seedDemoChosen: env.SEED_DEMO === 'true',
    seedHistory: env.SEED_HISTORY !== 'false',
  };
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  return value;
}

/** Compared exactly with a browser's Origin header, so each entry must be an origin and nothing more. */
function embedOrigins(list: string): string[] {
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((entry) => {
    const origin = toOrigin(entry);
    if (!origin) throw new Error(`EMBED_ORIGINS must list origins like https://www.example.org (no path), got "${entry}"`);
    return origin;
  });
}

/** Checked at start, so a typo in the list stops the process instead of trusting nobody (or everybody). */
function trustProxy(list: string): string[] {
  const entries = list.split(',').map((s) => s.trim()).filter(Boolean);
  trustedProxies(entries);
  return entries;
}

function timeZone(name: string): string {
  try {
    new Intl.DateTimeFormat('de-DE', { timeZone: name });
  } catch {
    throw new Error(`TIME_ZONE must be an IANA time zone like Europe/Berlin, got "${name}"`);
  }
  return name;
}
