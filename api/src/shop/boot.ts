import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { listPublicItems } from '../items/queries.ts';
import { readPublicSettings } from '../settings/queries.ts';
import { checkVendor } from '../vendors/check.ts';

/**
 * Everything the shop's first screen needs, in one object: the page inlines it, the embedded widget
 * fetches it. Each part is exactly the answer of its own public endpoint (`/api/settings/`,
 * `/api/vendors/check/{id}/`, `/api/items/`), so the widget reads one shape whichever way it came.
 */
export interface Boot {
  settings: Awaited<ReturnType<typeof readPublicSettings>>;
  vendor: Awaited<ReturnType<typeof checkVendor>>;
  items: Awaited<ReturnType<typeof listPublicItems>>;
}

export async function buildBoot(db: Knex, config: Config, licenceId: string | undefined): Promise<Boot> {
  const [settings, vendor, items] = await Promise.all([
    readPublicSettings(db, config),
    licenceId ? checkVendor(db, licenceId) : null,
    listPublicItems(db),
  ]);
  return { settings, vendor, items };
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
