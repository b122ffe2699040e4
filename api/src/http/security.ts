import type { Middleware } from 'koa';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { cameOverTls } from './client-address.ts';
import { isMachinePath } from './paths.ts';
import type { AppDeps, AppState } from './routes.ts';

// Security headers on every answer, by area. Each policy allows what its pages load and nothing
// more; a page with needs of its own (the login page's nonces, the Stripe sandbox's page, a receipt,
// a stored file) replaces the policy when it answers.

type Area = 'shop' | 'backoffice' | 'machine';

/** What the shop's policy needs to know of the shop; app.ts hands it over. */
export interface ShopPolicySources {
  /** The CSP sources of the shop's inline scripts (its loader's hash). */
  inlineScripts: string[];
  /** Every origin whose pages may frame the shop's pages, as it is now. */
  embedOrigins: (db: Db) => Promise<string[]>;
}

const backofficePrefixes = ['/backoffice', '/me', '/dashboard'];
/** Files and answers that are no page of ours: when opened on their own (an SVG), they may run nothing. */
const resourcePrefixes = ['/files', '/public', '/img'];

const under = (path: string, prefixes: string[]) =>
  prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

function areaOf(path: string): Area {
  if (under(path, backofficePrefixes)) return 'backoffice';
  if (isMachinePath(path) || under(path, resourcePrefixes)) return 'machine';
  return 'shop';
}

/**
 * The CSP source of a tile URL template: `https://{s}.tile.example.org/{z}/{x}/{y}.png` becomes
 * `https://*.tile.example.org`. A placeholder elsewhere in the host cannot be expressed; then the scheme.
 */
export function tileSource(template: string): string {
  const [, scheme, host] = /^(https?:)\/\/([^/?#]+)/i.exec(template) ?? [];
  if (!scheme || !host) return '';
  const pattern = host.replace(/\{[^}]*\}/g, '*');
  return /^(\*\.)?[^*]+$/.test(pattern) ? `${scheme}//${pattern}` : scheme;
}

const policy = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources.filter(Boolean)].join(' '))
    .join('; ');

/**
 * The shop's pages: its own scripts (inline only the loader that asks for the script after the first
 * paint) and styles; the custom-CSS preview injects a style element.
 */
function shopPolicy(inlineScripts: string[], frameAncestors: string[]): string {
  return policy({
    'default-src': ["'self'"],
    'script-src': ["'self'", ...inlineScripts],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    // Without the script, "Pay" is a form the server answers by sending the browser to Stripe's
    // card page; a form's redirect is held to form-action too.
    'form-action': ["'self'", 'https://checkout.stripe.com'],
    'frame-ancestors': ["'self'", ...frameAncestors],
  });
}

/**
 * The back office and /me: MUI's emotion writes style elements; the maps load tiles from MAP_TILE_URL;
 * QR codes (which fetch their images back) and downloads are data: and blob: URLs; the payout receipt and the CSS preview are frames
 * (a blob: and the shop's page); an external OpenID provider is asked for tokens.
 */
function backofficePolicy(config: Config): string {
  const issuer = config.oidc.issuer ? new URL(config.oidc.issuer).origin : '';
  return policy({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', tileSource(config.mapTileUrl)],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'data:', 'blob:', issuer],
    'frame-src': ["'self'", 'blob:', issuer],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'", issuer],
    'frame-ancestors': ["'none'"],
  });
}

/** JSON, redirects, files: nothing to load, nowhere to be framed. */
const machinePolicy = policy({
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
});

/** Half a year; without includeSubDomains, which would bind the newspaper's other hosts too. */
const hsts = 'max-age=15552000';

export function securityHeaders(config: Config, shop: ShopPolicySources): Middleware<AppState, AppDeps> {
  const policies: Record<Area, string> = {
    shop: shopPolicy(shop.inlineScripts, config.embedOrigins),
    backoffice: backofficePolicy(config),
    machine: machinePolicy,
  };
  const httpsOnly = config.publicUrl.startsWith('https:');
  return async (ctx, next) => {
    const area = areaOf(ctx.path);
    ctx.set('Content-Security-Policy', policies[area]);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // The shop's and the API's addresses carry the customer's secrets (receipt and PDF tokens); the
    // back office keeps the origin, which tile servers such as OpenStreetMap's ask for.
    ctx.set('Referrer-Policy', area === 'backoffice' ? 'strict-origin-when-cross-origin' : 'no-referrer');
    if (httpsOnly || cameOverTls(ctx, config)) ctx.set('Strict-Transport-Security', hsts);
    await next();
    // Websites added in the settings may frame the shop's pages from the next request on.
    if (area === 'shop' && ctx.response.is('html'))
      ctx.set(
        'Content-Security-Policy',
        shopPolicy(shop.inlineScripts, ctx.state.embedOrigins ?? (await shop.embedOrigins(ctx.db))),
      );
  };
}
