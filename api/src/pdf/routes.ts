import type { AppContext, RouteDef } from '../http/routes.ts';
import { pathParam } from '../http/params.ts';
import { findValidLink, invalidLink, takeDownload } from './links.ts';

/** A download name from the item's name: an ASCII fallback and the UTF-8 original (RFC 6266). */
function contentDisposition(itemName: string): string {
  const clean =
    itemName
      .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 100) || 'edition';
  const ascii =
    clean
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9 ._-]/g, '')
      .trim()
      .replace(/ /g, '_') || 'edition';
  return `attachment; filename="${ascii}.pdf"; filename*=UTF-8''${encodeURIComponent(`${clean}.pdf`)}`;
}

function pdfHeaders(ctx: AppContext, itemName: string): void {
  ctx.type = 'application/pdf';
  ctx.set({
    'Content-Disposition': contentDisposition(itemName),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
}

export const pdfRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/pdf/:id/validate',
    access: 'public',
    handler: async (ctx) => {
      const link = await findValidLink(ctx.db, pathParam(ctx, 'id'));
      if (!link) throw invalidLink();
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { valid: true, itemName: link.itemName, itemNameEn: link.itemNameEn, expiresAt: link.expiresAt };
    },
  },
  {
    method: 'GET',
    path: '/api/pdf/:id',
    access: 'public',
    handler: async (ctx) => {
      // A HEAD (link checkers, previews) answers like the download but is not one: nothing is counted.
      if (ctx.method === 'HEAD') {
        const link = await findValidLink(ctx.db, pathParam(ctx, 'id'));
        if (!link) throw invalidLink();
        pdfHeaders(ctx, link.itemName);
        ctx.status = 200;
        return;
      }
      const download = await takeDownload(ctx.db, pathParam(ctx, 'id'));
      if (!download) throw invalidLink();
      pdfHeaders(ctx, download.itemName);
      ctx.body = download.file.data;
    },
  },
];
