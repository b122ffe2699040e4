/** The identity block of the public settings: which OpenID provider logs staff and vendors in. */
export interface IdentityProvider {
  url: string;
  realm: string | null;
  clientId: string;
  scopes: string;
}

/** GET /api/settings: what anyone may read (money in the currency's minor unit, files as URLs). */
export interface PublicSettings {
  newspaperName: string;
  /** The seller's address on the purchase receipt. */
  newspaperAddress: string;
  /** The paper's address and tax identity as the DSFinV-K export names them. */
  companyStreet: string;
  companyPostcode: string;
  companyTown: string;
  /** ISO 3166 alpha-3: DEU, AUT. */
  companyCountry: string;
  taxNumber: string;
  vatId: string;
  /** The VAT rate in the prices, in percent (7, 5.5); an item may have its own. */
  vatRate: number;
  color: string;
  fontColor: string;
  logo: string;
  favicon: string | null;
  qrCodeLogoImgUrl: string | null;
  agbUrl: string;
  maintainanceModeHelpUrl: string;
  vendorNotFoundHelpUrl: string;
  qrCodeUrl: string;
  /** The shop's PUBLIC_URL: the QR codes' address when qrCodeUrl is empty. */
  publicUrl: string;
  qrCodeSettings: Record<string, unknown>;
  qrCodeEnableLogo: boolean;
  vendorEmailPostfix: string;
  webshopIsClosed: boolean;
  mapCenterLat: number;
  mapCenterLong: number;
  useVendorLicenseIdInShop: boolean;
  useTipInsteadOfDonation: boolean;
  orgaCoversTransactionCosts: boolean;
  maxOrderAmount: number;
  /** The installation's currency (ISO 4217: EUR, CHF, GBP, JPY): every amount is in its minor unit. */
  currency: string;
  /** How German mails write a date: "8. Januar 2027" (de-DE) or "8. Jänner 2027" (de-AT). */
  germanVariant: 'de-DE' | 'de-AT';
  /** The shop's meta description; empty: the text the shop writes from the newspaper's and vendor's name. */
  metaDescription: string;
  styleRevision: number;
  mainItem: { id: number; name: string } | null;
  /** The tile server of the back office's maps, with {z}/{x}/{y}. */
  mapTileUrl: string;
  /** The newspaper's TIME_ZONE (IANA name): every date and time shown is in it. */
  timeZone: string;
  identityProvider: IdentityProvider;
}

export async function loadPublicSettings(): Promise<PublicSettings> {
  const response = await fetch('/api/settings', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`The settings could not be loaded (${response.status}).`);
  return (await response.json()) as PublicSettings;
}

/** Relative file URLs of the API ("/files/…", "img/logo.png") as absolute paths of this host. */
export const assetUrl = (url: string): string =>
  /^(https?:)?\/\//.test(url) || url.startsWith('/') || url.startsWith('data:') ? url : `/${url}`;

/** "<newspaper> | <page>"; the newspaper name alone without a page, a default without a name. */
export function setDocumentTitle(newspaperName: string | undefined, page: string | undefined, fallback: string): void {
  const name = newspaperName?.trim() || fallback;
  document.title = page ? `${name} | ${page}` : name;
}

/** The newspaper's favicon (its logo when it has none), set once the settings are known. */
export function setFavicon(settings: Pick<PublicSettings, 'favicon' | 'logo'>): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.href = assetUrl(settings.favicon ?? settings.logo);
}
