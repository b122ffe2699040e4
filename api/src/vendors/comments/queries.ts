import type { Knex } from 'knex';
import { toIso } from '../queries.ts';
import type { CommentInput, CommentPatch } from './schema.ts';
import { oneRow } from '../../one-row.ts';

type Db = Knex | Knex.Transaction;

export interface CommentRow {
  id: number;
  vendor_id: number;
  comment: string;
  warning: boolean;
  created_at: Date | string;
  resolved_at: Date | string | null;
}

const columns = ['id', 'vendor_id', 'comment', 'warning', 'created_at', 'resolved_at'];

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
  db('vendor_comments').where({ vendor_id: vendorId }).select(columns);

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
    .returning<CommentRow[]>(columns);
  return row;
}

export async function deleteComment(db: Db, vendorId: number, id: number): Promise<CommentRow | undefined> {
  const [row] = await db('vendor_comments')
    .where({ id, vendor_id: vendorId })
    .delete()
    .returning<CommentRow[]>(columns);
  return row;
}
