import type { Knex } from 'knex';
import type { Config } from '../config.ts';

// The newspaper's own websites that may embed the shop: from EMBED_ORIGINS and from the settings.
// An origin is compared as a whole string, so `https://shop.example.org.evil.com` never passes for
// `https://shop.example.org`.

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

async function settingsOrigins(db: Knex): Promise<string[]> {
  const row = await db('settings').where({ id: 1 }).first<{ embed_origins: string[] | null } | undefined>('embed_origins');
  return row?.embed_origins ?? [];
}

/** Every origin whose pages may embed the shop, for the shop page's `frame-ancestors`. */
export async function embedOrigins(db: Knex, config: Config): Promise<string[]> {
  return [...config.embedOrigins, ...(await settingsOrigins(db))];
}

/** Whether a page of `origin` may embed the widget, call the public API and be returned to from Stripe. */
export async function isEmbedOrigin(db: Knex, config: Config, origin: string): Promise<boolean> {
  if (config.embedOrigins.includes(origin)) return true;
  return (await settingsOrigins(db)).includes(origin);
}
