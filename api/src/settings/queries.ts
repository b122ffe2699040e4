import type { Knex } from 'knex';
import { independentReads } from '../db/reads.ts';
import type { Config } from '../foundations/config.ts';
import { fileUrl, storeFile, type Upload } from '../files/queries.ts';
import { imageKinds } from '../files/sniff.ts';
import { rejectFields } from '../foundations/errors.ts';
import { issuerUrl } from '../identity/issuer.ts';
import { findMainItem, setMainProduct } from '../items/queries.ts';
import { vatPercent } from '../ledger/vat.ts';
import type { GermanVariant, SettingsForm, settingsFileFields } from './schema.ts';
import { oneRow } from '../foundations/one-row.ts';
import { minorUnitExponent, type Currency } from '../money/currency.ts';
import { assertCurrencyChangeable } from './currency.ts';

/** The one settings row as stored (snake_case columns). */
export type SettingsRow = Record<string, unknown> & {
  newspaper_name: string;
  vendor_email_postfix: string;
  use_vendor_license_id_in_shop: boolean;
  webshop_is_closed: boolean;
  max_order_amount: number;
  style_revision: number;
  /** The installation's currency, ISO 4217 ("EUR", "CHF", "JPY"): every amount is in its minor unit. */
  currency: Currency;
};

export async function getSettingsRow(db: Knex | Knex.Transaction): Promise<SettingsRow> {
  const row = await db('settings').where({ id: 1 }).first<SettingsRow | undefined>();
  if (!row) throw new Error('The settings row is missing; migrations create it.');
  return row;
}

/** Columns of the settings row beyond those every domain reads. */
export interface StoredSettings extends SettingsRow {
  color: string;
  font_color: string;
  logo_file_id: string | null;
  favicon_file_id: string | null;
  qr_code_logo_file_id: string | null;
  agb_url: string;
  maintainance_mode_help_url: string;
  vendor_not_found_help_url: string;
  qr_code_url: string;
  qr_code_settings: Record<string, unknown>;
  qr_code_enable_logo: boolean;
  map_center_lat: number;
  map_center_long: number;
  use_tip_instead_of_donation: boolean;
  orga_covers_transaction_costs: boolean;
  embed_origins: string[];
  newspaper_address: string;
  company_street: string;
  company_postcode: string;
  company_town: string;
  company_country: string;
  tax_number: string;
  vat_id: string;
  vat_rate: number;
  german_variant: GermanVariant;
  meta_description: string;
}

const defaultLogo = 'img/logo.png';

/**
 * The settings anyone may read (shop, back office, widget embedders). Built field by field so a
 * column added later (a key, a secret) never becomes public by accident; the CSS has its own URL.
 */
export async function readPublicSettings(db: Knex | Knex.Transaction, config: Config) {
  const [row, mainItem] = await independentReads(
    db,
    () => getSettingsRow(db),
    () => findMainItem(db),
  );
  return publicSettings(row as StoredSettings, mainItem, config);
}

/** The public settings from the stored row and main item (the shop's copy keeps both). */
export function publicSettings(
  row: StoredSettings,
  mainItem: Awaited<ReturnType<typeof findMainItem>>,
  config: Config,
) {
  return {
    newspaperName: row.newspaper_name,
    newspaperAddress: row.newspaper_address,
    /** The paper's address, tax number and VAT id as the DSFinV-K export names them (printed on invoices too). */
    companyStreet: row.company_street,
    companyPostcode: row.company_postcode,
    companyTown: row.company_town,
    companyCountry: row.company_country,
    taxNumber: row.tax_number,
    vatId: row.vat_id,
    /** Percent (7, 5.5): the rate in every price unless an item has its own. */
    vatRate: vatPercent(row.vat_rate),
    color: row.color,
    fontColor: row.font_color,
    logo: fileUrl(row.logo_file_id) ?? defaultLogo,
    favicon: fileUrl(row.favicon_file_id),
    qrCodeLogoImgUrl: fileUrl(row.qr_code_logo_file_id),
    agbUrl: row.agb_url,
    maintainanceModeHelpUrl: row.maintainance_mode_help_url,
    vendorNotFoundHelpUrl: row.vendor_not_found_help_url,
    qrCodeUrl: row.qr_code_url,
    /** The shop's own address: the QR codes lead here unless staff set another QR code URL. */
    publicUrl: config.publicUrl,
    qrCodeSettings: row.qr_code_settings,
    qrCodeEnableLogo: row.qr_code_enable_logo,
    vendorEmailPostfix: row.vendor_email_postfix,
    webshopIsClosed: row.webshop_is_closed,
    mapCenterLat: row.map_center_lat,
    mapCenterLong: row.map_center_long,
    useVendorLicenseIdInShop: row.use_vendor_license_id_in_shop,
    useTipInsteadOfDonation: row.use_tip_instead_of_donation,
    orgaCoversTransactionCosts: row.orga_covers_transaction_costs,
    maxOrderAmount: row.max_order_amount,
    embedOrigins: row.embed_origins,
    /** How German mails write a date: de-DE ("8. Januar 2027") or de-AT ("8. Jänner 2027"). */
    germanVariant: row.german_variant,
    /** The currency of every amount (ISO 4217), and the digits of its minor unit as Stripe counts them (JPY: 0). */
    currency: row.currency,
    currencyDigits: minorUnitExponent(row.currency),
    /** The shop's meta description; empty: the text it writes from the newspaper's and vendor's name. */
    metaDescription: row.meta_description,
    styleRevision: row.style_revision,
    mainItem,
    mapTileUrl: config.mapTileUrl,
    /** TIME_ZONE: the back office, /me and the shop show every date and time in it, as paper and CSV do. */
    timeZone: config.timeZone,
    identityProvider: {
      url: issuerUrl(config),
      realm: config.oidc.realm ?? null,
      clientId: config.oidc.clientId,
      scopes: config.oidc.scopes,
    },
  };
}

/**
 * The settings as the protocol compares them: what staff can change, the CSS included; the identity
 * block, the tile URL and the time zone come from the configuration, not from a change.
 */
export async function readSettingsForProtocol(db: Knex | Knex.Transaction, config: Config) {
  const {
    identityProvider: _identityProvider,
    mapTileUrl: _mapTileUrl,
    publicUrl: _publicUrl,
    timeZone: _timeZone,
    ...settings
  } = await readPublicSettings(db, config);
  return { ...settings, styleCss: (await getSettingsRow(db)).style_css as string };
}

type PlainField = Exclude<keyof SettingsForm, 'mainItem' | (typeof settingsFileFields)[number]>;

// Every form field names its column here; the Record type makes a field without a column a type error.
const columns: Record<PlainField, string> = {
  newspaperName: 'newspaper_name',
  newspaperAddress: 'newspaper_address',
  companyStreet: 'company_street',
  companyPostcode: 'company_postcode',
  companyTown: 'company_town',
  companyCountry: 'company_country',
  taxNumber: 'tax_number',
  vatId: 'vat_id',
  vatRate: 'vat_rate',
  color: 'color',
  fontColor: 'font_color',
  agbUrl: 'agb_url',
  maintainanceModeHelpUrl: 'maintainance_mode_help_url',
  vendorNotFoundHelpUrl: 'vendor_not_found_help_url',
  qrCodeUrl: 'qr_code_url',
  qrCodeSettings: 'qr_code_settings',
  qrCodeEnableLogo: 'qr_code_enable_logo',
  vendorEmailPostfix: 'vendor_email_postfix',
  webshopIsClosed: 'webshop_is_closed',
  mapCenterLat: 'map_center_lat',
  mapCenterLong: 'map_center_long',
  useVendorLicenseIdInShop: 'use_vendor_license_id_in_shop',
  useTipInsteadOfDonation: 'use_tip_instead_of_donation',
  orgaCoversTransactionCosts: 'orga_covers_transaction_costs',
  maxOrderAmount: 'max_order_amount',
  embedOrigins: 'embed_origins',
  germanVariant: 'german_variant',
  currency: 'currency',
  metaDescription: 'meta_description',
};

// jsonb takes the text form: pg would send a JS array as a PostgreSQL array.
const jsonFields = new Set<PlainField>(['qrCodeSettings', 'embedOrigins']);

const fileColumns: Record<(typeof settingsFileFields)[number], string> = {
  logo: 'logo_file_id',
  favicon: 'favicon_file_id',
  qrCodeLogo: 'qr_code_logo_file_id',
};

/**
 * Saves the given fields, uploads and main item in one transaction: a bad upload or main item
 * leaves everything as it was. Answers the public settings as now stored.
 */
export async function updateSettings(
  db: Knex,
  config: Config,
  form: SettingsForm,
  files: Partial<Record<(typeof settingsFileFields)[number], Upload>>,
) {
  return db.transaction(async (trx) => {
    if (form.currency !== undefined) await assertCurrencyChangeable(trx, form.currency);
    const changes: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(columns) as [PlainField, string][]) {
      const value = form[field];
      if (value !== undefined) changes[column] = jsonFields.has(field) ? JSON.stringify(value) : value;
    }
    for (const [field, column] of Object.entries(fileColumns) as [keyof typeof fileColumns, string][]) {
      const upload = files[field];
      if (upload) changes[column] = await storeFile(trx, upload, imageKinds, field);
      else if (form[field] === 'remove') changes[column] = null;
    }
    if (form.mainItem !== undefined) {
      const problem = await setMainProduct(trx, form.mainItem);
      if (problem) rejectFields({ mainItem: problem });
    }
    await trx('settings')
      .where({ id: 1 })
      .update({ ...changes, updated_at: trx.fn.now() });
    return readPublicSettings(trx, config);
  });
}

/** Stores the custom CSS and moves its revision on, so caches keyed by `?rev=` fetch it anew. */
export async function saveStyleCss(db: Knex, css: string): Promise<number> {
  const rows = await db('settings')
    .where({ id: 1 })
    .update({ style_css: css, style_revision: db.raw('style_revision + 1'), updated_at: db.fn.now() })
    .returning<{ style_revision: number }[]>('style_revision');
  return oneRow(rows).style_revision;
}

export async function readStyleCss(db: Knex): Promise<{ css: string; revision: number }> {
  const row = await db('settings')
    .where({ id: 1 })
    .first<{ style_css: string; style_revision: number }>('style_css', 'style_revision');
  return { css: row.style_css, revision: row.style_revision };
}
