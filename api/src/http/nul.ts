import type { Middleware } from 'koa';
import type { UploadedFile } from './body.ts';
import { badRequest } from './errors.ts';

// PostgreSQL's text cannot hold the NUL character: a query carrying one fails inside the database
// (invalid byte sequence, SQLSTATE 22021) instead of being refused as the bad input it is. No field
// of this API has a use for it, so a request holding one anywhere (path, query, body, upload name)
// is refused before its handler runs, naming where.

/** Where in `value` the first string with a NUL is ("entries.0.name"), or undefined. */
function nulAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : undefined;
  if (Array.isArray(value)) {
    for (const [i, entry] of value.entries()) {
      const found = nulAt(entry, path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [name, entry] of Object.entries(value)) {
      const found = nulAt(name, path ? `${path}.${name}` : name) ?? nulAt(entry, path ? `${path}.${name}` : name);
      if (found) return found;
    }
  }
  return undefined;
}

/** Refuses `value` when it holds a NUL anywhere; `path` names it in the answer ("filter" for a JSON query parameter). */
export function refuseNulIn(value: unknown, path = ''): void {
  const field = nulAt(value, path);
  if (field) throw badRequest('The request contains a NUL character (\\u0000), which no field can hold.', { [field]: 'Please remove the NUL character.' });
}

/** Checks path parameters, query, parsed body and upload names; JSON inside query parameters is checked where it is parsed (list.ts). */
export function refuseNul(): Middleware {
  return async (ctx, next) => {
    const files = ((ctx.request as { files?: UploadedFile[] }).files ?? []).map((file) => ({ [file.fieldname]: file.originalname }));
    for (const part of [{ ...(ctx as unknown as { params?: object }).params }, { ...ctx.query }, ctx.request.body, files]) refuseNulIn(part);
    await next();
  };
}
