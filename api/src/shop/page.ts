import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Middleware } from 'koa';
import { sendKeptEncoded, type KeptEncodings } from '../http/compress.ts';
import { HttpError } from '../http/errors.ts';
import { limitVendorCheck } from '../http/rate-limit.ts';
import { findValidLink } from '../pdf/links.ts';
import { showsTestRibbon } from '../stripe/mode.ts';
import type { AppDeps, AppState } from '../http/routes.ts';
import { log } from '../foundations/log.ts';
import { etagOf, pathBelow, readFileIn, sendCached, type AnyContext } from '../web/static.ts';
import { buildBoot, inlineJson, type Boot } from './boot.ts';
import { formFields, keepVisit, keptVisit, orderOfPage, payWithoutScript, type Visit } from './forms.ts';
import type { ShopData } from './cache.ts';
import { scriptAfterPaint } from './script-after-paint.ts';

// The shop's pages: the built index.html with the first screen rendered into it by the widget's own
// components, its styles and its data inlined, so a phone that just scanned a badge shows the landing
// page (and can go on) from one HTML answer; the script, asked for once that is painted, hydrates it.

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
      return { status: 404 }; // a broken %-escape is no vendor: the check-id screen says so
    }
  }
  return { status: screens.has(pathname) || /^\/pdf\/[^/]+$/.test(pathname) ? 200 : 404 };
}

/** A path segment as it was meant; a broken %-escape stays as it came (and names nothing). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The API answers paths relative to its root (`img/logo.png`) or absolute ones (`/files/<id>`). */
const fromRoot = (url: string) => (/^(https?:)?\/\//.test(url) || url.startsWith('/') ? url : `/${url}`);

interface PageData {
  lang: 'de' | 'en';
  boot: Boot;
  /** The newspaper's own description for search engines, or empty for ours. */
  metaDescription: string;
  customCss: boolean;
  /**
   * The widget's styles, inline on every page of the shop's own: a screen the script draws (the
   * receipt after the card page) is styled from its first frame as well, not once a style chunk
   * has arrived.
   */
  css?: string;
  /** The first screen rendered on the server, when it has one. */
  firstScreen?: string;
  /**
   * What a browser without the script shows where the script draws the page (a receipt), and
   * whether that asks again in a moment (a payment not confirmed yet).
   */
  withoutScript?: { markup: string; askAgain: boolean };
}

/**
 * What a search engine or a shared link's preview says under the page's title (Lighthouse's SEO
 * audit "Document has a meta description": https://developer.chrome.com/docs/lighthouse/seo/meta-description).
 */
const descriptions = {
  de: (newspaper: string, vendor?: string) =>
    `${newspaper} online kaufen${vendor ? ` bei ${vendor}` : ' bei Ihrer Verkäuferin oder Ihrem Verkäufer'}: die Straßenzeitung gedruckt oder digital, bezahlt mit Karte.`,
  en: (newspaper: string, vendor?: string) =>
    `Buy ${newspaper} online from ${vendor ?? 'your vendor'}: the street paper in print or digital, paid by card.`,
};

/**
 * index.html with the newspaper's title, description, language, icon, colour, custom CSS, the boot
 * data and the first screen with its styles.
 */
export function renderShopPage(
  template: string,
  { lang, boot, metaDescription, customCss, css, firstScreen, withoutScript }: PageData,
): string {
  const { settings } = boot;
  // The newspaper's own text when it wrote one, in whatever language it wrote it.
  const description =
    metaDescription ||
    descriptions[lang](
      settings.newspaperName || (lang === 'de' ? 'Die Straßenzeitung' : 'The street paper'),
      boot.vendor?.displayName,
    );
  const head = [
    `<meta name="description" content="${escapeHtml(description)}">`,
    `<meta name="theme-color" content="${escapeHtml(settings.color)}">`,
    `<link rel="icon" href="${escapeHtml(fromRoot(settings.favicon ?? settings.logo))}">`,
    // The widget's styles before the newspaper's own, so those win.
    css ? `<style id="shop-style">${css}</style>` : '',
    // Its own id, so the widget can tell that the page already holds the current revision.
    customCss
      ? `<link id="shop-custom-css" rel="stylesheet" href="/public/style.css?rev=${settings.styleRevision}">`
      : '',
    `<script id="shop-boot" type="application/json">${inlineJson(boot)}</script>`,
    withoutScript?.askAgain ? `<noscript><meta http-equiv="refresh" content="3"></noscript>` : '',
  ].filter(Boolean);
  // Replacer functions throughout: in a replacement string, a name or text holding `$'` or `$&` would
  // paste parts of the template.
  let html = template.replace(
    /<html([^>]*?)\slang="[^"]*"/,
    (_, attributes: string) => `<html${attributes} lang="${lang}"`,
  );
  if (settings.newspaperName)
    html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(settings.newspaperName)}</title>`);
  if (firstScreen !== undefined)
    html = scriptAfterPaint(html.replace('<div id="shop"></div>', () => `<div id="shop">${firstScreen}</div>`));
  else if (withoutScript)
    html = html.replace(
      '<div id="shop"></div>',
      () => `<div id="shop"></div><noscript>${withoutScript.markup}</noscript>`,
    );
  return html.replace('</head>', () => `  ${head.join('\n    ')}\n  </head>`);
}

type FormAnswer =
  | { to: string; visit: Visit }
  | { refused: Record<string, unknown>; visit: Visit }
  | {
      pay: { lines: { item: { id: number }; quantity: number }[]; tip: number; digital?: unknown };
      cartId: string;
      visit: Visit;
    };

/** The shop's components built for the server (dist/shop-widget-server/server.js). */
interface FirstScreenRenderer {
  css: string;
  renderFirstScreen(boot: Boot & { visit?: Visit }, url: string, lang: 'de' | 'en'): string | undefined;
  answerForm(
    boot: Boot,
    url: string,
    lang: 'de' | 'en',
    kept: unknown,
    fields: URLSearchParams,
  ): FormAnswer | undefined;
  keptVisit(kept: unknown): Visit | undefined;
  redirectOf(boot: Boot, url: string, lang: 'de' | 'en', visit: Visit): string | undefined;
  notFound(url: string): boolean;
  renderReceipt(boot: Boot, receipt: Record<string, unknown>, lang: 'de' | 'en'): string;
  renderFailure(boot: Boot, receipt: Record<string, unknown> | undefined, lang: 'de' | 'en'): string;
  renderWithoutOrder(
    boot: Boot,
    url: string,
    lang: 'de' | 'en',
    pdf?: { itemName: string; itemNameEn?: string },
  ): string | undefined;
}

const renderers = new Map<string, Promise<FirstScreenRenderer | undefined>>();

/** Loaded once; without it (a build from before it existed) the page is drawn by the script alone. */
function firstScreenRenderer(file: string): Promise<FirstScreenRenderer | undefined> {
  let renderer = renderers.get(file);
  if (!renderer) {
    renderer = (import(pathToFileURL(file).href) as Promise<FirstScreenRenderer>).catch((error: unknown) => {
      log.warn('the shop’s first screen is drawn in the browser only', { error: String(error) });
      return undefined;
    });
    renderers.set(file, renderer);
  }
  return renderer;
}

interface RenderedPage {
  /** Encoded once: a string body would be turned into bytes again for every request. */
  html: Buffer;
  etag: string;
  /** The page compressed once per encoding a browser asked for, not again for every request. */
  encoded: KeptEncodings;
}

/**
 * The page as the answer, compressed once per encoding a browser takes and kept with the page. Not
 * where the test-mode ribbon is still to be put into the page: then the compression middleware
 * compresses it after that, per request.
 */
async function sendPage(ctx: AnyContext, page: RenderedPage, withRibbon: boolean): Promise<void> {
  if (withRibbon) ctx.body = page.html;
  else await sendKeptEncoded(ctx, page.html, page.encoded);
}

/** Pages rendered at most per copy of the settings and items; more are rendered anew each time. */
const maxPagesPerCopy = 500;

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

/** The language chosen with the shop's switch; the widget sets and reads it too (shop-widget/src/store.ts). */
const languageCookie = 'shop-lang';

function chosenLanguage(ctx: AnyContext): 'de' | 'en' | undefined {
  const chosen = ctx.cookies.get(languageCookie);
  return chosen === 'de' || chosen === 'en' ? chosen : undefined;
}

function chooseLanguage(ctx: Parameters<Middleware<AppState, AppDeps>>[0], lang: 'de' | 'en'): void {
  ctx.cookies.set(languageCookie, lang, {
    path: '/',
    maxAge: 365 * 24 * 3600 * 1000,
    // The widget reads and sets it too: a choice made with the script holds without it, and back.
    httpOnly: false,
    sameSite: 'lax',
    secure: ctx.config.publicUrl.startsWith('https:'),
    overwrite: true,
  });
}

/**
 * Every shop path of the specification answers the widget's page; `root` holds its build and
 * `rendererFile` the same components built for the server.
 */
export function shopPage(root: string, rendererFile: string): Middleware<AppState, AppDeps> {
  const base = path.resolve(root);
  // By copy of the settings and items: a change makes a new copy, and its pages are rendered anew.
  const pagesByCopy = new WeakMap<ShopData, Map<string, RenderedPage>>();
  return async (ctx, next) => {
    // A vendor's shop also answers its forms (sent without the script) at the step's own address.
    const form = ctx.method === 'POST' && /^\/v\/[^/]+(?:\/[^/]+)?$/.test(ctx.path);
    const relative = form ? ctx.path : pathBelow('/', ctx);
    const route = relative === undefined ? undefined : shopRoute(relative);
    if (!route) {
      await next();
      return;
    }
    // A language chosen with the shop's switch without the script: kept, and the same place again.
    if (ctx.method === 'GET' && (ctx.query.lang === 'de' || ctx.query.lang === 'en')) {
      chooseLanguage(ctx, ctx.query.lang);
      const rest = new URLSearchParams(ctx.querystring);
      rest.delete('lang');
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      // Back on this host only: a path starting "//" or "/\\" would be read as another host's address.
      const here = `/${relative!.replace(/^[/\\]+/, '')}`;
      return ctx.redirect(rest.size ? `${here}?${rest}` : here);
    }
    // The language chosen in this browser, else the browser's own; German is the default and the
    // fallback. The widget, once it runs, keeps the same choice.
    const lang = chosenLanguage(ctx) ?? (ctx.acceptsLanguages('de', 'en') === 'en' ? 'en' : 'de');
    ctx.vary('Accept-Language');
    ctx.vary('Cookie');
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
    const { boot, shop } = await buildBoot(ctx.db, ctx.config, route.licenceId, lang);
    ctx.state.embedOrigins = [...ctx.config.embedOrigins, ...(shop.settings.embed_origins ?? [])];
    const url = ctx.search ? `${relative}${ctx.search}` : relative!;
    const template = await readFileIn(base, 'index.html');
    if (!template) {
      await next();
      return;
    }
    const renderer = await firstScreenRenderer(rendererFile);
    // A step a vendor's shop does not know, or a badge of no active vendor: its page, with a 404.
    const status = renderer?.notFound(url) || (route.licenceId && !boot.vendor) ? 404 : route.status;
    const render = (pageBoot: Boot & { visit?: Visit }, withoutScript?: PageData['withoutScript']) =>
      renderShopPage(template.data.toString('utf8'), {
        lang,
        boot: pageBoot,
        metaDescription: shop.settings.meta_description,
        customCss: shop.settings.style_css !== '',
        css: renderer?.css,
        firstScreen: renderer?.renderFirstScreen(pageBoot, url, lang),
        withoutScript,
      });
    /** A page for this browser alone: its visit or its order is in it. */
    const sendOwn = async (html: string, status = 200) => {
      ctx.status = status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      await sendPage(ctx, { html: Buffer.from(html), etag: '', encoded: {} }, true);
    };

    if (form) {
      if (!route.licenceId || !renderer) {
        await next();
        return;
      }
      const fields = await formFields(ctx);
      const answer = renderer.answerForm(boot, url, lang, keptVisit(ctx), fields);
      if (!answer) return ctx.redirect(url);
      keepVisit(ctx, route.licenceId, answer.visit);
      if ('to' in answer) {
        ctx.status = 303;
        return ctx.redirect(answer.to);
      }
      if ('refused' in answer)
        return sendOwn(render({ ...boot, visit: { ...answer.visit, refusal: answer.refused } }), 422);
      const paid = await payWithoutScript(ctx, {
        vendor: route.licenceId,
        summary: answer.pay,
        email: typeof answer.visit.email === 'string' ? answer.visit.email : '',
        cartId: answer.cartId,
        lang,
      });
      if ('checkoutUrl' in paid) {
        ctx.status = 303;
        return ctx.redirect(paid.checkoutUrl);
      }
      // A refused cart (ended, paid, changed on the server) is paid again as a new one.
      const { cartId: _refused, ...visit } = answer.visit;
      keepVisit(ctx, route.licenceId, visit);
      const refusal = { step: 'confirmation', field: 'pay', text: paid.refusal };
      return sendOwn(render({ ...boot, visit: { ...visit, refusal } }), paid.status);
    }

    const visit = route.licenceId ? renderer?.keptVisit(keptVisit(ctx)) : undefined;
    if (visit) {
      const instead = renderer!.redirectOf(boot, url, lang, visit);
      if (!instead) return sendOwn(render({ ...boot, visit }), status);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      return ctx.redirect(instead);
    }
    const receipt = renderer && (await orderOfPage(ctx.db, ctx.config, relative!, ctx.query));
    // A paid order ends the visit at its vendor: the shop starts afresh there.
    if (receipt?.status === 'paid') keepVisit(ctx, String(receipt.licenseId), undefined);
    if (renderer && relative === '/failure') {
      // Back from the card page without paying: the way back to the cart that this browser's visit keeps.
      return sendOwn(render(boot, { markup: renderer.renderFailure(boot, receipt, lang), askAgain: false }));
    }
    if (receipt) {
      const markup = renderer.renderReceipt(boot, receipt, lang);
      return sendOwn(render(boot, { markup, askAgain: receipt.status === 'pending' }));
    }
    // The e-mail's PDF link, or an address after payment that names no order: drawn here as well.
    const pdfId = /^\/pdf\/([^/]+)$/.exec(relative!)?.[1];
    const pdf = pdfId === undefined ? undefined : await findValidLink(ctx.db, decodeSegment(pdfId));
    const withoutOrder = renderer?.renderWithoutOrder(boot, url, lang, pdf);
    if (withoutOrder !== undefined) {
      // A link or an order that is not there: the page says so, with the status that says so too.
      const missing = pdfId === undefined ? typeof ctx.query.order === 'string' && ctx.query.order !== '' : !pdf;
      return sendOwn(render(boot, { markup: withoutOrder, askAgain: false }), missing ? 404 : 200);
    }

    let pages = pagesByCopy.get(shop);
    if (!pages) pagesByCopy.set(shop, (pages = new Map<string, RenderedPage>()));
    const key = `${lang} ${url} ${JSON.stringify(boot.vendor)}`;
    let page = pages.get(key);
    if (!page) {
      const html = render(boot);
      page = { html: Buffer.from(html), etag: etagOf(html), encoded: {} };
      if (pages.size < maxPagesPerCopy) pages.set(key, page);
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.vary('Accept-Encoding');
    if (status === 200) {
      sendCached(ctx, page.html, 'no-cache', page.etag);
      if (ctx.status === 304) return;
    } else {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-cache');
    }
    await sendPage(ctx, page, showsTestRibbon(ctx.config));
  };
}
