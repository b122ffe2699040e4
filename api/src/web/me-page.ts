import type { AnyContext } from './static.ts';

// The vendor's page (/me) as the server answers it: the built me.html with a description of the
// newspaper's own, in the reader's language. The page's texts speak to the vendor as "du", and so
// does its description.

/**
 * What a search engine or a shared link's preview says under the page's title (Lighthouse's SEO
 * audit "Document has a meta description").
 */
const descriptions = {
  de: (newspaper: string) =>
    `Dein Guthaben, deine Buchungen und dein QR-Code als Verkäuferin oder Verkäufer bei ${newspaper}.`,
  en: (newspaper: string) => `Your credit, your transactions and your QR code as a vendor of ${newspaper}.`,
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * me.html with the description, and the language it is written in, in German unless the browser asks
 * for English. `newspaperName` reads the name from the shop's settings (app.ts hands it in).
 */
export async function vendorPage(
  newspaperName: () => Promise<string | null | undefined>,
  html: string,
  ctx: AnyContext,
): Promise<string> {
  const lang = ctx.acceptsLanguages('de', 'en') === 'en' ? 'en' : 'de';
  ctx.vary('Accept-Language');
  const description = descriptions[lang](
    (await newspaperName()) || (lang === 'de' ? 'der Straßenzeitung' : 'the street paper'),
  );
  // Replacer functions: in a replacement string, a name holding `$'` or `$&` would paste parts of the page.
  return html
    .replace(/<html([^>]*?)\slang="[^"]*"/, (_, attributes: string) => `<html${attributes} lang="${lang}"`)
    .replace('</head>', () => `  <meta name="description" content="${escapeHtml(description)}">\n  </head>`);
}
