import { computed, effect, signal, type Signal } from '@preact/signals';
import type { Boot, Refusal, VendorCheck, Visit } from './boot.ts';
import { initialCart, type Cart } from './cart.ts';
import type { Lang } from './money.ts';
import { parseRoute } from './route.ts';
import { fill, type TextKey } from './texts.ts';

// The state of one mounted shop (a page holds one): where it is, in which language, and each
// vendor's cart. The flow lives in sessionStorage so a reload or the Back button keeps it; the
// e-mail address and the language live in localStorage, remembered on the device.

export type Mode = 'page' | 'embedded';

export interface Env {
  boot: Boot;
  apiBase: string;
  mode: Mode;
  /** The embedded widget's vendor (its `data-vendor`). */
  licenceId?: string;
  returnUrl?: string;
}

export const env: Env = {
  boot: { settings: {} as Boot['settings'], vendor: null, items: [] },
  apiBase: '',
  mode: 'page',
};

// Storage can be missing or refuse (private modes, blocked cookies): the shop then works without it.
function store(kind: 'local' | 'session'): Storage | undefined {
  try {
    return kind === 'local' ? localStorage : sessionStorage;
  } catch {
    return undefined;
  }
}

export function readStored<T>(kind: 'local' | 'session', key: string): T | undefined {
  try {
    const text = store(kind)?.getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function writeStored(kind: 'local' | 'session', key: string, value: unknown): void {
  try {
    if (value === undefined) store(kind)?.removeItem(key);
    else store(kind)?.setItem(key, JSON.stringify(value));
  } catch {
    /* full or refused: the state just does not survive a reload */
  }
}

export const lang = signal<Lang>('de');
export const t = (key: TextKey, values?: Record<string, string | number>) => fill(key, lang.value, values);

/** A text staff entered in German and perhaps in English, in the shop's language: German where there is no English. */
export const inLang = (german: string, english: string | undefined) => (lang.value === 'en' && english) || german;

/** The choice as the server keeps it for pages drawn without the script (api/src/shop/page.ts). */
const langCookie = /(?:^|;\s*)shop-lang=(de|en)(?:;|$)/;
export const cookieLang = () => (env.mode === 'page' ? langCookie.exec(document.cookie)?.[1] : undefined);

export function setLang(next: Lang): void {
  lang.value = next;
  writeStored('local', 'shop.lang', next);
  if (env.mode === 'page') document.cookie = `shop-lang=${next}; path=/; max-age=31536000; samesite=lax`;
}

/** The current path with its query: the URL in page mode, remembered in embedded mode. */
export const path = signal('/');
export const route = computed(() => parseRoute(path.value));
const embeddedRouteKey = () => `shop.embedded.route.${env.licenceId ?? ''}`;

/** Whether the customer has moved since the first screen: only then does a new screen take the focus. */
export let navigated = false;

export function navigate(to: string, replace = false): void {
  if (env.mode === 'page') history[replace ? 'replaceState' : 'pushState'](null, '', to);
  else writeStored('session', embeddedRouteKey(), to);
  navigated = true;
  path.value = to;
}

/** The first route; an embedded widget resumes where it was unless told where to start. */
export function startAt(initial: string, force = false): void {
  path.value =
    env.mode === 'embedded' && !force ? (readStored<string>('session', embeddedRouteKey()) ?? initial) : initial;
  if (env.mode === 'embedded') writeStored('session', embeddedRouteKey(), path.value);
}

/** Files and images: the API gives `img/logo.png` or `/files/<id>`, relative to its root. */
export function assetUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return /^(https?:)?\/\//.test(value) ? value : `${env.apiBase}/${value.replace(/^\//, '')}`;
}

// Vendors by licence id as the check answered: the boot's vendor is known from the start.
type VendorState = VendorCheck | null | 'loading' | 'failed';
const vendors = signal<Record<string, VendorState>>({});

export function knowVendor(id: string, vendor: VendorState): void {
  vendors.value = { ...vendors.value, [id]: vendor };
}

/** undefined: not asked yet (`loadVendor`). */
export const vendorState = (id: string): VendorState | undefined => vendors.value[id];

export function loadVendor(id: string): void {
  knowVendor(id, 'loading');
  void (async (): Promise<VendorState> => {
    try {
      const res = await fetch(`${env.apiBase}/api/vendors/check/${encodeURIComponent(id)}/`, {
        headers: { Accept: 'application/json' },
      });
      if (res.ok) return (await res.json()) as VendorCheck;
      // Unknown and deactivated look the same (404); anything else is our failure, not a bad badge.
      return res.status === 404 ? null : 'failed';
    } catch {
      return 'failed';
    }
  })().then((vendor) => knowVendor(id, vendor));
}

export interface Flow {
  cart: Cart;
  /** null until the customer has chosen (the tipping step shows no choice as made). */
  tip: number | null;
  terms: boolean;
  /** Sent with "Pay": the API places one order per id. A changed cart or tip needs a new one. */
  cartId?: string;
  /** The order whose "Try again" this cart is: paid meanwhile, "Pay" leads to its receipt. */
  retryOf?: string;
}

const flows = new Map<string, Signal<Flow>>();
const flowKey = (licenceId: string) => `shop.flow.${licenceId}`;
const freshFlow = (): Flow => ({ cart: initialCart(env.boot.items), tip: null, terms: false });

/** The customer's flow at this vendor, restored from the session; saved on every change. */
export function flowOf(licenceId: string): Signal<Flow> {
  let flow = flows.get(licenceId);
  if (!flow) {
    const stored = readStored<Flow>('session', flowKey(licenceId));
    const created = signal(stored && typeof stored.cart === 'object' ? stored : freshFlow());
    effect(() => writeStored('session', flowKey(licenceId), created.value));
    flows.set(licenceId, created);
    flow = created;
  }
  return flow;
}

const lastVendorKey = 'shop.vendor';

/**
 * Whether this browser keeps anything of the customer's that the server cannot know (a cart at this
 * vendor, an e-mail address, or, on a page of no vendor, the vendor whose shop was open): then its
 * first screen differs from the server's.
 */
export const keepsCustomerState = (licenceId: string | undefined): boolean =>
  Boolean(email.value || readStored('session', licenceId ? flowKey(licenceId) : lastVendorKey));

/**
 * Whether the script runs the page. False while the server renders and while the browser hydrates
 * that markup: what only the script can do (a button enabled by a checkbox) waits until it runs.
 */
export const scripted = signal(false);

/** The server's refusal of the form last sent without the script. */
export const refusal = signal<Refusal | undefined>(undefined);

/** The refusal of this step's field, if that is what the server refused. */
export const refusalOf = (step: string, field: string): Refusal | undefined =>
  refusal.value?.step === step && refusal.value.field === field ? refusal.value : undefined;

/** The server renders each page as a first visit: no vendor checked, no cart, from that page's boot data. */
export function forgetVisits(): void {
  vendors.value = {};
  flows.clear();
  email.value = '';
  refusal.value = undefined;
}

/**
 * The cart, tip and address the shop's forms kept without the script: the page shows them, and a
 * script arriving later goes on from them (unless this browser kept a flow of its own).
 */
export function adoptVisit(licenceId: string, visit: Visit): void {
  const { email: address, refusal: refused, ...flow } = visit;
  if (!readStored('session', flowKey(licenceId))) flowOf(licenceId).value = flow;
  if (!email.value) email.value = address;
  refusal.value = refused;
}

/**
 * "Try again" of an unpaid order: its own lines and tip as the server has them. The same cart and tip
 * keep their cart id, so "Pay" reopens the payment still open rather than placing a second order.
 */
export function restoreFlow(licenceId: string, cart: Cart, tip: number, order: string): void {
  const flow = flowOf(licenceId);
  // Item ids are integer keys: both objects list them in ascending order.
  if (flow.value.tip !== tip || JSON.stringify(flow.value.cart) !== JSON.stringify(cart))
    flow.value = { cart, tip, terms: flow.value.terms, retryOf: order };
  else flow.value = { ...flow.value, retryOf: order };
}

/** After a paid order the next purchase starts with a fresh cart. */
export function finishFlow(licenceId: string): void {
  flowOf(licenceId).value = freshFlow();
}

/** The last vendor whose shop was open here: error pages lead back to it. */
export const lastVendor = () => readStored<string>('session', lastVendorKey) ?? env.licenceId;
export const rememberVendor = (licenceId: string) => writeStored('session', lastVendorKey, licenceId);

export const email = signal(readStored<string>('local', 'shop.email') ?? '');

export function rememberEmail(value: string): void {
  email.value = value.trim();
  writeStored('local', 'shop.email', email.value);
}

/** An order on its way to Stripe: the failure page's "Try again" needs its vendor. */
export interface PendingOrder {
  vendor: string;
  checkoutUrl: string;
}
export const pendingKey = (order: string) => `shop.order.${order}`;
