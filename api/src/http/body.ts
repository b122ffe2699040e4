import { bodyParser as koaBodyParser } from '@koa/bodyparser';
import multer from '@koa/multer';
import type { Middleware } from 'koa';
import { HttpError } from './errors.ts';
import { fieldLabel } from '../language/fields.ts';
import { tr, type Text } from '../language/messages.ts';

export type BodyKind = 'json' | 'multipart' | 'css' | 'raw';

export const limits = {
  json: 256 * 1024,
  css: 200 * 1024,
  /** Raw bodies are signed payloads (Stripe's webhook events). */
  raw: 1024 * 1024,
  /** Per uploaded file (images and PDFs). */
  file: 10 * 1024 * 1024,
  files: 5,
  fields: 100,
  fieldSize: 100 * 1024,
};

/** A file from a multipart body, held in memory until it is stored in the database. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

const unsupported = (message: Text) => new HttpError(415, message);

const kb = (bytes: number) => ({ kb: Math.round(bytes / 1024) });
const requestTooLarge = (bytes: number) =>
  new HttpError(413, tr('The request is too large; at most {kb} KB are accepted.', kb(bytes)));

function json(): Middleware {
  const parse = koaBodyParser({ enableTypes: ['json'], jsonLimit: limits.json, encoding: 'utf-8' });
  return async (ctx, next) => {
    if (ctx.request.length !== 0 && !ctx.is('application/json'))
      throw unsupported('Please send the data as JSON (application/json).');
    try {
      await parse(ctx, () => Promise.resolve());
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413) throw requestTooLarge(limits.json);
      throw new HttpError(400, 'The request body is not valid JSON.');
    }
    await next();
  };
}

function css(): Middleware {
  const parse = koaBodyParser({ enableTypes: ['text'], extendTypes: { text: ['text/css'] }, textLimit: limits.css });
  return async (ctx, next) => {
    if (!ctx.is('text/css')) throw unsupported('Please send the data as CSS (text/css).');
    try {
      await parse(ctx, () => Promise.resolve());
    } catch (error) {
      if ((error as { status?: number }).status === 413)
        throw new HttpError(413, tr('The style sheet is too large; at most {kb} KB are accepted.', kb(limits.css)));
      throw new HttpError(400, 'The style sheet could not be read.');
    }
    if (typeof ctx.request.body !== 'string') ctx.request.body = '';
    await next();
  };
}

/** The body's exact bytes as a Buffer, for signatures computed over them. */
function raw(): Middleware {
  return async (ctx, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.raw) throw requestTooLarge(limits.raw);
      chunks.push(chunk);
    }
    ctx.request.body = Buffer.concat(chunks);
    await next();
  };
}

const multerMessages: Record<string, (e: { field?: string }) => HttpError> = {
  LIMIT_FILE_SIZE: (e) =>
    new HttpError(
      413,
      tr('The file "{field}" is too large; at most {mb} MB are accepted.', {
        field: String(e.field),
        mb: limits.file / 1024 / 1024,
      }),
      e.field ? { [e.field]: 'File too large' } : undefined,
    ),
  LIMIT_FILE_COUNT: () =>
    new HttpError(400, tr('At most {count} files can be uploaded at once.', { count: limits.files })),
  LIMIT_FIELD_COUNT: () => new HttpError(400, 'The form has too many fields.'),
  LIMIT_FIELD_VALUE: (e) =>
    new HttpError(413, tr('The field "{field}" is too long.', { field: fieldLabel(String(e.field)) })),
  LIMIT_PART_COUNT: () => new HttpError(400, 'The form has too many parts.'),
  LIMIT_UNEXPECTED_FILE: (e) =>
    new HttpError(400, tr('The field "{field}" does not take a file.', { field: fieldLabel(String(e.field)) })),
};

function multipart(): Middleware {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limits.file, files: limits.files, fields: limits.fields, fieldSize: limits.fieldSize },
  }).any();
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw unsupported('Please send the data as a form (multipart/form-data).');
    try {
      await upload(ctx, () => Promise.resolve());
    } catch (error) {
      const e = error as { code?: string; field?: string };
      const known = e.code ? multerMessages[e.code] : undefined;
      throw known ? known(e) : new HttpError(400, 'The form could not be read.');
    }
    ctx.request.body ??= {};
    await next();
  };
}

export function bodyParser(kind: BodyKind): Middleware {
  return { json, css, multipart, raw }[kind]();
}

/** Files of a parsed multipart request, by field name (one per field). */
export function uploadedFiles(ctx: { request: unknown }): Record<string, UploadedFile> {
  const files = (ctx as { request: { files?: UploadedFile[] } }).request.files ?? [];
  const byField: Record<string, UploadedFile> = {};
  for (const file of files) {
    if (byField[file.fieldname])
      throw new HttpError(400, tr('Please upload only one file for "{field}".', { field: fieldLabel(file.fieldname) }));
    byField[file.fieldname] = file;
  }
  return byField;
}
