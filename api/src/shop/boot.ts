import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { publicSettings } from '../settings/queries.ts';
import { checkVendorInShop, type VendorCheck } from './vendor-check.ts';
import type { ShopData } from './cache.ts';
import { publicItemsIn } from '../items/queries.ts';
import type { Language } from '../language/messages.ts';

/**
 * Everything the shop's first screen needs, in one object: the page inlines it, the embedded widget
 * fetches it. Each part is exactly the answer of its own public endpoint (`/api/settings/`,
 * `/api/vendors/check/{id}/`, `/api/items/`), so the widget reads one shape whichever way it came.
 */
export interface Boot {
  settings: ShopSettings;
  vendor: VendorCheck | null;
  items: ReturnType<typeof publicItemsIn>;
}

/**
 * The settings the widget reads (shop-widget/src/boot.ts, `ShopSettings`), and no others: the page
 * inlines them into the first screen, whose every byte a weak phone waits for; the address, tax
 * numbers, QR-code and map settings stay with the back office's `/api/settings/`.
 */
const shopSettingKeys = [
  'newspaperName',
  'color',
  'fontColor',
  'logo',
  'favicon',
  'agbUrl',
  'maintainanceModeHelpUrl',
  'vendorNotFoundHelpUrl',
  'webshopIsClosed',
  'useVendorLicenseIdInShop',
  'useTipInsteadOfDonation',
  'maxOrderAmount',
  'currency',
  'styleRevision',
  'mainItem',
  'timeZone',
] as const;
type PublicSettings = ReturnType<typeof publicSettings>;
export type ShopSettings = Pick<PublicSettings, (typeof shopSettingKeys)[number]>;

function shopSettings(settings: PublicSettings): ShopSettings {
  return Object.fromEntries(shopSettingKeys.map((key) => [key, settings[key]])) as ShopSettings;
}

/** The boot data, and the copy of the settings and items it came from: one query. */
export async function buildBoot(
  db: Knex,
  config: Config,
  licenceId: string | undefined,
  language: Language,
): Promise<{ boot: Boot; shop: ShopData }> {
  const { vendor, shop } = await checkVendorInShop(db, licenceId);
  const items = publicItemsIn(shop.items, language);
  return {
    boot: { settings: shopSettings(publicSettings(shop.settings, shop.mainItem, config)), vendor, items },
    shop,
  };
}

/**
 * JSON that can stand inside a `<script>` element: no `<` (so no `</script>` or `<!--`), and the line
 * separators that older parsers take for line ends are escaped too.
 */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
