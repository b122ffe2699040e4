import { fileUrl } from '../files/queries.ts';
import type { AppContext } from '../http/routes.ts';
import type { Currency } from '../money/currency.ts';
import { getSettingsRow } from '../settings/queries.ts';

// The printable pages (payout and counter receipts, the cash report, vendor statements): HTML of our
// own, opened in a frame or a tab and printed.

/** Answers `html` as a printable page: no scripts, only our own images, never cached. */
export function sendPrintable(ctx: AppContext, html: string): void {
  ctx.type = 'html';
  ctx.set({
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; img-src ${ctx.config.publicUrl} data:; base-uri 'none'`,
  });
  ctx.body = html;
}

/**
 * The newspaper's name, address and logo: the top of a printed page, the seller on a receipt; and the
 * currency its books are kept in, which every amount on the page is written in.
 */
export async function letterhead(
  ctx: AppContext,
): Promise<{ newspaperName: string; newspaperAddress: string; logoUrl: string | null; currency: Currency }> {
  const settings = await getSettingsRow(ctx.db);
  const logo = fileUrl(settings.logo_file_id as string | null);
  return {
    newspaperName: settings.newspaper_name,
    newspaperAddress: settings.newspaper_address as string,
    logoUrl: logo && `${ctx.config.publicUrl}${logo}`,
    currency: settings.currency,
  };
}
