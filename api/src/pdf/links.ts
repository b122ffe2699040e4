import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { readFile, type StoredFile } from '../files/queries.ts';
import { notFoundError } from '../foundations/errors.ts';

type Db = Knex | Knex.Transaction;

// Download links of paid digital editions. A link id is the customer's key to the PDF: random,
// unguessable, never logged, and the only way to reach a PDF without a staff login.

export const invalidLink = () => notFoundError('The link to the pdf is invalid or expired. Please contact the office.');

/** 24 random bytes as base64url: 32 characters. */
const linkIdPattern = /^[A-Za-z0-9_-]{32}$/;

/** Where the customer opens a link: the shop's PDF page (relative, like the shop's image addresses). */
export const linkPath = (id: string) => `/pdf/${id}`;

/** Creates the link for this order and item, unless it exists; answers whether it was created. */
export async function createDownloadLink(
  trx: Knex.Transaction,
  link: { orderId: number; itemId: number; fileId: string; validDays: number },
): Promise<boolean> {
  const created = await trx('download_links')
    .insert({
      id: randomBytes(24).toString('base64url'),
      order_id: link.orderId,
      item_id: link.itemId,
      file_id: link.fileId,
      expires_at: trx.raw('now() + make_interval(days => ?)', [link.validDays]),
    })
    .onConflict(['order_id', 'item_id'])
    .ignore()
    .returning('id');
  return created.length > 0;
}

export interface DownloadLink {
  id: string;
  url: string;
  itemId: number;
  itemName: string;
  /** The item's English name, where staff entered one. */
  itemNameEn?: string;
  expiresAt: string;
  downloads: number;
}

/** A download link's row, as queried here and by the receipt's one query (orders/queries.ts). */
export interface DownloadLinkRow {
  id: string;
  item_id: number;
  name: string;
  name_en: string;
  expires_at: Date | string;
  downloads: number;
}

export const downloadLinkOf = (row: DownloadLinkRow): DownloadLink => ({
  id: row.id,
  url: linkPath(row.id),
  itemId: row.item_id,
  itemName: row.name,
  ...(row.name_en && { itemNameEn: row.name_en }),
  expiresAt: new Date(row.expires_at).toISOString(),
  downloads: row.downloads,
});

/** The order's download links, for its mail. */
export async function downloadLinksFor(db: Db, orderId: number): Promise<DownloadLink[]> {
  const rows = await db('download_links as l')
    .join('items as i', 'i.id', 'l.item_id')
    .where('l.order_id', orderId)
    .orderBy('l.item_id')
    .select<DownloadLinkRow[]>('l.id', 'l.item_id', 'i.name', 'i.name_en', 'l.expires_at', 'l.downloads');
  return rows.map(downloadLinkOf);
}

/** A link that can still be used: what the PDF page shows before the download. */
export async function findValidLink(
  db: Db,
  id: string,
): Promise<{ itemName: string; itemNameEn?: string; expiresAt: string } | undefined> {
  if (!linkIdPattern.test(id)) return undefined;
  const row = await db('download_links as l')
    .join('items as i', 'i.id', 'l.item_id')
    .where('l.id', id)
    .where('l.expires_at', '>', db.fn.now())
    .first<{ name: string; name_en: string; expires_at: Date } | undefined>('i.name', 'i.name_en', 'l.expires_at');
  return (
    row && {
      itemName: row.name,
      ...(row.name_en && { itemNameEn: row.name_en }),
      expiresAt: new Date(row.expires_at).toISOString(),
    }
  );
}

/**
 * The PDF behind a valid link, with the download counted. Counting and reading happen in one
 * transaction: a download is counted exactly when its bytes are handed out, also under concurrency.
 */
export async function takeDownload(db: Knex, id: string): Promise<{ file: StoredFile; itemName: string } | undefined> {
  if (!linkIdPattern.test(id)) return undefined;
  return db.transaction(async (trx) => {
    const [link] = await trx('download_links')
      .where({ id })
      .where('expires_at', '>', trx.fn.now())
      .update({ downloads: trx.raw('downloads + 1'), last_download_at: trx.fn.now() })
      .returning<{ file_id: string; item_id: number }[]>(['file_id', 'item_id']);
    if (!link) return undefined;
    const file = await readFile(trx, link.file_id);
    const item = await trx('items').where({ id: link.item_id }).first<{ name: string }>('name');
    return file && { file, itemName: item.name };
  });
}
