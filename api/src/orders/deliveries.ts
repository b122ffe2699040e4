import type { Knex } from 'knex';
import type { Config } from '../config.ts';
import { queueMail } from '../mail/outbox.ts';
import { createDownloadLink, downloadLinksFor, linkPath, type DownloadLink } from '../pdf/links.ts';
import { getSettingsRow, type StoredSettings } from '../settings/queries.ts';
import type { GermanVariant } from '../settings/schema.ts';

// What a paid order delivers besides the copies the vendor hands over: for a digital edition, a
// download link to its PDF and an e-mail with the links. Called inside the settle transaction when
// the order becomes paid; unique keys make a second call add nothing.

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
  const lines = links.map((link) => `${link.itemName}: ${publicUrl}${linkPath(link.id)}`);
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
