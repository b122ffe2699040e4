// What the shop needs before its first screen: the newspaper's settings, the vendor of the scanned
// badge and the items for sale. The server inlines it into the page (no API round trip on a slow
// phone); the embedded widget and the dev server fetch it.

export interface MainItem {
  id: number;
  name: string;
  description: string;
  image: string | null;
  price: number;
}

/** GET /api/settings/ as the shop reads it. */
export interface ShopSettings {
  newspaperName: string;
  color: string;
  fontColor: string;
  logo: string;
  favicon: string | null;
  agbUrl: string;
  maintainanceModeHelpUrl: string;
  vendorNotFoundHelpUrl: string;
  webshopIsClosed: boolean;
  useVendorLicenseIdInShop: boolean;
  useTipInsteadOfDonation: boolean;
  maxOrderAmount: number;
  /** The currency of every amount (ISO 4217); amounts are integers in its minor unit. */
  currency: string;
  styleRevision: number;
  mainItem: MainItem | null;
  /** The newspaper's TIME_ZONE: the receipt's times are the vendor's and the office's, not the phone's. */
  timeZone: string;
}

/** GET /api/vendors/check/{id}/: the name already follows UseVendorLicenseIdInShop. */
export interface VendorCheck {
  licenseId: string;
  displayName: string;
  accountProofUrl: string | null;
}

/** One entry of GET /api/items/ (enabled items, higher `order` first). */
export interface ShopItem {
  id: number;
  name: string;
  description: string;
  price: number;
  image: string | null;
  measure: string;
  order: number;
  color: string | null;
  fontColor: string | null;
  maxOrderAmount: number | null;
  isMainProduct: boolean;
  isDigital: boolean;
}

/** Why the server did not take a form sent without the script: shown where the field is. */
export interface Refusal {
  step: string;
  field: string;
  /** The message, in the page's language. */
  text?: string;
  /** Instead of a message, the kind of problem, where the screen words it itself (an amount). */
  code?: string;
  /** What the customer typed, given back into the field. */
  value?: string;
}

/**
 * What a browser without the script keeps between the shop's forms, in a cookie the server reads:
 * the customer's cart, tip, terms and address at this vendor, and the refusal of the last form.
 */
export interface Visit {
  cart: Record<string, number>;
  tip: number | null;
  terms: boolean;
  cartId?: string;
  email: string;
  refusal?: Refusal;
}

export interface Boot {
  settings: ShopSettings;
  /** null when the id is unknown or deactivated, or the page names no vendor. */
  vendor: VendorCheck | null;
  items: ShopItem[];
  /** The page's visit as the forms left it, when the customer used them (shop pages only). */
  visit?: Visit;
}

/** The boot data the server put into the page, if it did. */
export function readBoot(doc: Document = document): Boot | null {
  const tag = doc.getElementById('shop-boot');
  if (!tag?.textContent) return null;
  try {
    return JSON.parse(tag.textContent) as Boot;
  } catch {
    return null;
  }
}

/** The same data from the API (GET /api/shop/boot/): the embedded widget, the dev server. */
export async function fetchBoot(apiBase: string, licenceId?: string): Promise<Boot> {
  const vendorQuery = licenceId ? `?vendor=${encodeURIComponent(licenceId)}` : '';
  const res = await fetch(`${apiBase}/api/shop/boot/${vendorQuery}`, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`The shop answered HTTP ${res.status}`);
  return (await res.json()) as Boot;
}
