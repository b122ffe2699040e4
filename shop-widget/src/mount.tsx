import { effect } from '@preact/signals';
import { hydrate, render } from 'preact';
import { App } from './App.tsx';
import type { Boot } from './boot.ts';
import { parseRoute, failurePath, successPath } from './route.ts';
import {
  adoptVisit,
  cookieLang,
  env,
  keepsCustomerState,
  knowVendor,
  lang,
  path,
  readStored,
  scripted,
  startAt,
  type Mode,
} from './store.ts';
import type { Lang } from './money.ts';
import { pickLanguage } from './texts.ts';

export interface MountOptions {
  boot: Boot;
  /** The shop's origin for API calls and files; '' on the shop's own pages. */
  apiBase: string;
  mode: Mode;
  licenceId?: string;
  /** Embedded: where Stripe sends the customer back (the embedding page). */
  returnUrl?: string;
  /** Embedded: the customer is back from Stripe. */
  start?: { status: 'success' | 'failure'; order: string; sessionId?: string };
  /** The server rendered the first screen into `target` in this language: hydrate it. */
  rendered?: Lang;
}

/**
 * The widget's own styles as text: a file of their own, fetched only where the page did not bring
 * them inline (embedded widgets). The shop's own pages carry them in their HTML, so their script does
 * not carry them a second time (the first screen's 25 KB).
 */
const widgetCss = () => import('./style.css?inline').then((module) => module.default);

/**
 * The widget's styles, before the newspaper's own CSS so that wins. The shop's page comes with both
 * in its HTML; a shadow root, or a page served without them (the dev server), adopts them here.
 */
function addStyles(target: HTMLElement | ShadowRoot, options: MountOptions): () => void {
  const inlined = target instanceof ShadowRoot ? null : document.getElementById('shop-style');
  if (inlined) return () => inlined.remove();
  return adoptStyles(target instanceof ShadowRoot ? target : document, options.boot.settings.styleRevision);
}

/**
 * Constructed style sheets, not <style> elements, so a page whose Content-Security-Policy forbids
 * inline styles still shows the widget as designed, and no script writes styles a slow link would
 * show late. Adopted sheets come after a root's own, so the newspaper's CSS (its URL names the
 * revision: cached until the CSS changes) is adopted as well, after the widget's.
 */
function adoptStyles(root: ShadowRoot | Document, revision: number): () => void {
  const own = new CSSStyleSheet();
  void widgetCss().then((css) => own.replaceSync(css));
  const sheets: CSSStyleSheet[] = [own];
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, own];
  if (revision > 0) {
    fetch(`${env.apiBase}/public/style.css?rev=${revision}`)
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`HTTP ${res.status}`))))
      .then((text) => {
        const custom = new CSSStyleSheet();
        custom.replaceSync(text);
        sheets.push(custom);
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, custom];
      })
      .catch((error: unknown) => console.warn('The newspaper’s CSS could not be loaded', error));
  }
  return () => {
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((sheet) => !sheets.includes(sheet));
  };
}

/** Title, favicon and language of a page that is the shop itself. */
function ownPage(boot: Boot): () => void {
  const { newspaperName, favicon } = boot.settings;
  if (newspaperName) document.title = newspaperName;
  const icon = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (favicon && icon) icon.href = `${env.apiBase}${favicon}`;
  const stopLang = effect(() => {
    document.documentElement.lang = lang.value;
  });
  const onPop = () => (path.value = location.pathname + location.search);
  addEventListener('popstate', onPop);
  return () => {
    stopLang();
    removeEventListener('popstate', onPop);
  };
}

function initialPath(options: MountOptions): string {
  const { start } = options;
  if (start) return start.status === 'success' ? successPath(start.order, start.sessionId) : failurePath(start.order);
  if (options.mode === 'page') return location.pathname + location.search;
  return options.licenceId ? `/v/${encodeURIComponent(options.licenceId)}` : '/';
}

/**
 * Renders the shop into `target`: the page's own element ('page': routes are real URLs) or a
 * shadow root on a newspaper's page ('embedded': the route stays inside the widget, the host's URL
 * is never touched). Answers a function that removes it again.
 */
export function mountShop(target: HTMLElement | ShadowRoot, options: MountOptions): () => void {
  Object.assign(env, {
    boot: options.boot,
    apiBase: options.apiBase.replace(/\/+$/, ''),
    mode: options.mode,
    licenceId: options.licenceId,
    returnUrl: options.returnUrl,
  });
  const language = pickLanguage(
    readStored<string>('local', 'shop.lang') ?? cookieLang() ?? null,
    navigator.languages ?? [navigator.language],
  );

  const first = initialPath(options);
  // The boot data checked the embedded widget's vendor, or the vendor in the page's address.
  const firstRoute = parseRoute(first);
  const bootVendor =
    options.mode === 'embedded' ? options.licenceId : firstRoute.page === 'vendor' ? firstRoute.id : undefined;
  if (bootVendor) knowVendor(bootVendor, options.boot.vendor);
  startAt(first, Boolean(options.start));
  // Hydrated where the first render here is the server's; the language follows right after, a cart
  // kept from earlier in this session is drawn anew (hydration takes the server's attributes as they are).
  const hydrateAs = keepsCustomerState(bootVendor) ? undefined : options.rendered;
  if (bootVendor && options.boot.visit) adoptVisit(bootVendor, options.boot.visit);
  lang.value = hydrateAs ?? language;

  const removeStyles = addStyles(target, options);
  const leavePage = options.mode === 'page' ? ownPage(options.boot) : () => undefined;
  let container: HTMLElement | ShadowRoot = target;
  if (target instanceof ShadowRoot) {
    container = document.createElement('div');
    target.append(container);
  }
  if (hydrateAs) {
    hydrate(<App />, container);
    lang.value = language;
    scripted.value = true;
  } else {
    scripted.value = true;
    // In the same task as the render: the browser never paints the emptied page.
    if (options.rendered) container.replaceChildren();
    render(<App />, container);
  }
  return () => {
    render(null, container);
    if (container !== target) (container as HTMLElement).remove();
    removeStyles();
    leavePage();
  };
}
