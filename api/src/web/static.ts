import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware, ParameterizedContext } from 'koa';

/** Any Koa context, whatever the app's state and additions. */
export type AnyContext = ParameterizedContext<unknown, object, unknown>;
import { isMachinePath } from '../http/paths.ts';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Vite names the files below assets/ by their content: they never change under one name. */
export const immutable = 'public, max-age=31536000, immutable';
/** Stable names such as widget.js: kept briefly, then asked again (a 304 when unchanged). */
const shortLived = 'public, max-age=300';

export async function readFileIn(root: string, relative: string): Promise<{ file: string; data: Buffer } | undefined> {
  const file = path.resolve(root, '.' + path.posix.normalize('/' + relative));
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  try {
    return { file, data: await fs.readFile(file) };
  } catch {
    return undefined;
  }
}

/** Weak: the same content goes out gzip-, brotli- or un-encoded. */
export const etagOf = (data: string | Buffer) =>
  `W/"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;

/**
 * Answers `data` with an ETag of its content (`etag`, when already known), or 304 when the browser
 * already holds exactly that.
 * The type must be set before.
 */
export function sendCached(ctx: AnyContext, data: string | Buffer, cacheControl: string, etag = etagOf(data)): void {
  ctx.status = 200;
  ctx.set('Cache-Control', cacheControl);
  ctx.etag = etag;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = data;
}

/** The path below `prefix` of a GET or HEAD a page or file may answer; undefined when it is not one. */
export function pathBelow(prefix: string, ctx: AnyContext): string | undefined {
  if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isMachinePath(ctx.path)) return undefined;
  if (prefix === '/') return ctx.path;
  if (ctx.path !== prefix && !ctx.path.startsWith(prefix + '/')) return undefined;
  return ctx.path.slice(prefix.length);
}

/** The files of a built app below `prefix`, as they are; anything else goes on to the next middleware. */
export function serveFiles(prefix: string, root: string): Middleware {
  const base = path.resolve(root);
  return async (ctx, next) => {
    const relative = pathBelow(prefix, ctx);
    const found = relative && path.extname(relative) ? await readFileIn(base, relative) : undefined;
    if (!relative || !found) {
      await next();
      return;
    }
    ctx.type = types[path.extname(found.file)] ?? 'application/octet-stream';
    sendCached(ctx, found.data, /\/assets\//.test(relative) ? immutable : shortLived);
  };
}

/**
 * Serves a built single-page app below `prefix`: its files, and for every other path `indexFile`,
 * so the app's own router decides; `page` fills in what the page needs of the request or the data.
 */
export function serveApp(
  prefix: string,
  root: string,
  indexFile = 'index.html',
  page?: (html: string, ctx: AnyContext) => Promise<string>,
): Middleware {
  const base = path.resolve(root);
  const files = serveFiles(prefix, root);
  return async (ctx, next) => {
    await files(ctx, async () => {
      const relative = pathBelow(prefix, ctx);
      // A missing asset is a 404, not the app.
      if (relative === undefined || (path.extname(relative) && !relative.endsWith('.html'))) {
        await next();
        return;
      }
      const index = await readFileIn(base, indexFile);
      if (!index) {
        await next();
        return;
      }
      ctx.type = 'text/html; charset=utf-8';
      sendCached(ctx, page ? await page(index.data.toString('utf8'), ctx) : index.data, 'no-cache');
    });
  };
}
