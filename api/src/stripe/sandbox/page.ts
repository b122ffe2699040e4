import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { pathParam } from '../../http/params.ts';
import { currentSession } from './api.ts';
import { StripeApiError } from './errors.ts';
import { parseParams, readBody, type Params } from './form.ts';
import { cardOfNumber, digits, testCards, type CardOutcome } from './cards.ts';
import { chargeTransaction, payment, present, type CheckoutSession } from './objects.ts';
import { visitAccountLink } from './connect.ts';
import { bookFeeLater } from './fees.ts';
import { scheduleBankAction } from './scheduled.ts';
import { accountOfObject, insertObject, onAccount, saveObject } from './store.ts';
import { deliverDue, queueEvents, stripeEvent, type StripeEvent } from './webhooks.ts';

/** The page's languages: the customer's `locale` on the session picks one, a switch on the page the other. */
type Lang = 'de' | 'en';

/** Messages as Stripe's own checkout words them in each language. */
const text = {
  de: {
    testMode: 'TESTMODUS',
    title: 'Stripe-Sandbox (Testmodus)',
    back: '← Zurück',
    heading: 'Bezahlen (lokale Stripe-Sandbox)',
    total: 'Gesamt',
    card: 'Kartennummer',
    expiry: 'Ablaufdatum',
    cvc: 'Prüfziffer',
    pay: (total: string) => `${total} bezahlen`,
    testCards: 'Testkarten',
    succeeds: 'wird angenommen',
    declined: 'wird abgelehnt',
    insufficient: 'ist nicht gedeckt',
    feeLater: 'wird angenommen, die Gebühr folgt auf Anfrage (nur in der Sandbox)',
    disputed: 'wird angenommen, dann angefochten (Chargeback)',
    disputedTwice: 'wird angenommen, dann mehrfach angefochten',
    inquiry: 'wird angenommen, dann hinterfragt die Bank sie (Anfrage, noch kein Chargeback)',
    fraudWarning: 'wird angenommen, dann meldet die Bank Betrugsverdacht (Frühwarnung)',
    refundPending: 'wird angenommen; Erstattungen sind erst ausstehend, dann erfolgreich',
    refundFails: 'wird angenommen; Erstattungen gelingen erst, dann scheitern sie',
    declinedMessage: 'Ihre Karte wurde abgelehnt.',
    insufficientMessage: 'Ihre Karte ist nicht ausreichend gedeckt.',
    incorrect: 'Ihre Kartennummer ist ungültig.',
    paidTitle: 'Bezahlt',
    paid: 'Diese Zahlung ist abgeschlossen.',
    continue: 'Weiter',
    expiredTitle: 'Abgelaufen',
    expired: 'Diese Bezahlseite ist abgelaufen.',
    nothingCharged: 'Es wurde nichts abgebucht. Bitte beginnen Sie den Kauf noch einmal.',
    backToShop: 'Zurück zum Shop',
    missingTitle: 'Nicht gefunden',
    missing: 'Diese Bezahlseite gibt es nicht.',
    linkMissing: 'Diesen Link zur Einrichtung eines Stripe-Kontos gibt es nicht.',
    language: 'Sprache',
  },
  en: {
    testMode: 'TEST MODE',
    title: 'Stripe sandbox (test mode)',
    back: '← Back',
    heading: 'Pay (local Stripe sandbox)',
    total: 'Total',
    card: 'Card number',
    expiry: 'Expiry',
    cvc: 'CVC',
    pay: (total: string) => `Pay ${total}`,
    testCards: 'Test cards',
    succeeds: 'succeeds',
    declined: 'is declined',
    insufficient: 'has insufficient funds',
    feeLater: 'succeeds, its fee follows on request (sandbox only)',
    disputed: 'succeeds, then is disputed',
    disputedTwice: 'succeeds, then is disputed more than once',
    inquiry: 'succeeds, then the bank asks about it (an inquiry, no chargeback yet)',
    fraudWarning: 'succeeds, then the bank warns of fraud (early fraud warning)',
    refundPending: 'succeeds; its refunds are pending first, then succeed',
    refundFails: 'succeeds; its refunds succeed first, then fail',
    declinedMessage: 'Your card was declined.',
    insufficientMessage: 'Your card has insufficient funds.',
    incorrect: 'Your card number is incorrect.',
    paidTitle: 'Paid',
    paid: 'This payment is complete.',
    continue: 'Continue',
    expiredTitle: 'Expired',
    expired: 'This checkout session has expired.',
    nothingCharged: 'Nothing was charged. Please start the purchase again.',
    backToShop: 'Back to the shop',
    missingTitle: 'Not found',
    missing: 'This checkout page does not exist.',
    linkMissing: 'This link to set up a Stripe account does not exist.',
    language: 'Language',
  },
} satisfies Record<Lang, Record<string, string | ((total: string) => string)>>;
type Words = (typeof text)[Lang];

/** What the page says of each card's outcome, and the message of a card it refuses. */
const outcomeWords: Record<CardOutcome, { outcome: (w: Words) => string; decline?: (w: Words) => string }> = {
  succeeds: { outcome: (w) => w.succeeds },
  declined: { outcome: (w) => w.declined, decline: (w) => w.declinedMessage },
  insufficient_funds: { outcome: (w) => w.insufficient, decline: (w) => w.insufficientMessage },
  fee_held: { outcome: (w) => w.feeLater },
  dispute: { outcome: (w) => w.disputed },
  multiple_disputes: { outcome: (w) => w.disputedTwice },
  inquiry: { outcome: (w) => w.inquiry },
  early_fraud_warning: { outcome: (w) => w.fraudWarning },
  refund_pending: { outcome: (w) => w.refundPending },
  refund_fails: { outcome: (w) => w.refundFails },
};

/**
 * The page's language: the switch's choice (`?lang=`), else the session's `locale`, else (for `auto`
 * or none, as Stripe does) the browser's; German when nothing says otherwise.
 */
function pageLang(ctx: Context, session?: CheckoutSession): Lang {
  const chosen = ctx.query.lang;
  if (chosen === 'de' || chosen === 'en') return chosen;
  const locale = session?.locale ?? 'auto';
  if (locale.startsWith('de')) return 'de';
  if (locale !== 'auto') return 'en';
  return ctx.acceptsLanguages('de', 'en') === 'en' ? 'en' : 'de';
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function money(lang: Lang, session: CheckoutSession, cents: number): string {
  const locale = lang === 'de' ? 'de-DE' : 'en-IE';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: session.currency.toUpperCase() }).format(
    cents / 100,
  );
}

const styles = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fa}
.lang{text-align:right;font-size:.9rem}.lang a{color:#5851db}
.test-mode{background:#c2410c;color:#fff;text-align:center;font-weight:700;letter-spacing:.08em;padding:.4rem;font-size:.85rem}
main{max-width:28rem;margin:0 auto;padding:1rem}
.back{color:#5851db;text-decoration:none;display:inline-block;padding:.4rem 0}
h1{font-size:1.1rem;font-weight:600;color:#4f566b;margin:.6rem 0 0}
.amount{font-size:2rem;font-weight:700;margin:0 0 1rem}
.lines{list-style:none;padding:0;margin:0 0 1rem;border-top:1px solid #e3e8ee}
.lines li,.total{display:flex;justify-content:space-between;gap:1rem;padding:.55rem 0;border-bottom:1px solid #e3e8ee}
.total{font-weight:700;border:0}
form{background:#fff;border-radius:.6rem;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
label{display:block;font-size:.9rem;color:#4f566b;margin:.6rem 0 .25rem}
input{width:100%;font:inherit;padding:.65rem .7rem;border:1px solid #cfd7df;border-radius:.4rem}
.row{display:flex;gap:.75rem}.row>div{flex:1}
.error{color:#df1b41;font-weight:600;margin:.75rem 0 0}
button,.button{display:block;width:100%;margin-top:1rem;padding:.8rem;font:inherit;font-weight:700;color:#fff;background:#5851db;border:0;border-radius:.4rem;text-align:center;text-decoration:none}
.email{margin:0 0 .25rem;color:#4f566b;overflow-wrap:anywhere}
.cards{font-size:.85rem;color:#4f566b;margin-top:1.25rem}
.cards ul{padding-left:1.1rem;margin:.3rem 0}
code{font-size:.85rem}
`;

/** The page around `body`, with the language switch when the page belongs to a session. */
function layout(lang: Lang, title: string, body: string, path?: string): string {
  const w = text[lang];
  const other: Lang = lang === 'de' ? 'en' : 'de';
  const switcher = path
    ? `<nav class="lang" aria-label="${w.language}"><a id="sandbox-lang" lang="${other}" hreflang="${other}" href="${escapeHtml(path)}?lang=${other}">${other === 'de' ? 'Deutsch' : 'English'}</a></nav>`
    : '';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${w.title}</title>
<style>${styles}</style>
</head>
<body>
<div class="test-mode" id="sandbox-test-mode">${w.testMode}</div>
<main>
${switcher}
${body}
</main>
</body>
</html>`;
}

const payPath = (session: CheckoutSession) => `/stripe-sandbox/pay/${session.id}`;

function checkoutPage(lang: Lang, session: CheckoutSession, form: { card?: string; error?: string } = {}): string {
  const w = text[lang];
  const year = (new Date().getUTCFullYear() + 3) % 100;
  const total = money(lang, session, session.amount_total);
  const back = session.cancel_url
    ? `<a class="back" id="sandbox-back" href="${escapeHtml(session.cancel_url)}">${w.back}</a>`
    : '';
  const lines = session.line_items.data
    .map(
      (item) =>
        `<li><span>${escapeHtml(item.description)} × ${item.quantity}</span><span>${money(lang, session, item.amount_total)}</span></li>`,
    )
    .join('');
  return layout(
    lang,
    w.pay(total),
    `${back}
<h1>${w.heading}</h1>
<p class="amount" id="sandbox-amount">${total}</p>
<ul class="lines" id="sandbox-lines">${lines}</ul>
<p class="total"><span>${w.total}</span><span id="sandbox-total">${total}</span></p>
<form method="post" action="${escapeHtml(payPath(session))}?lang=${lang}" id="sandbox-form">
${session.customer_email ? `<p class="email" id="sandbox-email">${escapeHtml(session.customer_email)}</p>` : ''}
<label for="card">${w.card}</label>
<input id="card" name="card" autocomplete="cc-number" inputmode="numeric" placeholder="4242 4242 4242 4242" value="${escapeHtml(form.card ?? '')}" required>
<div class="row">
<div><label for="exp">${w.expiry}</label><input id="exp" name="exp" autocomplete="cc-exp" inputmode="numeric" value="12 / ${String(year).padStart(2, '0')}"></div>
<div><label for="cvc">${w.cvc}</label><input id="cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" value="123"></div>
</div>
${form.error ? `<p class="error" id="sandbox-error" role="alert">${escapeHtml(form.error)}</p>` : ''}
<button type="submit" id="sandbox-pay">${w.pay(total)}</button>
</form>
<section class="cards">
<strong>${w.testCards}</strong>
<ul>
${testCards.map((card) => `<li><code>${card.number}</code> ${outcomeWords[card.outcome].outcome(w)}</li>`).join('\n')}
</ul>
</section>`,
    payPath(session),
  );
}

function statusPage(lang: Lang, session: CheckoutSession): string {
  const w = text[lang];
  if (session.status === 'complete') {
    return layout(
      lang,
      w.paidTitle,
      `<h1>${w.paid}</h1>
<a class="button" id="sandbox-continue" href="${escapeHtml(successUrl(session))}">${w.continue}</a>`,
      payPath(session),
    );
  }
  return layout(
    lang,
    w.expiredTitle,
    `<h1 id="sandbox-expired">${w.expired}</h1>
<p>${w.nothingCharged}</p>
${session.cancel_url ? `<a class="button" id="sandbox-back" href="${escapeHtml(session.cancel_url)}">${w.backToShop}</a>` : ''}`,
    payPath(session),
  );
}

const successUrl = (session: CheckoutSession) => session.success_url!.replaceAll('{CHECKOUT_SESSION_ID}', session.id);

function sendPage(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'html';
  ctx.set({
    'Cache-Control': 'no-store',
    // The address holds the session id: never hand it to the next site.
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  });
  ctx.body = html;
}

const notFoundPage = (lang: Lang, what: 'missing' | 'linkMissing' = 'missing') =>
  layout(lang, text[lang].missingTitle, `<h1 id="sandbox-missing">${text[lang][what]}</h1>`);

/**
 * Completes an open session with a successful card payment, inside the caller's transaction. The fee
 * is booked with it only when SANDBOX_FEE_DELAY_MS is 0; else `feeLater` gets the charge to book it
 * after. What the card's bank does later (disputes, an inquiry, a fraud warning) is scheduled here.
 */
async function complete(
  trx: Knex.Transaction,
  config: Config,
  session: CheckoutSession,
  last4: string,
  outcome: CardOutcome,
  feeLater: (chargeId: string) => void,
): Promise<StripeEvent[]> {
  const { intent, charge } = payment(session, last4);
  if (outcome !== 'fee_held') {
    if (config.sandboxFeeDelayMs === 0) {
      const txn = chargeTransaction(charge);
      await insertObject(trx, txn);
      charge.balance_transaction = txn.id;
    } else feeLater(charge.id);
  }
  await insertObject(trx, charge);
  await insertObject(trx, intent);
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    payment_intent: intent.id,
    url: null,
    customer_details: {
      email: session.customer_email,
      name: null,
      phone: null,
      address: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
  });
  await saveObject(trx, session);
  const events = [stripeEvent('checkout.session.completed', present(session))];
  await scheduleBankAction(trx, charge, outcome);
  return events;
}

/**
 * Stripe's hosted checkout, as the sandbox shows it: the order's lines, a card field and Pay. A good
 * card completes the session, sends `checkout.session.completed` in the background, and returns to
 * the success URL; a refused card stays on the page with Stripe's message.
 */
export function mountPage(router: Router, db: Db, config: Config): void {
  /** The session (expired first when due), after `change` ran on it while it is open; undefined when there is none. */
  async function withSession(
    id: string,
    change?: (trx: Knex.Transaction, session: CheckoutSession) => Promise<StripeEvent[]>,
  ) {
    const events: StripeEvent[] = [];
    try {
      const session = await db.transaction(async (trx) => {
        const found = await currentSession(trx, id, events);
        if (change && found.status === 'open') events.push(...(await change(trx, found)));
        await queueEvents(trx, events);
        return found;
      });
      if (events.length) deliverDue(db, config);
      return session;
    } catch (error) {
      if (error instanceof StripeApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * The payer reaches the page by the session's id alone: the page acts on the account the session
   * was made on (a connected account's for a direct charge), and so does all that follows from it.
   */
  const onSessionAccount =
    (handler: (ctx: Context & { params: Record<string, string> }) => Promise<void>) =>
    async (ctx: Context & { params: Record<string, string> }) =>
      onAccount((await accountOfObject(db, 'checkout.session', pathParam(ctx, 'id'))) ?? null, () => handler(ctx));

  router.get(
    '/stripe-sandbox/pay/:id',
    onSessionAccount(async (ctx) => {
      const session = await withSession(pathParam(ctx, 'id'));
      if (!session) return sendPage(ctx, 404, notFoundPage(pageLang(ctx)));
      const lang = pageLang(ctx, session);
      if (session.status !== 'open')
        return sendPage(ctx, session.status === 'expired' ? 410 : 200, statusPage(lang, session));
      sendPage(ctx, 200, checkoutPage(lang, session));
    }),
  );

  router.post(
    '/stripe-sandbox/pay/:id',
    onSessionAccount(async (ctx) => {
      // An unreadable form is treated like an empty card field.
      const form = await readBody(ctx.req, 16 * 1024)
        .then(parseParams)
        .catch((): Params => ({}));
      const entered = typeof form.card === 'string' ? form.card : '';
      const card = cardOfNumber(entered);
      const refusal = card ? outcomeWords[card.outcome].decline : (w: Words) => w.incorrect;
      let feeOf: string | undefined;
      const pay =
        card && !refusal
          ? (trx: Knex.Transaction, open: CheckoutSession) =>
              complete(trx, config, open, digits(entered).slice(-4), card.outcome, (charge) => (feeOf = charge))
          : undefined;
      const session = await withSession(pathParam(ctx, 'id'), pay);
      // Only once the payment is committed: a fee for a payment that was rolled back would name no charge.
      if (feeOf) bookFeeLater(db, config, feeOf);
      if (!session) return sendPage(ctx, 404, notFoundPage(pageLang(ctx)));
      if (session.status === 'complete' && session.payment_status === 'paid') {
        ctx.status = 303;
        ctx.redirect(successUrl(session));
        return;
      }
      const lang = pageLang(ctx, session);
      if (session.status !== 'open') return sendPage(ctx, 410, statusPage(lang, session));
      sendPage(ctx, card ? 402 : 400, checkoutPage(lang, session, { card: entered, error: refusal!(text[lang]) }));
    }),
  );

  // An account link's single-use address (connect.ts): the connected account's owner is sent on.
  router.get('/stripe-sandbox/onboard/:id', async (ctx) => {
    const to = await visitAccountLink(db, config, pathParam(ctx, 'id'));
    if (to === undefined) return sendPage(ctx, 404, notFoundPage(pageLang(ctx), 'linkMissing'));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.status = 303;
    ctx.redirect(to);
  });
}
