import type { Knex } from 'knex';
import { toIso } from '../../foundations/dates.ts';
import type { CommentInput, CommentPatch } from './schema.ts';
import { oneRow } from '../../foundations/one-row.ts';
import { createdBy } from '../../protocol/queries.ts';

type Db = Knex | Knex.Transaction;

export interface CommentRow {
  id: number;
  vendor_id: number;
  comment: string;
  warning: boolean;
  created_at: Date | string;
  resolved_at: Date | string | null;
  /** Absent where a write returns the row: the list and the protocol read it. */
  created_by?: string | null;
}

const columns = ['id', 'vendor_id', 'comment', 'warning', 'created_at', 'resolved_at'];

/** As the back office lists it: with its author (the protocol's), whom the vendor's data export leaves out. */
export const commentWithAuthor = (row: CommentRow) => ({
  ...commentToApi(row),
  // A write's answer comes before its protocol entry: it names no author rather than a wrong one.
  ...(row.created_by !== undefined && { createdBy: row.created_by }),
});

export function commentToApi(row: CommentRow) {
  return {
    id: row.id,
    vendorId: row.vendor_id,
    comment: row.comment,
    warning: row.warning,
    createdAt: toIso(row.created_at),
    resolvedAt: toIso(row.resolved_at),
  };
}

export const vendorComments = (db: Db, vendorId: number) =>
  db('vendor_comments')
    .where({ vendor_id: vendorId })
    .select([...columns, createdBy(db as Knex, 'vendor_comment', 'vendor_comments')]);

export async function createComment(db: Db, vendorId: number, input: CommentInput): Promise<CommentRow> {
  return oneRow(
    await db('vendor_comments')
      .insert({ ...input, vendor_id: vendorId })
      .returning<CommentRow[]>(columns),
  );
}

export async function updateComment(
  db: Db,
  vendorId: number,
  id: number,
  patch: CommentPatch,
): Promise<CommentRow | undefined> {
  const changes: Record<string, unknown> = {};
  if (patch.comment !== undefined) changes.comment = patch.comment;
  if (patch.warning !== undefined) changes.warning = patch.warning;
  // Saving an already resolved comment again keeps the moment it was first resolved.
  if (patch.resolved !== undefined)
    changes.resolved_at = patch.resolved ? db.raw('coalesce(resolved_at, now())') : null;
  if (!Object.keys(changes).length) return vendorComments(db, vendorId).where({ id }).first<CommentRow | undefined>();
  const [row] = await db('vendor_comments')
    .where({ id, vendor_id: vendorId })
    .update(changes)
    .returning<CommentRow[]>([...columns, createdBy(db as Knex, 'vendor_comment', 'vendor_comments')]);
  return row;
}

export async function deleteComment(db: Db, vendorId: number, id: number): Promise<CommentRow | undefined> {
  const [row] = await db('vendor_comments')
    .where({ id, vendor_id: vendorId })
    .delete()
    .returning<CommentRow[]>(columns);
  return row;
}
