import { z } from 'zod';
import {
  boolean,
  cents,
  colour,
  colourMessage,
  colourPattern,
  decimal,
  fileAsText,
  formField,
  formJson,
  id,
  Invalid,
  optionalFormField,
  text,
  url,
  vatRate,
  type Converter,
} from '../foundations/form-fields.ts';
import { toOrigin } from '../foundations/config.ts';
import { tr } from '../language/messages.ts';
import { currencies, isCurrency, type Currency } from '../money/currency.ts';

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: 'Please choose one of: {values}.' });

/** Options handed to qr-code-styling; unknown keys are refused so a typo is not silently dropped. */
const qrCodeSettingsSchema = z
  .strictObject(
    {
      errorCorrectionLevel: choice(['L', 'M', 'Q', 'H']),
      dotColor: z.string().regex(colourPattern, colourMessage),
      backgroundColor: z.string().regex(colourPattern, colourMessage),
      dotType: choice(['square', 'dots', 'rounded', 'classy', 'classy-rounded', 'extra-rounded']),
      cornerSquareType: choice(['square', 'dot', 'extra-rounded']),
      cornerDotType: choice(['square', 'dot']),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'Unknown QR code setting: {keys}.'
          : 'Please send the QR code settings as a JSON object.',
    },
  )
  .partial();

/** Vendors' default e-mail is `<licence id><postfix>`, so a bare domain gets its "@". */
const emailPostfix: Converter<string> = (value) => {
  if (value === '') return '';
  if (!/^@?[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(value))
    return new Invalid('Please enter a domain like @example.org, or leave it empty.');
  return value.startsWith('@') ? value : `@${value}`;
};

/** The German of the newspaper's mails: Germany's ("Januar") or Austria's ("Jänner"). */
export const germanVariants = ['de-DE', 'de-AT'] as const;
export type GermanVariant = (typeof germanVariants)[number];

const germanVariant: Converter<GermanVariant> = (value) =>
  (germanVariants as readonly string[]).includes(value)
    ? (value as GermanVariant)
    : new Invalid(tr('Please choose one of: {values}.', { values: germanVariants.join(', ') }));

/** The installation's currency as its ISO 4217 code ("CHF"); see api/src/settings/currency.ts. */
const currencyCode: Converter<Currency> = (value) => {
  const code = value.trim().toUpperCase();
  return isCurrency(code)
    ? code
    : new Invalid(tr('Please choose one of the currencies: {values}.', { values: currencies.join(', ') }));
};

/** ISO 3166 alpha-3, as the DSFinV-K writes a country: DEU, AUT. */
const countryCode: Converter<string> = (value) => {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code)
    ? code
    : new Invalid('Please enter the country as its three-letter code (ISO 3166), for example DEU.');
};

/**
 * A VAT identification number: the country's two letters and up to 13 letters or digits, or a Swiss
 * one, the UID with the tax's name ("CHE-123.456.789 MWST", also TVA or IVA); empty: none.
 */
const vatId: Converter<string> = (value) => {
  const id = value.replace(/\s+/g, '').toUpperCase();
  const swiss = /^CHE-?(\d{3})\.?(\d{3})\.?(\d{3})(MWST|TVA|IVA)$/.exec(id);
  if (swiss) return `CHE-${swiss[1]}.${swiss[2]}.${swiss[3]} ${swiss[4]}`;
  return id === '' || /^[A-Z]{2}[0-9A-Z+*]{2,13}$/.test(id)
    ? id
    : new Invalid('Please enter the VAT identification number like DE123456789, or leave it empty.');
};

/**
 * The newspaper's websites that may embed the shop: origins separated by commas, spaces or lines, or
 * the JSON list the settings answer (a form sends back what it got).
 */
const embedOrigins: Converter<string[]> = (value) => {
  const entries = value.startsWith('[') ? jsonList(value) : value.split(/[\s,]+/).filter(Boolean);
  if (!entries) return new Invalid('Please send the websites as text, one per line, or as a JSON list of texts.');
  if (entries.length > 20) return new Invalid('Please list at most 20 websites.');
  const origins = new Set<string>();
  for (const entry of entries) {
    const origin = toOrigin(entry);
    if (!origin)
      return new Invalid(
        tr('"{entry}" is not a website address like https://www.example.org (without a path).', { entry }),
      );
    origins.add(origin);
  }
  return [...origins];
};

function jsonList(value: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** PUT /api/settings: any subset; an absent field keeps its stored value. */
export const settingsForm = z
  .object({
    newspaperName: formField(text({ max: 200 })),
    // The seller on the purchase receipt (Kaufbeleg): street, post code and town, on lines (a
    // browser's form sends its line breaks as CRLF).
    newspaperAddress: formField((value) => text({ max: 500 })(value.replace(/\r\n?/g, '\n'))),
    // The paper's address and tax identity as a tax audit's DSFinV-K export names them (Stamm_Abschluss).
    companyStreet: formField((value) => text({ max: 60 })(value.trim())),
    companyPostcode: formField((value) => text({ max: 10 })(value.trim())),
    companyTown: formField((value) => text({ max: 62 })(value.trim())),
    companyCountry: formField(countryCode),
    taxNumber: formField((value) => text({ max: 20 })(value.trim())),
    vatId: formField(vatId),
    // The VAT rate in the newspaper's prices, in percent (stored in hundredths); an item may have its own.
    vatRate: formField(vatRate, 'Please enter the VAT rate in percent, for example 7.'),
    color: formField(colour),
    fontColor: formField(colour),
    agbUrl: formField(url),
    maintainanceModeHelpUrl: formField(url),
    vendorNotFoundHelpUrl: formField(url),
    qrCodeUrl: formField(url),
    qrCodeSettings: formJson(qrCodeSettingsSchema),
    qrCodeEnableLogo: formField(boolean),
    vendorEmailPostfix: formField(emailPostfix),
    webshopIsClosed: formField(boolean),
    mapCenterLat: formField(decimal({ min: -90, max: 90 })),
    mapCenterLong: formField(decimal({ min: -180, max: 180 })),
    useVendorLicenseIdInShop: formField(boolean),
    useTipInsteadOfDonation: formField(boolean),
    orgaCoversTransactionCosts: formField(boolean),
    maxOrderAmount: formField(cents({ min: 1 })),
    embedOrigins: formField(embedOrigins, 'Please list the websites, or send an empty text for none.'),
    germanVariant: formField(germanVariant),
    // Fixed once anything is booked (api/src/settings/currency.ts).
    currency: formField(currencyCode),
    // Under the shop's title in search results and link previews; empty: the text the shop writes.
    metaDescription: formField((value) => text({ max: 300 })(value.replace(/\s+/g, ' '))),
    // An item id; empty means no main product.
    mainItem: optionalFormField(id('Please choose an item.')),
    logo: fileAsText,
    favicon: fileAsText,
    qrCodeLogo: fileAsText,
  })
  .partial();

export type SettingsForm = z.infer<typeof settingsForm>;

export const settingsFileFields = ['logo', 'favicon', 'qrCodeLogo'] as const;

/** Custom CSS may be inlined in a page; these would end the style element and inject markup. */
export const styleCss = z
  .string()
  .refine((css) => !/<\/style|<script/i.test(css), 'The style sheet must not contain "</style" or "<script".');
