import { defaultQuantityLimit } from '../../api/src/orders/limits.ts';
import type { ShopItem } from './boot.ts';

// The cart as pure data: quantities by item id. Everything the screens show about it (lines,
// totals, why it cannot be paid) is derived here, so the rules are tested without a browser. The
// server prices and checks the order again; these checks only say so earlier and more kindly.

export type Cart = Record<string, number>;

export interface Line {
  item: ShopItem;
  quantity: number;
  amount: number;
}

/** The API's limit per item (an item may name its own): the "+" stops where the server would refuse. */
export const quantityLimit = (item: ShopItem) => item.maxOrderAmount ?? defaultQuantityLimit;

/** A new customer's cart: the main item once. */
export function initialCart(items: ShopItem[]): Cart {
  const main = items.find((item) => item.isMainProduct);
  return main ? { [main.id]: 1 } : {};
}

export function setQuantity(cart: Cart, item: ShopItem, quantity: number): Cart {
  const next = { ...cart };
  const bounded = Math.min(Math.max(0, Math.trunc(quantity)), quantityLimit(item));
  if (bounded > 0) next[item.id] = bounded;
  else delete next[item.id];
  return next;
}

/** The lines in the shop's order; items no longer for sale drop out. */
export function cartLines(items: ShopItem[], cart: Cart): Line[] {
  return items.flatMap((item) => {
    const quantity = cart[item.id] ?? 0;
    return quantity > 0 ? [{ item, quantity, amount: item.price * quantity }] : [];
  });
}

export const itemsTotal = (lines: Line[]) => lines.reduce((sum, line) => sum + line.amount, 0);

export type CheckoutProblem = 'empty' | 'donationOnly' | 'tooHigh';

export interface Checkout {
  lines: Line[];
  tip: number;
  total: number;
  /** Why this cannot be paid, if it cannot. */
  problem?: CheckoutProblem;
  /** The first item that is sent by e-mail: the order needs an address. */
  digital?: ShopItem;
}

export function checkout(items: ShopItem[], cart: Cart, tip: number, maxOrderAmount: number): Checkout {
  const lines = cartLines(items, cart);
  const total = itemsTotal(lines) + tip;
  const problem: CheckoutProblem | undefined =
    lines.length === 0 ? (tip > 0 ? 'donationOnly' : 'empty') : total >= maxOrderAmount ? 'tooHigh' : undefined;
  return { lines, tip, total, problem, digital: lines.find((line) => line.item.isDigital)?.item };
}

/** Why the chosen items cannot be paid before any tip: checked on the steps where they are chosen. */
export function itemsProblem(items: ShopItem[], cart: Cart, maxOrderAmount: number): CheckoutProblem | undefined {
  return checkout(items, cart, 0, maxOrderAmount).problem;
}

/** The preset tips, in cents. */
export const tipPresets = [200, 100];

/** A new id for the next "Pay" of this cart: the API places one order per id. */
export function newCartId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The main item in print and its digital edition, when the issue exists in both versions: the
 * print-or-digital choice is offered only then.
 */
export function editions(items: ShopItem[]): { print: ShopItem; digital: ShopItem } | undefined {
  const print = items.find((item) => item.isMainProduct && !item.isDigital);
  const digital = items.find((item) => item.isDigital);
  return print && digital ? { print, digital } : undefined;
}

/** Takes `chosen` instead of the other edition, keeping the number of copies. */
export function chooseEdition(cart: Cart, chosen: ShopItem, other: ShopItem): Cart {
  const copies = Math.max(1, (cart[chosen.id] ?? 0) + (cart[other.id] ?? 0));
  return setQuantity(setQuantity(cart, other, 0), chosen, copies);
}

/** A valid e-mail address as far as a form can tell; the server has the last word. */
export const isEmail = (value: string) =>
  /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value.trim()) && value.trim().length <= 254;
