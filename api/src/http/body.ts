import { bodyParser as koaBodyParser } from '@koa/bodyparser';
import multer from '@koa/multer';
import type { Middleware } from 'koa';
import { HttpError } from './errors.ts';

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

const unsupported = (expected: string) => new HttpError(415, `Please send the data as ${expected}.`);

const tooLarge = (what: string, bytes: number) =>
  new HttpError(413, `The ${what} is too large; at most ${Math.round(bytes / 1024)} KB are accepted.`);

function json(): Middleware {
  const parse = koaBodyParser({ enableTypes: ['json'], jsonLimit: limits.json, encoding: 'utf-8' });
  return async (ctx, next) => {
    if (ctx.request.length !== 0 && !ctx.is('application/json')) throw unsupported('JSON (application/json)');
    try {
      await parse(ctx, () => Promise.resolve());
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 413) throw tooLarge('request', limits.json);
      throw new HttpError(400, 'The request body is not valid JSON.');
    }
    await next();
  };
}

function css(): Middleware {
  const parse = koaBodyParser({ enableTypes: ['text'], extendTypes: { text: ['text/css'] }, textLimit: limits.css });
  return async (ctx, next) => {
    if (!ctx.is('text/css')) throw unsupported('CSS (text/css)');
    try {
      await parse(ctx, () => Promise.resolve());
    } catch (error) {
      if ((error as { status?: number }).status === 413) throw tooLarge('style sheet', limits.css);
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
      if (size > limits.raw) throw tooLarge('request', limits.raw);
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
      `The file "${e.field}" is too large; at most ${limits.file / 1024 / 1024} MB are accepted.`,
      e.field ? { [e.field]: 'File too large' } : undefined,
    ),
  LIMIT_FILE_COUNT: () => new HttpError(400, `At most ${limits.files} files can be uploaded at once.`),
  LIMIT_FIELD_COUNT: () => new HttpError(400, 'The form has too many fields.'),
  LIMIT_FIELD_VALUE: (e) => new HttpError(413, `The field "${e.field}" is too long.`),
  LIMIT_PART_COUNT: () => new HttpError(400, 'The form has too many parts.'),
  LIMIT_UNEXPECTED_FILE: (e) => new HttpError(400, `The field "${e.field}" does not take a file.`),
};

function multipart(): Middleware {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limits.file, files: limits.files, fields: limits.fields, fieldSize: limits.fieldSize },
  }).any();
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw unsupported('a form (multipart/form-data)');
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
    if (byField[file.fieldname]) throw new HttpError(400, `Please upload only one file for "${file.fieldname}".`);
    byField[file.fieldname] = file;
  }
  return byField;
}
