import type { Refusal, Visit } from './boot.ts';
import {
  checkout,
  chooseEdition,
  editions,
  isEmail,
  newCartId,
  setQuantity,
  tipPresets,
  type Checkout,
} from './cart.ts';
import { maxTip, parseMoney } from './money.ts';
import { stepPath, type Route, type Step } from './route.ts';
import { env, t } from './store.ts';
import { problemText } from './problems.ts';

// The shop's forms as the server answers them when the script does not run: the same rules the
// screens apply with the script, on the visit the browser keeps in its cookie. The server prices and
// checks the order again when it is placed.

export type FormAnswer =
  /** Go on to this address (the server answers 303, so a reload does not send the form again). */
  | { to: string; visit: Visit }
  /** Show the same screen again, saying why. */
  | { refused: Refusal; visit: Visit }
  /** Place this order, then go to the card page. */
  | { pay: Checkout; cartId: string; visit: Visit };

/**
 * Where a step of a vendor's shop sends a browser without the script instead: the tip and its amount
 * need something in the cart, so an empty cart goes back to the products. Only for a visit this
 * browser's forms kept: a cart the script keeps is the script's to judge.
 */
export function stepInstead(route: Extract<Route, { page: 'vendor' }>, visit: Visit): string | undefined {
  if (route.step !== 'tipping' && route.step !== 'custom-tip') return undefined;
  const { items, settings } = env.boot;
  if (checkout(items, visit.cart, 0, settings.maxOrderAmount).problem !== 'empty') return undefined;
  return stepPath(route.id, 'shop');
}

/** A new visit at a vendor: the main item once, as the screens start. */
export const freshVisit = (cart: Record<string, number>): Visit => ({ cart, tip: null, terms: false, email: '' });

/** The visit a cookie held, if it is one: anything else starts afresh. */
export function readVisit(value: unknown): Visit | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { cart, tip, terms, cartId, email } = value as Record<string, unknown>;
  if (!cart || typeof cart !== 'object' || Array.isArray(cart)) return undefined;
  const quantities = Object.entries(cart as Record<string, unknown>);
  // Bounded as no item's limit could reach: a forged cookie shows its owner nothing absurd.
  const counted = (n: unknown) => Number.isInteger(n) && (n as number) > 0 && (n as number) <= 10_000;
  if (!quantities.every(([id, n]) => /^\d{1,9}$/.test(id) && counted(n))) return undefined;
  return {
    cart: Object.fromEntries(quantities) as Record<string, number>,
    tip: Number.isInteger(tip) && (tip as number) >= 0 ? (tip as number) : null,
    terms: terms === true,
    ...(typeof cartId === 'string' && /^[0-9a-f]{32}$/.test(cartId) ? { cartId } : {}),
    email: typeof email === 'string' && email.length <= 254 ? email : '',
  };
}

/**
 * Another cart or tip is another order: its "Pay" must not be answered with the last one's. Its id
 * is made now, not at "Pay", so that a Pay tapped twice places one order.
 */
const changed = (visit: Visit, changes: Partial<Visit>): Visit => ({ ...visit, ...changes, cartId: newCartId() });

/** Answers one form of the screen at `route`, sent without the script, with the fields it sent. */
export function submitForm(
  route: Extract<Route, { page: 'vendor' }>,
  visit: Visit,
  fields: URLSearchParams,
): FormAnswer {
  const { items, settings } = env.boot;
  const here = stepPath(route.id, route.step, route.item ? `?item=${route.item}` : '');
  const go = (step: Step, next: Visit): FormAnswer => ({ to: stepPath(route.id, step), visit: next });
  const refuse = (field: string, refusal: Omit<Refusal, 'step' | 'field'>, next = visit): FormAnswer => ({
    refused: { step: route.step, field, ...refusal },
    visit: next,
  });

  const quantity = /^(\d{1,9}):(-?\d{1,4})$/.exec(fields.get('quantity') ?? '');
  if (quantity) {
    const item = items.find((candidate) => candidate.id === Number(quantity[1]));
    return {
      to: here,
      visit: item ? changed(visit, { cart: setQuantity(visit.cart, item, Number(quantity[2])) }) : visit,
    };
  }

  const edition = fields.get('edition');
  const pair = editions(items);
  if (edition && pair) {
    const [chosen, other] =
      Number(edition) === pair.digital.id ? [pair.digital, pair.print] : [pair.print, pair.digital];
    return go('landing-page', changed(visit, { cart: chooseEdition(visit.cart, chosen, other) }));
  }

  // "Next" from the items: on to the tip only with a cart that can be paid, else the step says why.
  if (fields.get('next') === 'tipping') {
    const refused = problemText(checkout(items, visit.cart, 0, settings.maxOrderAmount));
    return refused ? refuse('next', { text: refused }) : go('tipping', visit);
  }

  const tip = fields.get('tip');
  if (tip === 'other') return go('custom-tip', visit);
  if (tip !== null && route.step === 'tipping') {
    const cents = Number(tip);
    if (!tipPresets.includes(cents) && cents !== 0) return { to: here, visit };
    const refused = problemText(checkout(items, visit.cart, cents, settings.maxOrderAmount));
    if (refused) return refuse('tip', { text: refused });
    return go('confirmation', changed(visit, { tip: cents }));
  }

  const amount = fields.get('amount');
  if (amount !== null && route.step === 'custom-tip') {
    const lines = checkout(items, visit.cart, 0, settings.maxOrderAmount);
    const parsed = parseMoney(amount, maxTip(lines.total, settings.maxOrderAmount), settings.currency);
    if ('problem' in parsed) return refuse('amount', { code: parsed.problem, value: amount.slice(0, 50) });
    return go('confirmation', changed(visit, { tip: parsed.cents }));
  }

  if (route.step !== 'confirmation') return { to: here, visit };
  const summary = checkout(items, visit.cart, visit.tip ?? 0, settings.maxOrderAmount);

  if (fields.get('remove') === 'digital') {
    const cart = summary.lines.reduce(
      (next, line) => (line.item.isDigital ? setQuantity(next, line.item, 0) : next),
      visit.cart,
    );
    return go('confirmation', changed(visit, { cart }));
  }
  if (fields.get('change') === 'email') return go('confirmation', { ...visit, email: '' });
  const address = fields.get('email');
  if (address !== null && !fields.has('pay')) {
    if (!isEmail(address)) return refuse('email', { text: t('invalidEmail'), value: address.slice(0, 254) });
    return go('confirmation', { ...visit, email: address.trim() });
  }
  if (fields.has('pay')) {
    const terms = fields.get('terms') === 'yes';
    // Without a digital edition the pay form carries the optional address for the receipt by e-mail
    // (empty: no mail); a digital edition's address comes from its own step.
    const receiptTo = summary.digital ? undefined : (fields.get('email') ?? '').trim().slice(0, 254);
    const next = { ...visit, terms, ...(receiptTo === undefined ? {} : { email: receiptTo }) };
    if (!terms) return refuse('terms', { text: t('termsNeeded') }, next);
    if (receiptTo && !isEmail(receiptTo)) return refuse('email', { text: t('invalidEmail'), value: receiptTo }, next);
    const problem = problemText(summary);
    if (problem) return refuse('pay', { text: problem }, next);
    // A digital edition needs its address first: the confirmation asks for it.
    if (summary.digital && !isEmail(visit.email)) return go('confirmation', next);
    const cartId = visit.cartId ?? newCartId();
    return { pay: summary, cartId, visit: { ...next, cartId } };
  }
  return { to: here, visit };
}
