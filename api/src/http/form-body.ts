import { uploadedFiles, type UploadedFile } from './body.ts';
import { badRequest } from './errors.ts';
import { fieldLabel } from '../language/fields.ts';
import { tr } from '../language/messages.ts';

// The files of a multipart form; its text fields are parsed with the converters of api/src/foundations/form-fields.ts.

/**
 * The uploaded files of a form, refusing files in fields that take none (they would otherwise be
 * dropped without a word).
 */
export function formFiles<F extends string>(
  ctx: { request: unknown },
  fields: readonly F[],
): Partial<Record<F, UploadedFile>> {
  const files = uploadedFiles(ctx);
  for (const field of Object.keys(files)) {
    if (!fields.includes(field as F))
      throw badRequest(tr('The field "{field}" does not take a file.', { field: fieldLabel(field) }), {
        [field]: 'No file expected here.',
      });
  }
  return files as Partial<Record<F, UploadedFile>>;
}
