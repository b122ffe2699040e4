import type { Knex } from 'knex';
import { findMainItem, listPublicItems, pricedItems, type PricedItemRow } from '../items/queries.ts';
import { independentReads } from '../db/reads.ts';
import { oneRow } from '../foundations/one-row.ts';
import { getSettingsRow, type StoredSettings } from '../settings/queries.ts';

// The settings and items every public request reads, kept per database in this process. Migration
// 022 raises shop_revision in the transaction of every change to either table; a hot route reads the
// revision within the one query it makes anyway (the vendor check joins it) and takes this copy only
// when it is at least that revision, so an answer never predates a committed change, in any process,
// on PostgreSQL and on PGlite alike.

export interface ShopData {
  revision: number;
  settings: StoredSettings;
  mainItem: Awaited<ReturnType<typeof findMainItem>>;
  items: Awaited<ReturnType<typeof listPublicItems>>;
  /** Every item not deleted, by id, as a new order prices it (disabled and licence items too). */
  priced: Map<number, PricedItemRow>;
}

interface Copy {
  revision: number;
  data: Promise<ShopData>;
}

const copies = new WeakMap<Knex, Copy>();

async function load(db: Knex, revision: number): Promise<ShopData> {
  // Read after the revision was, so at least as new as it: a later change only raises it again.
  const [settings, mainItem, items, priced] = await independentReads(
    db,
    () => getSettingsRow(db),
    () => findMainItem(db),
    () => listPublicItems(db),
    () => pricedItems(db),
  );
  return {
    revision,
    settings: settings as StoredSettings,
    mainItem,
    items,
    priced,
  };
}

/** The settings and items as of `revision` or later: this process's copy, or read once for all callers. */
export function shopData(db: Knex, revision: number): Promise<ShopData> {
  const current = copies.get(db);
  if (current && current.revision >= revision) return current.data;
  const copy: Copy = { revision, data: load(db, revision) };
  copies.set(db, copy);
  // A failed read is not kept: the next request tries again.
  copy.data.catch(() => {
    if (copies.get(db) === copy) copies.delete(db);
  });
  return copy.data;
}

/** The revision of the settings and items as committed now. */
export async function shopRevision(db: Knex): Promise<number> {
  const { rows } = await db.raw<{ rows: { revision: number }[] }>(
    `select coalesce((select revision from shop_revision where id = 1), 0) as revision`,
  );
  return Number(oneRow(rows).revision);
}

/** The settings and items as committed now, for a request that reads nothing else. */
export async function currentShopData(db: Knex): Promise<ShopData> {
  return shopData(db, await shopRevision(db));
}
