import { notFound } from '../http/errors.ts';
import type { AppContext, RouteDef } from '../http/routes.ts';
import { pathParam } from '../http/params.ts';
import { readFile, type StoredFile } from './queries.ts';

const noSuchFile = () => notFound('There is no such file.');

const extensions: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
};

function send(ctx: AppContext, file: StoredFile, cacheControl: string): void {
  ctx.type = file.contentType;
  ctx.set({
    'Cache-Control': cacheControl,
    ETag: `"${file.sha256}"`,
    'X-Content-Type-Options': 'nosniff',
    // A stored file is data, never a page: even an image opened directly cannot run anything.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  });
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = file.data;
}

export const fileRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/files/:id',
    access: 'public',
    handler: async (ctx) => {
      const file = await readFile(ctx.db, pathParam(ctx, 'id'));
      // PDFs are paid digital editions: customers get them only through their download links.
      if (!file || !file.contentType.startsWith('image/')) throw noSuchFile();
      // Ids are random and a stored file never changes, so caches may keep it for good.
      send(ctx, file, 'public, max-age=31536000, immutable');
    },
  },
  {
    method: 'GET',
    path: '/api/files/:id',
    access: 'backoffice',
    handler: async (ctx) => {
      const file = await readFile(ctx.db, pathParam(ctx, 'id'));
      if (!file) throw noSuchFile();
      send(ctx, file, 'private, no-cache');
      ctx.set('Content-Disposition', `attachment; filename="${file.id}.${extensions[file.contentType] ?? 'bin'}"`);
    },
  },
];
