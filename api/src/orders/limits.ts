// The limits of one order, shared with the shop widget (it imports this file) so its "+" button and
// the API stop at the same number. Plain constants only: the widget's bundle takes this file as is.

/** Copies of one item in one order when the item names no maximum of its own. */
export const defaultQuantityLimit = 20;

/** The shop's id for one cart: random, made by the shop, at most one order each. */
export const cartIdPattern = /^[A-Za-z0-9_-]{16,64}$/;
