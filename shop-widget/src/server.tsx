import { renderToString } from 'preact-render-to-string';
import { App } from './App.tsx';
import type { Boot } from './boot.ts';
import { parseRoute } from './route.ts';
import { env, forgetVisits, knowVendor, lang, path } from './store.ts';
import type { Lang } from './money.ts';
import css from './style.css?inline';

// The shop's first screen rendered on the server by the same components that hydrate it in the
// browser, so a slow phone shows the screen (and can go on) before the script has arrived.

/** The widget's styles, inlined into the page so the first screen needs no second request. */
export { css };

/** Pages that show what they show from the boot data alone; the others wait for an API answer. */
const fromBootAlone = new Set(['vendor', 'go-to-vendor', 'not-found', 'error', 'invalid-link', 'maintenance']);

/**
 * The markup of the shop's page at `url` (path and query), or undefined when its first screen needs
 * the browser (a receipt, a PDF). Rendering is synchronous, so the module's one state serves one
 * request at a time; each render starts from the boot data alone, as a fresh visit in the browser does.
 */
export function renderFirstScreen(boot: Boot, url: string, language: Lang): string | undefined {
  const route = parseRoute(url);
  if (!fromBootAlone.has(route.page)) return undefined;
  forgetVisits();
  Object.assign(env, { boot, apiBase: '', mode: 'page', licenceId: undefined, returnUrl: undefined });
  lang.value = language;
  path.value = url;
  if (route.page === 'vendor') knowVendor(route.id, boot.vendor);
  return renderToString(<App />);
}
