import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { currentSession } from './api.ts';
import { StripeApiError } from './errors.ts';
import { parseParams, readBody, type Params } from './form.ts';
import { balanceTransaction, payment, present, type CheckoutSession } from './objects.ts';
import { dispute, type Later } from './lifecycle.ts';
import { insertObject, saveObject } from './store.ts';
import { sendEvents, stripeEvent, type StripeEvent } from './webhooks.ts';

/** The test cards, as the page lists them; any other number is refused as incorrect. */
const testCards: { number: string; outcome: string; decline?: string; holdFee?: boolean; later?: Later }[] = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'is declined', decline: 'Your card was declined.' },
  { number: '4000 0000 0000 9995', outcome: 'has insufficient funds', decline: 'Your card has insufficient funds.' },
  // Sandbox only: the payment succeeds but its fee comes later (released on request, with `charge.updated`).
  { number: '4000 0000 0000 0010', outcome: 'succeeds, its fee follows later', holdFee: true },
  // Stripe's: the payment succeeds, then the customer's bank disputes it (`charge.dispute.created`).
  { number: '4000 0000 0000 0259', outcome: 'succeeds, then is disputed', later: 'dispute' },
  // Refunds of these payments stay pending until /stripe-sandbox/refunds/<id>/finish, then succeed or fail.
  { number: '4000 0000 0000 7726', outcome: 'succeeds; its refunds stay pending', later: 'refund_pending' },
  { number: '4000 0000 0000 3476', outcome: 'succeeds; its refunds stay pending, then fail', later: 'refund_fails' },
];
const digits = (number: string) => number.replace(/[\s-]/g, '');
const incorrectNumber = 'Your card number is incorrect.';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function money(session: CheckoutSession, cents: number): string {
  const locale = session.locale?.startsWith('de') ? 'de-DE' : 'en-IE';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: session.currency.toUpperCase() }).format(cents / 100);
}

const styles = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fa}
.test-mode{background:#ff5c00;color:#fff;text-align:center;font-weight:700;letter-spacing:.08em;padding:.4rem;font-size:.85rem}
main{max-width:28rem;margin:0 auto;padding:1rem}
.back{color:#635bff;text-decoration:none;display:inline-block;padding:.4rem 0}
h1{font-size:1.1rem;font-weight:600;color:#697386;margin:.6rem 0 0}
.amount{font-size:2rem;font-weight:700;margin:0 0 1rem}
.lines{list-style:none;padding:0;margin:0 0 1rem;border-top:1px solid #e3e8ee}
.lines li,.total{display:flex;justify-content:space-between;gap:1rem;padding:.55rem 0;border-bottom:1px solid #e3e8ee}
.total{font-weight:700;border:0}
form{background:#fff;border-radius:.6rem;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
label{display:block;font-size:.9rem;color:#4f566b;margin:.6rem 0 .25rem}
input{width:100%;font:inherit;padding:.65rem .7rem;border:1px solid #cfd7df;border-radius:.4rem}
.row{display:flex;gap:.75rem}.row>div{flex:1}
.error{color:#df1b41;font-weight:600;margin:.75rem 0 0}
button,.button{display:block;width:100%;margin-top:1rem;padding:.8rem;font:inherit;font-weight:700;color:#fff;background:#635bff;border:0;border-radius:.4rem;text-align:center;text-decoration:none}
.email{margin:0 0 .25rem;color:#4f566b;overflow-wrap:anywhere}
.cards{font-size:.85rem;color:#697386;margin-top:1.25rem}
.cards ul{padding-left:1.1rem;margin:.3rem 0}
code{font-size:.85rem}
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Stripe sandbox (test mode)</title>
<style>${styles}</style>
</head>
<body>
<div class="test-mode" id="sandbox-test-mode">TEST MODE</div>
<main>
${body}
</main>
</body>
</html>`;
}

function checkoutPage(session: CheckoutSession, form: { card?: string; error?: string } = {}): string {
  const year = (new Date().getUTCFullYear() + 3) % 100;
  const total = money(session, session.amount_total);
  const back = session.cancel_url ? `<a class="back" id="sandbox-back" href="${escapeHtml(session.cancel_url)}">← Back</a>` : '';
  const lines = session.line_items.data
    .map((item) => `<li><span>${escapeHtml(item.description)} × ${item.quantity}</span><span>${money(session, item.amount_total)}</span></li>`)
    .join('');
  return layout(
    `Pay ${total}`,
    `${back}
<h1>Pay (local Stripe sandbox)</h1>
<p class="amount" id="sandbox-amount">${total}</p>
<ul class="lines" id="sandbox-lines">${lines}</ul>
<p class="total"><span>Total</span><span id="sandbox-total">${total}</span></p>
<form method="post" action="/stripe-sandbox/pay/${escapeHtml(session.id)}" id="sandbox-form">
${session.customer_email ? `<p class="email" id="sandbox-email">${escapeHtml(session.customer_email)}</p>` : ''}
<label for="card">Card number</label>
<input id="card" name="card" autocomplete="cc-number" inputmode="numeric" placeholder="4242 4242 4242 4242" value="${escapeHtml(form.card ?? '')}" required>
<div class="row">
<div><label for="exp">Expiry</label><input id="exp" name="exp" autocomplete="cc-exp" inputmode="numeric" value="12 / ${String(year).padStart(2, '0')}"></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" value="123"></div>
</div>
${form.error ? `<p class="error" id="sandbox-error" role="alert">${escapeHtml(form.error)}</p>` : ''}
<button type="submit" id="sandbox-pay">Pay ${total}</button>
</form>
<section class="cards">
<strong>Test cards</strong>
<ul>
${testCards.map((card) => `<li><code>${card.number}</code> ${card.outcome}</li>`).join('\n')}
</ul>
</section>`,
  );
}

function statusPage(session: CheckoutSession): string {
  if (session.status === 'complete') {
    return layout('Paid', `<h1>This payment is complete.</h1>
<a class="button" id="sandbox-continue" href="${escapeHtml(successUrl(session))}">Continue</a>`);
  }
  return layout('Expired', `<h1 id="sandbox-expired">This checkout session has expired.</h1>
<p>Nothing was charged. Please start the purchase again.</p>
${session.cancel_url ? `<a class="button" id="sandbox-back" href="${escapeHtml(session.cancel_url)}">Back to the shop</a>` : ''}`);
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

const notFoundPage = () => layout('Not found', '<h1 id="sandbox-missing">This checkout page does not exist.</h1>');

/** Completes an open session with a successful card payment, inside the caller's transaction. */
async function complete(trx: Knex.Transaction, session: CheckoutSession, last4: string, holdFee: boolean, later?: Later): Promise<StripeEvent[]> {
  const { intent, charge } = payment(session, last4);
  if (later && later !== 'dispute') charge.sandbox_refunds = later;
  if (!holdFee) {
    const txn = balanceTransaction(charge);
    await insertObject(trx, txn);
    charge.balance_transaction = txn.id;
  }
  await insertObject(trx, charge);
  await insertObject(trx, intent);
  Object.assign(session, {
    status: 'complete',
    payment_status: 'paid',
    payment_intent: intent.id,
    url: null,
    customer_details: { email: session.customer_email, name: null, phone: null, address: null, tax_exempt: 'none', tax_ids: [] },
  });
  await saveObject(trx, session);
  const events = [stripeEvent('checkout.session.completed', present(session))];
  if (later === 'dispute') {
    const disputed = dispute(charge);
    await insertObject(trx, disputed);
    charge.disputed = true;
    await saveObject(trx, charge);
    events.push(stripeEvent('charge.dispute.created', disputed));
  }
  return events;
}

/**
 * Stripe's hosted checkout, as the sandbox shows it: the order's lines, a card field and Pay. A good
 * card completes the session, sends `checkout.session.completed` in the background, and returns to
 * the success URL; a refused card stays on the page with Stripe's message.
 */
export function mountPage(router: Router, db: Db, config: Config): void {
  /** The session (expired first when due), after `change` ran on it while it is open; undefined when there is none. */
  async function withSession(id: string, change?: (trx: Knex.Transaction, session: CheckoutSession) => Promise<StripeEvent[]>) {
    const events: StripeEvent[] = [];
    try {
      const session = await db.transaction(async (trx) => {
        const found = await currentSession(trx, id, events);
        if (change && found.status === 'open') events.push(...(await change(trx, found)));
        return found;
      });
      sendEvents(db, config, events);
      return session;
    } catch (error) {
      if (error instanceof StripeApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  router.get('/stripe-sandbox/pay/:id', async (ctx) => {
    const session = await withSession(ctx.params.id);
    if (!session) return sendPage(ctx, 404, notFoundPage());
    if (session.status !== 'open') return sendPage(ctx, session.status === 'expired' ? 410 : 200, statusPage(session));
    sendPage(ctx, 200, checkoutPage(session));
  });

  router.post('/stripe-sandbox/pay/:id', async (ctx) => {
    // An unreadable form is treated like an empty card field.
    const form = await readBody(ctx.req, 16 * 1024)
      .then(parseParams)
      .catch((): Params => ({}));
    const entered = typeof form.card === 'string' ? form.card : '';
    const card = testCards.find((c) => digits(c.number) === digits(entered));
    const refusal = card ? card.decline : incorrectNumber;
    const pay = card && !refusal ? (trx: Knex.Transaction, open: CheckoutSession) => complete(trx, open, digits(entered).slice(-4), card.holdFee ?? false, card.later) : undefined;
    const session = await withSession(ctx.params.id, pay);
    if (!session) return sendPage(ctx, 404, notFoundPage());
    if (session.status === 'complete' && session.payment_status === 'paid') {
      ctx.status = 303;
      ctx.redirect(successUrl(session));
      return;
    }
    if (session.status !== 'open') return sendPage(ctx, 410, statusPage(session));
    sendPage(ctx, refusal === incorrectNumber ? 400 : 402, checkoutPage(session, { card: entered, error: refusal }));
  });
}
