import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware, ParameterizedContext } from 'koa';
import { sendKeptEncoded, type KeptEncodings } from '../http/compress.ts';
import { isMachinePath } from '../http/paths.ts';

/** Any Koa context, whatever the app's state and additions. */
export type AnyContext = ParameterizedContext<unknown, object, unknown>;

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

const typeOf = (file: string) => types[path.extname(file)] ?? 'application/octet-stream';

/** Vite names the files below assets/ by their content: they never change under one name. */
export const immutable = 'public, max-age=31536000, immutable';
/** Stable names such as widget.js: kept briefly, then asked again (a 304 when unchanged). */
const shortLived = 'public, max-age=300';

/** The file `relative` names below `root`; undefined when it would lead out of it. */
function fileIn(root: string, relative: string): string | undefined {
  const file = path.resolve(root, '.' + path.posix.normalize('/' + relative));
  return file === root || file.startsWith(root + path.sep) ? file : undefined;
}

export async function readFileIn(root: string, relative: string): Promise<{ file: string; data: Buffer } | undefined> {
  const file = fileIn(root, relative);
  if (!file) return undefined;
  try {
    return { file, data: await fs.readFile(file) };
  } catch {
    return undefined;
  }
}

/** Vite's names for files below assets/, which hold their content's hash. */
const contentNamed = /\/assets\//;

interface KeptFile {
  file: string;
  data: Buffer;
  etag: string;
  encoded: KeptEncodings;
}

/**
 * The content-named files of the builds that were asked for, by path, for the life of the process:
 * the bytes under such a name never change, so each is read, hashed and compressed once instead of
 * at every request (the back office's first load alone compresses about 1 MB of script, some 20 ms
 * of CPU). Not per paper: every paper a process serves sends the same build, and nothing of a paper
 * is in it. Only a file that was found is kept, so this holds at most the builds' own files.
 */
const keptFiles = new Map<string, Promise<KeptFile | undefined>>();

function keptFileIn(root: string, relative: string): Promise<KeptFile | undefined> {
  const file = fileIn(root, relative);
  if (!file) return Promise.resolve(undefined);
  let kept = keptFiles.get(file);
  if (!kept) {
    kept = fs.readFile(file).then(
      (data) => ({ file, data, etag: etagOf(data), encoded: {} }),
      () => {
        keptFiles.delete(file);
        return undefined;
      },
    );
    keptFiles.set(file, kept);
  }
  return kept;
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
    // As the file it names: no "/assets/../" makes another file pass for one named by its content.
    const file = relative && path.extname(relative) ? path.posix.normalize('/' + relative) : undefined;
    const named = file !== undefined && contentNamed.test(file);
    const kept = file && named ? await keptFileIn(base, file) : undefined;
    const found = kept ?? (file && !named ? await readFileIn(base, file) : undefined);
    if (!found) {
      await next();
      return;
    }
    ctx.type = typeOf(found.file);
    if (!kept) {
      sendCached(ctx, found.data, shortLived);
      return;
    }
    sendCached(ctx, kept.data, immutable, kept.etag);
    if (ctx.status !== 304) await sendKeptEncoded(ctx, kept.data, kept.encoded);
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
