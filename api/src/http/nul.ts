import type { Middleware } from 'koa';
import type { UploadedFile } from './body.ts';
import { badRequest } from './errors.ts';
import { tr } from '../language/messages.ts';

// PostgreSQL's text cannot hold the NUL character: a query carrying one fails inside the database
// (invalid byte sequence, SQLSTATE 22021) instead of being refused as the bad input it is. No field
// of this API has a use for it, so a request holding one anywhere (path, query, body, upload name)
// is refused before its handler runs, naming where.

/** How deep a request's JSON may nest: our deepest body is a few levels; an attack nests thousands. */
export const maxNesting = 32;

/**
 * Where in `value` the first string with a NUL is ("entries.0.name"), or undefined. Walked with a
 * list instead of recursion, and refused beyond `maxNesting` levels, so a deeply nested body is a 400
 * and not a stack overflow.
 */
function nulAt(value: unknown, path = ''): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: current, path: at, depth } = next;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return at || '_';
      continue;
    }
    if (current === null || typeof current !== 'object' || Buffer.isBuffer(current)) continue;
    if (depth >= maxNesting)
      throw badRequest(tr('The request is nested more than {levels} levels deep.', { levels: maxNesting }));
    const entries = Array.isArray(current)
      ? [...current.entries()].map(([i, entry]) => [String(i), entry] as const)
      : Object.entries(current);
    // Pushed in reverse, so the first NUL in reading order is the one named.
    for (const [name, entry] of entries.reverse()) {
      const inner = at ? `${at}.${name}` : name;
      pending.push({ value: entry, path: inner, depth: depth + 1 });
      if (!Array.isArray(current)) pending.push({ value: name, path: inner, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Refuses `value` when it holds a NUL anywhere; `path` names it in the answer ("filter" for a JSON query parameter). */
export function refuseNulIn(value: unknown, path = ''): void {
  const field = nulAt(value, path);
  if (field)
    throw badRequest('The request contains a NUL character (\\u0000), which no field can hold.', {
      [field]: 'Please remove the NUL character.',
    });
}

/** Checks path parameters, query, parsed body and upload names; JSON inside query parameters is checked where it is parsed (list.ts). */
export function refuseNul(): Middleware {
  return async (ctx, next) => {
    const files = ((ctx.request as { files?: UploadedFile[] }).files ?? []).map((file) => ({
      [file.fieldname]: file.originalname,
    }));
    for (const part of [
      { ...(ctx as unknown as { params?: object }).params },
      { ...ctx.query },
      ctx.request.body,
      files,
    ])
      refuseNulIn(part);
    await next();
  };
}
