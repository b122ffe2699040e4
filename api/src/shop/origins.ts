import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { currentShopData } from './cache.ts';

// The newspaper's own websites that may embed the shop: from EMBED_ORIGINS and from the settings.
// An origin is compared as a whole string, so `https://shop.example.org.evil.com` never passes for
// `https://shop.example.org`.

const settingsOrigins = async (db: Knex): Promise<string[]> => (await currentShopData(db)).settings.embed_origins ?? [];

/** Every origin whose pages may embed the shop, for the shop page's `frame-ancestors`. */
export async function embedOrigins(db: Knex, config: Config): Promise<string[]> {
  return [...config.embedOrigins, ...(await settingsOrigins(db))];
}

/** Whether a page of `origin` may embed the widget, call the public API and be returned to from Stripe. */
export async function isEmbedOrigin(db: Knex, config: Config, origin: string): Promise<boolean> {
  if (config.embedOrigins.includes(origin)) return true;
  return (await settingsOrigins(db)).includes(origin);
}
