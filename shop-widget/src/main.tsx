import { fetchBoot, readBoot } from './boot.ts';
import { mountShop } from './mount.tsx';
import { parseRoute } from './route.ts';

// The shop's own pages (/v/<licenceId>, /success, …): the server inlines the boot data; without
// it (the Vite dev server) the widget asks the API. Where the server rendered the first screen too,
// the widget hydrates it.

const target = document.getElementById('shop')!;
const route = parseRoute(location.pathname);
const licenceId = route.page === 'vendor' ? route.id : undefined;
const inlined = readBoot();
// The server's first screen, in the page's language, when it rendered one.
const rendered = target.firstElementChild ? (document.documentElement.lang === 'en' ? 'en' : 'de') : undefined;

/**
 * The page answers through the script from now on, no longer by its forms alone; tests wait for this,
 * since the script of a server-rendered page comes after the load event (see script-after-paint.ts).
 */
const ready = () => target.setAttribute('data-ready', '');

if (inlined) {
  mountShop(target, { boot: inlined, apiBase: '', mode: 'page', licenceId, rendered });
  ready();
} else {
  fetchBoot('', licenceId).then(
    (boot) => {
      mountShop(target, { boot, apiBase: '', mode: 'page', licenceId });
      ready();
    },
    () => {
      target.textContent =
        'Upsi, es ist ein Fehler aufgetreten. Bitte versuche es erneut. / An error occurred. Please try again later.';
    },
  );
}
