import path from 'node:path';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import { HttpError } from '../http/errors.ts';
import { limitVendorCheck } from '../http/rate-limit.ts';
import type { AppDeps, AppState } from '../http/routes.ts';
import { pathBelow, readFileIn, sendCached } from '../web/static.ts';
import { buildBoot, inlineJson, type Boot } from './boot.ts';

// The shop's pages: the built index.html with the first screen's data inlined, so a phone that just
// scanned a badge draws the landing page from one HTML answer and the cached script, without waiting
// for API round trips. The widget's router shows the screen that belongs to the path.

/** Paths served by other parts of the product; never the shop's page. */
const otherApps = ['/backoffice', '/me', '/files', '/public', '/img'];

/** Screens of the specification that stand on their own path. */
const screens = new Set([
  '/',
  '/go-to-vendor',
  '/paymentconfirmation',
  '/success',
  '/failure',
  '/error',
  '/error-invalid-link',
  '/maintenance',
]);

interface ShopRoute {
  /** 404 for /404 and paths that name no screen (the widget shows the go-to-vendor page there too). */
  status: 200 | 404;
  licenceId?: string;
}

function shopRoute(pathname: string): ShopRoute | undefined {
  if (otherApps.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return undefined;
  if (path.posix.extname(pathname)) return undefined; // a file that is not there
  const vendorPage = /^\/v\/([^/]+)(?:\/[^/]+)?$/.exec(pathname);
  if (vendorPage?.[1]) {
    try {
      return { status: 200, licenceId: decodeURIComponent(vendorPage[1]) };
    } catch {
      return { status: 200 }; // a broken %-escape is no vendor: the check-id screen says so
    }
  }
  return { status: screens.has(pathname) || /^\/pdf\/[^/]+$/.test(pathname) ? 200 : 404 };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The API answers paths relative to its root (`img/logo.png`) or absolute ones (`/files/<id>`). */
const fromRoot = (url: string) => (/^(https?:)?\/\//.test(url) || url.startsWith('/') ? url : `/${url}`);

async function hasCustomCss(db: Knex): Promise<boolean> {
  const row = await db('settings')
    .where({ id: 1 })
    .first<{ has_css: boolean } | undefined>(db.raw(`style_css <> '' as has_css`));
  return Boolean(row?.has_css);
}

interface PageData {
  lang: 'de' | 'en';
  boot: Boot;
  customCss: boolean;
}

/** index.html with the newspaper's title, language, icon, colour, custom CSS and the boot data. */
export function renderShopPage(template: string, { lang, boot, customCss }: PageData): string {
  const { settings } = boot;
  const head = [
    `<meta name="theme-color" content="${escapeHtml(settings.color)}">`,
    `<link rel="icon" href="${escapeHtml(fromRoot(settings.favicon ?? settings.logo))}">`,
    // Its own id, so the widget can tell that the page already holds the current revision.
    customCss
      ? `<link id="shop-custom-css" rel="stylesheet" href="/public/style.css?rev=${settings.styleRevision}">`
      : '',
    `<script id="shop-boot" type="application/json">${inlineJson(boot)}</script>`,
  ].filter(Boolean);
  let html = template.replace(/<html([^>]*?)\slang="[^"]*"/, `<html$1 lang="${lang}"`);
  if (settings.newspaperName)
    html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(settings.newspaperName)}</title>`);
  return html.replace('</head>', `  ${head.join('\n    ')}\n  </head>`);
}

const busyTexts = {
  de: [
    'Bitte einen Moment Geduld',
    'Von dieser Verbindung kamen gerade sehr viele Anfragen. Bitte warten Sie eine Minute und laden Sie die Seite dann neu.',
    'Neu laden',
  ],
  en: [
    'Please wait a moment',
    'Very many requests came from this connection just now. Please wait a minute, then reload the page.',
    'Reload',
  ],
};

/** The page a customer sees when their connection looked up too many vendors in a minute. */
function busyPage(lang: 'de' | 'en'): string {
  const [title, text, reload] = busyTexts[lang];
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1>${title}</h1><p>${text}</p><p><a href="">${reload}</a></p></body></html>`
  );
}

/** Every shop path of the specification answers the widget's page; `root` holds its build. */
export function shopPage(root: string): Middleware<AppState, AppDeps> {
  const base = path.resolve(root);
  return async (ctx, next) => {
    const relative = pathBelow('/', ctx);
    const route = relative === undefined ? undefined : shopRoute(relative);
    if (!route) {
      await next();
      return;
    }
    const template = await readFileIn(base, 'index.html');
    if (!template) {
      await next();
      return;
    }
    // German is the default and the fallback; the widget may still switch to a remembered choice.
    const lang = ctx.acceptsLanguages('de', 'en') === 'en' ? 'en' : 'de';
    ctx.vary('Accept-Language');
    if (route.licenceId) {
      try {
        await limitVendorCheck(ctx);
      } catch (error) {
        if (!(error instanceof HttpError) || error.status !== 429) throw error;
        // A customer who scanned a badge reads a page, not the API's JSON.
        ctx.status = 429;
        ctx.set(error.headers);
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = busyPage(lang);
        return;
      }
    }
    const [boot, customCss] = await Promise.all([buildBoot(ctx.db, ctx.config, route.licenceId), hasCustomCss(ctx.db)]);
    ctx.type = 'text/html; charset=utf-8';
    const html = renderShopPage(template.data.toString('utf8'), { lang, boot, customCss });
    if (route.status === 200) return sendCached(ctx, html, 'no-cache');
    ctx.status = 404;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = html;
  };
}
