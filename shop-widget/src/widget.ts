import { fetchBoot } from './boot.ts';
import { mountShop, type MountOptions } from './mount.tsx';

// The embed script for the newspaper's own website:
//   <script src="https://<shop>/widget.js" data-vendor="<licenceId>" async></script>
// It puts the shop right after its script tag, inside a shadow root (the page's styles and the
// widget's stay apart), talks to the shop's origin (the script's own), and sends the customer to
// Stripe and back to this very page, where the receipt follows.

// Only known while the script first runs.
const script = document.currentScript as HTMLScriptElement | null;

/** Added by the shop to the return address; the answer from Stripe for this widget. */
const returnParams = ['shop_status', 'shop_order', 'session_id'];

const isStatus = (value?: string): value is 'success' | 'failure' => value === 'success' || value === 'failure';

/**
 * The customer's way back from Stripe, if this page load is one, and the address to come back to
 * next time. The parameters leave the address bar at once: the order token is the receipt's key and
 * does not belong in bookmarks or shared links (the widget keeps the receipt for a reload itself).
 */
function backFromStripe(): Pick<MountOptions, 'start' | 'returnUrl'> {
  const url = new URL(location.href);
  const params = url.searchParams;
  const [status, order, sessionId] = returnParams.map((name) => params.get(name) ?? undefined);
  if (!status) return { returnUrl: url.href };
  for (const name of returnParams) params.delete(name);
  history.replaceState(history.state, '', url.href);
  const start = isStatus(status) && order ? { status, order, sessionId } : undefined;
  return { start, returnUrl: url.href };
}

/** Keeps the page's inherited fonts, colours and sizes out; the widget's own CSS sets its look. */
const hostStyle =
  ':host{all:initial!important;display:block!important}.shop-embed-refused{font:1rem/1.5 system-ui,sans-serif;margin:1rem 0}';

function refused(shadow: ShadowRoot, shop: string): void {
  const english = navigator.language.toLowerCase().startsWith('en');
  const note = document.createElement('p');
  note.setAttribute('role', 'alert');
  note.className = 'shop-embed-refused';
  note.textContent = english
    ? 'The shop cannot be shown on this page.'
    : 'Der Shop kann auf dieser Seite nicht angezeigt werden.';
  shadow.append(note);
  console.error(
    `The shop at ${shop} did not answer this page (${location.origin}). ` +
      'If this is the newspaper’s own website, add its origin to EMBED_ORIGINS or to the embed origins in the shop’s settings.',
  );
}

async function start(): Promise<void> {
  if (!script?.src) return;
  const shop = new URL(script.src).origin;
  const licenceId = script.dataset.vendor?.trim() || undefined;
  const back = backFromStripe();
  const host = document.createElement('street-paper-shop');
  script.after(host);
  const shadow = host.attachShadow({ mode: 'open' });
  // A constructed sheet, not a <style> element: a page whose Content-Security-Policy forbids inline
  // styles still lets it apply.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(hostStyle);
  shadow.adoptedStyleSheets = [sheet];
  let boot;
  try {
    boot = await fetchBoot(shop, licenceId);
  } catch {
    refused(shadow, shop);
    return;
  }
  mountShop(shadow, { boot, apiBase: shop, mode: 'embedded', licenceId, ...back });
}

void start();
