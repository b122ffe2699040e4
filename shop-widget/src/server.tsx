import { renderToString } from 'preact-render-to-string';
import { App, Frame } from './App.tsx';
import type { Boot, Visit } from './boot.ts';
import { initialCart } from './cart.ts';
import { freshVisit, readVisit, stepInstead, submitForm, type FormAnswer } from './form.ts';
import { parseRoute, receiptPath, stepPath } from './route.ts';
import { adoptVisit, env, forgetVisits, knowVendor, lang, path } from './store.ts';
import type { Lang } from './money.ts';
import { FailureView } from './pages/Failure.tsx';
import { PdfView, type PdfLink } from './pages/Pdf.tsx';
import { charged, InvalidConfirmation, ReceiptPage, ReceiptView, type Receipt } from './pages/Receipt.tsx';
import css from './style.css?inline';

// The shop's first screen rendered on the server by the same components that hydrate it in the
// browser, so a slow phone shows the screen (and can go on) before the script has arrived.

/** The widget's styles, inlined into the page so the first screen needs no second request. */
export { css };

/** Pages that show what they show from the boot data alone; the others wait for an API answer. */
const fromBootAlone = new Set(['vendor', 'go-to-vendor', 'not-found', 'error', 'invalid-link', 'maintenance']);

/**
 * The markup of the shop's page at `url` (path and query), or undefined when its first screen needs
 * the browser (a receipt, a PDF). Rendering is synchronous, so the module's one state serves one
 * request at a time; each render starts from the boot data alone, as a fresh visit in the browser does.
 */
export function renderFirstScreen(boot: Boot, url: string, language: Lang): string | undefined {
  const route = parseRoute(url);
  if (!fromBootAlone.has(route.page)) return undefined;
  visitAt(boot, url, language);
  if (route.page === 'vendor') {
    knowVendor(route.id, boot.vendor);
    if (boot.visit) adoptVisit(route.id, boot.visit);
  }
  return renderToString(<App />);
}

/** The module's one state as a fresh visit of `url` in the browser. */
function visitAt(boot: Boot, url: string, language: Lang): void {
  forgetVisits();
  Object.assign(env, { boot, apiBase: '', mode: 'page', licenceId: undefined, returnUrl: undefined });
  lang.value = language;
  path.value = url;
}

/**
 * A form of a vendor's shop sent without the script (`fields` its body), on the visit the browser's
 * cookie held (anything not a visit starts one); undefined where `url` is no step of a vendor's shop.
 */
export function answerForm(
  boot: Boot,
  url: string,
  language: Lang,
  kept: unknown,
  fields: URLSearchParams,
): FormAnswer | undefined {
  const route = parseRoute(url);
  if (route.page !== 'vendor' || !boot.vendor) return undefined;
  visitAt(boot, url, language);
  return submitForm(route, readVisit(kept) ?? freshVisit(initialCart(boot.items)), fields);
}

/** Whether `url` names nothing the shop has (its status is 404, whatever the page shows). */
export const notFound = (url: string): boolean => parseRoute(url).page === 'not-found';

/** Where a browser without the script goes instead of `url` on the visit its cookie kept, if elsewhere. */
export function redirectOf(boot: Boot, url: string, language: Lang, visit: Visit): string | undefined {
  const route = parseRoute(url);
  if (route.page !== 'vendor' || !boot.vendor) return undefined;
  visitAt(boot, url, language);
  return stepInstead(route, visit);
}

/** The visit a cookie held, if it is one. */
export const keptVisit = (kept: unknown): Visit | undefined => readVisit(kept);

/**
 * The receipt as the server draws it for a browser without the script (the script draws its own):
 * the header, and the order as it stands.
 */
export function renderReceipt(boot: Boot, receipt: Receipt, language: Lang): string {
  visitAt(boot, receiptPath(receipt.order), language);
  return renderToString(
    <Frame>
      <ReceiptView receipt={receipt} />
    </Frame>,
  );
}

/**
 * /failure as the server draws it for a browser without the script: a charged order's receipt (as
 * the script goes on to it), else the failure with a link back to the vendor's confirmation (or to
 * the start page, which says how to find a vendor, for an order it does not know).
 */
export function renderFailure(boot: Boot, receipt: Receipt | undefined, language: Lang): string {
  if (receipt && charged(receipt.status)) return renderReceipt(boot, receipt, language);
  visitAt(boot, '/failure', language);
  const again = receipt ? stepPath(receipt.licenseId, 'confirmation') : '/';
  return renderToString(
    <Frame>
      <FailureView receipt={receipt ?? null} tryAgain={again} />
    </Frame>,
  );
}

/**
 * A page after the card page that the script draws from an API answer, as the server draws it for a
 * browser without the script when no order was found for it: the PDF from the e-mail's link (`pdf`
 * the link when it is valid), a receipt or success address without an order, or with one the shop
 * does not know. Undefined for any other page.
 */
export function renderWithoutOrder(boot: Boot, url: string, language: Lang, pdf?: PdfLink): string | undefined {
  const route = parseRoute(url);
  let screen;
  if (route.page === 'pdf') screen = <PdfView id={route.id} link={pdf} />;
  else if (route.page === 'receipt') screen = route.order ? <InvalidConfirmation /> : <ReceiptPage order="" />;
  else if (route.page === 'success') screen = <InvalidConfirmation />;
  else return undefined;
  visitAt(boot, url, language);
  return renderToString(<Frame>{screen}</Frame>);
}
