import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { toBuffer } from '../db/connection.ts';
import { oneRow } from '../foundations/one-row.ts';
import { invalidError } from '../foundations/errors.ts';
import { sniffContentType, type FileKind } from './sniff.ts';
import { fieldLabel } from '../language/fields.ts';
import { tr } from '../language/messages.ts';

export interface StoredFile {
  id: string;
  contentType: FileKind;
  size: number;
  sha256: string;
  data: Buffer;
}

/** A file as it arrived, before it is stored: its bytes, and the name it had on the sender's side. */
export interface Upload {
  buffer: Buffer;
  originalname?: string;
}

/** Stable public URL of a stored file. */
export const fileUrl = (id: string | null | undefined): string | null => (id ? `/files/${id}` : null);

/**
 * Stores an upload after checking what its bytes are. `field` names the form field for the error
 * message; the original name is kept for display only and never used as a path.
 */
export async function storeFile(
  db: Knex | Knex.Transaction,
  upload: Upload,
  accepted: FileKind[],
  field: string,
): Promise<string> {
  const kind = sniffContentType(upload.buffer);
  if (!kind || !accepted.includes(kind)) {
    const wanted = accepted.map((k) => k.slice(k.indexOf('/') + 1).toUpperCase()).join(', ');
    throw invalidError(
      tr('The file for "{field}" is not a valid {kind} file.', { field: fieldLabel(field), kind: wanted }),
      {
        [field]: tr('Please upload a {kind} file.', { kind: wanted }),
      },
    );
  }
  const name = (upload.originalname ?? '').replace(/[^\p{L}\p{N} ._-]/gu, '_').slice(0, 255);
  const rows = await db('files')
    .insert({
      content_type: kind,
      size: upload.buffer.length,
      sha256: createHash('sha256').update(upload.buffer).digest('hex'),
      name,
      data: upload.buffer,
    })
    .returning<{ id: string }[]>('id');
  return oneRow(rows).id;
}

export async function readFile(db: Knex, id: string): Promise<StoredFile | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const row = await db('files')
    .where({ id })
    .first<{ id: string; content_type: FileKind; size: number; sha256: string; data: Uint8Array } | undefined>(
      'id',
      'content_type',
      'size',
      'sha256',
      'data',
    );
  if (!row) return undefined;
  return { id: row.id, contentType: row.content_type, size: row.size, sha256: row.sha256, data: toBuffer(row.data) };
}
