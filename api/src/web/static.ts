import fs from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
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

async function readFileIn(root: string, relative: string): Promise<{ file: string; data: Buffer } | undefined> {
  const file = path.resolve(root, '.' + path.posix.normalize('/' + relative));
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  try {
    return { file, data: await fs.readFile(file) };
  } catch {
    return undefined;
  }
}

/**
 * Serves a built single-page app below `prefix`: files as they are (hashed assets cached for a year),
 * every other path gets index.html so the app's own router decides.
 */
export function serveApp(prefix: string, root: string, indexFile = 'index.html'): Middleware {
  const base = path.resolve(root);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isMachinePath(ctx.path)) return next();
    if (prefix !== '/' && ctx.path !== prefix && !ctx.path.startsWith(prefix + '/')) return next();
    const relative = ctx.path.slice(prefix === '/' ? 0 : prefix.length);
    const found = relative && relative !== '/' && path.extname(relative) ? await readFileIn(base, relative) : undefined;
    if (found) {
      ctx.type = types[path.extname(found.file)] ?? 'application/octet-stream';
      ctx.set('Cache-Control', /\/assets\//.test(relative) ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      ctx.body = found.data;
      return;
    }
    if (path.extname(relative) && !relative.endsWith('.html')) return next(); // a missing asset is a 404, not the app
    const index = await readFileIn(base, indexFile);
    if (!index) return next();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = index.data;
  };
}
