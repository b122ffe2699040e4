import type { Knex } from 'knex';
import type { Config } from '../config.ts';

// The newspaper's own websites that may embed the shop: from EMBED_ORIGINS and from the settings.
// An origin is compared as a whole string, so `https://shop.example.org.evil.com` never passes for
// `https://shop.example.org`.

async function settingsOrigins(db: Knex): Promise<string[]> {
  const row = await db('settings')
    .where({ id: 1 })
    .first<{ embed_origins: string[] | null } | undefined>('embed_origins');
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
