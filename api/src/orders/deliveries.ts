import type { Knex } from 'knex';
import type { Config } from '../foundations/config.ts';
import { queueMail } from '../mail/outbox.ts';
import { createDownloadLink, downloadLinksFor, linkPath, type DownloadLink } from '../pdf/links.ts';
import { itemNameSql } from '../language/item-names.ts';
import { getSettingsRow, type StoredSettings } from '../settings/queries.ts';
import { formatAmount } from '../money/currency.ts';
import type { GermanVariant } from '../settings/schema.ts';

// What a paid order delivers besides the copies the vendor hands over: for a digital edition, a
// download link to its PDF and an e-mail with the links; for an order of printed copies only whose
// customer gave an address, the receipt by e-mail. Called inside the settle transaction when the
// order becomes paid; unique keys make a second call add nothing.

type Locale = 'de' | 'en';

const wording = {
  de: {
    subject: (paper: string) => `Deine digitale Ausgabe${paper ? ` von ${paper}` : ''}`,
    intro: 'Danke für deinen Kauf! Hier kannst du herunterladen, was du gekauft hast:',
    valid: (until: string) => `Die Links sind bis ${until} gültig. Bei Fragen wende dich bitte an das Büro.`,
    closing: 'Viel Spaß beim Lesen!',
  },
  en: {
    subject: (paper: string) => `Your digital edition${paper ? ` of ${paper}` : ''}`,
    intro: 'Thank you for your purchase! Here you can download what you bought:',
    valid: (until: string) =>
      `The links are valid until ${until}. If you have any questions, please contact the office.`,
    closing: 'Have fun reading!',
  },
} satisfies Record<Locale, unknown>;

function pdfMail(
  locale: Locale,
  { newspaperName, germanVariant }: { newspaperName: string; germanVariant: GermanVariant },
  links: [DownloadLink, ...DownloadLink[]],
  { publicUrl, timeZone }: Pick<Config, 'publicUrl' | 'timeZone'>,
) {
  const words = wording[locale];
  // The newspaper's day, not the server machine's: near midnight the two differ. German as the
  // newspaper writes it: "Januar" in Germany, "Jänner" in Austria.
  const until = new Intl.DateTimeFormat(locale === 'de' ? germanVariant : 'en-GB', {
    dateStyle: 'long',
    timeZone,
  }).format(new Date(links[0].expiresAt));
  const lines = links.map(
    (link) => `${(locale === 'en' && link.itemNameEn) || link.itemName}: ${publicUrl}${linkPath(link.id)}`,
  );
  return {
    subject: words.subject(newspaperName),
    text: [
      words.intro,
      '',
      ...lines,
      '',
      words.valid(until),
      '',
      words.closing,
      ...(newspaperName ? [newspaperName] : []),
    ].join('\n'),
  };
}

const receiptWording = {
  de: {
    subject: (paper: string) => `Dein Beleg${paper ? ` von ${paper}` : ''}`,
    intro: (vendor: string) => `Danke für deinen Kauf bei ${vendor}!`,
    number: (number: number) => `Bestellnummer ${number}`,
    bought: (date: string, time: string) => `Gekauft am ${date} um ${time}`,
    tip: (useTip: boolean) => (useTip ? 'Trinkgeld' : 'Spende'),
    total: 'Summe',
    link: 'Dein Beleg im Shop:',
  },
  en: {
    subject: (paper: string) => `Your receipt${paper ? ` from ${paper}` : ''}`,
    intro: (vendor: string) => `Thank you for buying from ${vendor}!`,
    number: (number: number) => `Order number ${number}`,
    bought: (date: string, time: string) => `Bought on ${date} at ${time}`,
    tip: (useTip: boolean) => (useTip ? 'Tip' : 'Donation'),
    total: 'Total',
    link: 'Your receipt in the shop:',
  },
} satisfies Record<Locale, unknown>;

/**
 * A receipt mail's text naming the vendor as `vendor`: the mail names the vendor in its first line
 * only, so an anonymised vendor's pseudonym replaces the name there and nothing else changes.
 */
export const receiptNaming = (text: string, locale: Locale, vendor: string) =>
  [receiptWording[locale].intro(vendor), ...text.split('\n').slice(1)].join('\n');

interface ReceiptOrderRow {
  id: number;
  token: string;
  email: string | null;
  locale: Locale;
  tip: number;
  amount_total: number;
  /** The order's currency as Stripe writes it ("eur", "jpy"). */
  currency: string;
  vendor_first_name: string;
  vendor_license_id: string;
}

function receiptMail(
  order: ReceiptOrderRow & { email: string; vendor: string },
  lines: { name: string; quantity: number; amount: number }[],
  settings: StoredSettings,
  { publicUrl, timeZone }: Pick<Config, 'publicUrl' | 'timeZone'>,
  paidAt: Date,
) {
  const words = receiptWording[order.locale];
  // As the shop's receipt page writes them: "3,00 €", "€3.00", "CHF 3.50", "¥600".
  const amount = (cents: number) => formatAmount(cents, order.currency.toUpperCase(), order.locale);
  // The newspaper's day and clock, in its German ("Jänner" in Austria), as the PDF mail's dates.
  const inZone = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(order.locale === 'de' ? settings.german_variant : 'en-GB', { ...options, timeZone }).format(
      paidAt,
    );
  const newspaperName = settings.newspaper_name;
  return {
    subject: words.subject(newspaperName),
    text: [
      words.intro(order.vendor),
      '',
      words.number(order.id),
      words.bought(inZone({ dateStyle: 'long' }), inZone({ hour: '2-digit', minute: '2-digit' })),
      '',
      ...lines.map((line) => `${line.quantity} × ${line.name}: ${amount(line.amount)}`),
      ...(order.tip > 0 ? [`${words.tip(Boolean(settings.use_tip_instead_of_donation))}: ${amount(order.tip)}`] : []),
      `${words.total}: ${amount(order.amount_total)}`,
      '',
      words.link,
      `${publicUrl}/paymentconfirmation?order=${order.token}`,
      ...(newspaperName ? ['', newspaperName] : []),
    ].join('\n'),
  };
}

/**
 * Queues the receipt by e-mail for an order the customer gave an address for (an order without a
 * digital edition: one with an edition gets the PDF mail instead), in the customer's language. The
 * address serves this mail only. Answers whether a mail was queued.
 */
export async function mailReceipt(
  trx: Knex.Transaction,
  orderId: number,
  config: Pick<Config, 'publicUrl' | 'timeZone'>,
  paidAt = new Date(),
): Promise<boolean> {
  const order: ReceiptOrderRow | undefined = await trx('orders as o')
    .join('vendors as v', 'v.id', 'o.vendor_id')
    .where('o.id', orderId)
    .first(
      'o.id',
      'o.token',
      'o.email',
      'o.locale',
      'o.tip',
      'o.amount_total',
      'o.currency',
      'v.first_name as vendor_first_name',
      'v.license_id as vendor_license_id',
    );
  if (!order?.email) return false;
  const settings = (await getSettingsRow(trx)) as StoredSettings;
  // The vendor as the receipt page names them.
  const vendor = settings.use_vendor_license_id_in_shop ? order.vendor_license_id : order.vendor_first_name;
  const lines: { name: string; quantity: number; amount: number }[] = await trx('order_entries as e')
    .join('items as i', 'i.id', 'e.item_id')
    .where({ 'e.order_id': orderId, 'e.kind': 'sale' })
    .orderBy('e.id')
    .select(trx.raw(`${itemNameSql('i', order.locale)} as name`), 'e.quantity', 'e.amount');
  const mail = receiptMail({ ...order, email: order.email, vendor }, lines, settings, config, paidAt);
  await queueMail(trx, { kind: 'receipt', orderId, recipient: order.email, ...mail });
  return true;
}

/**
 * Creates the order's download links (one per digital item whose licence item is a PDF item, valid
 * `downloadLinkDays`) and, when the order has an e-mail address, queues one mail with them in the
 * customer's language. The outbox sends it after commit. Answers whether a mail was queued, so the
 * caller wakes the outbox only when it has something to send.
 */
export async function deliverOrder(
  trx: Knex.Transaction,
  orderId: number,
  config: Pick<Config, 'publicUrl' | 'downloadLinkDays' | 'timeZone'>,
): Promise<boolean> {
  const editions: { item_id: number; pdf_file_id: string }[] = await trx('order_entries as e')
    .join('items as i', 'i.id', 'e.item_id')
    .join('items as licence', 'licence.id', 'i.license_item_id')
    .where({ 'e.order_id': orderId, 'e.kind': 'sale', 'licence.is_pdf_item': true })
    .whereNotNull('licence.pdf_file_id')
    .select('i.id as item_id', 'licence.pdf_file_id');
  if (editions.length === 0) return false;
  for (const edition of editions) {
    await createDownloadLink(trx, {
      orderId,
      itemId: edition.item_id,
      fileId: edition.pdf_file_id,
      validDays: config.downloadLinkDays,
    });
  }
  const order: { email: string | null; locale: Locale } = await trx('orders')
    .where({ id: orderId })
    .first('email', 'locale');
  if (!order.email) return false;
  const settings = (await getSettingsRow(trx)) as StoredSettings;
  const [first, ...more] = await downloadLinksFor(trx, orderId);
  if (!first) return false; // not reached: the links were made just above
  const mail = pdfMail(
    order.locale,
    { newspaperName: settings.newspaper_name, germanVariant: settings.german_variant },
    [first, ...more],
    config,
  );
  await queueMail(trx, { kind: 'pdf-links', orderId, recipient: order.email, ...mail });
  return true;
}
