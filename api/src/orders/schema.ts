import { z } from 'zod';
import { money, tr } from '../language/messages.ts';
import { cartIdPattern } from './limits.ts';

// The shape of a new order as the shop sends it. Prices are not part of it: anything else a client
// adds (a price, a total, a status) is dropped here and never read.

const returnUrlMessage = 'The return address must be a full web address starting with https:// or http://.';

const isWebAddress = (value: string) => URL.canParse(value) && ['https:', 'http:'].includes(new URL(value).protocol);
const hasLogin = (value: string) => URL.canParse(value) && Boolean(new URL(value).username || new URL(value).password);

const cartIdMessage = 'The cart id must be 16 to 64 letters, digits, "-" or "_".';

// The example's 150 reads right in any currency (1.50 in cents, ¥150 in yen). Its amount travels as
// the custom issue's params, which http/validate.ts fills into the sentence.
const tipMessage = tr(
  "Please enter the tip in the currency's smallest unit (0 or more), for example {minor} for {amount}.",
  { minor: '150', amount: money(150) },
);

const entry = z.object(
  {
    item: z
      .number({ error: 'Please choose an item.' })
      .int('Please choose an item.')
      .positive('Please choose an item.')
      .max(2 ** 31 - 1, 'Please choose an item.'),
    quantity: z
      .number({ error: 'Please enter a whole quantity of at least 1.' })
      .int('Please enter a whole quantity of at least 1.')
      .min(1, 'Please enter a whole quantity of at least 1.')
      .max(10_000, 'Please enter a smaller quantity.'),
  },
  { error: 'Please send each item as { item, quantity }.' },
);

export const orderInput = z.object(
  {
    vendor: z
      .string({ error: 'This ID is invalid' })
      .trim()
      .min(1, 'This ID is invalid')
      .max(100, 'This ID is invalid'),
    entries: z
      .array(entry, { error: 'Please send the items as a list.' })
      .max(50, 'Please order at most 50 different items at once.'),
    tip: z
      .custom<number>((value) => Number.isInteger(value), { error: tipMessage.id, params: tipMessage.params })
      .pipe(z.number().min(0, 'The tip must not be negative.').max(100_000_000, 'Please enter a smaller tip.'))
      .default(0),
    email: z
      .string({ error: 'Please enter a valid email address.' })
      .trim()
      .max(254, 'Please enter a valid email address.')
      .nullish()
      .transform((value) => value || null),
    // The page that embeds the widget, for Stripe to send the customer back to (its origin must be
    // one allowed to embed the shop; placeOrder checks that against the settings).
    returnUrl: z
      .string({ error: returnUrlMessage })
      .trim()
      .max(2000, 'The return address is too long; please use one of at most 2000 characters.')
      .refine((value) => value === '' || isWebAddress(value), returnUrlMessage)
      .refine((value) => !hasLogin(value), 'The return address must not contain a name or password.')
      .nullish()
      .transform((value) => value || null),
    // The shop's id for this cart: a repeated "Pay" gets the order placed for it before.
    cartId: z
      .string({ error: cartIdMessage })
      .regex(cartIdPattern, cartIdMessage)
      .nullish()
      .transform((value) => value ?? null),
    // The token of the order whose "Try again" this is: an order paid meanwhile is answered with its
    // receipt. Anything else in it is no such order.
    retryOf: z.string().max(100).nullish().catch(null),
    // German is the default and the fallback; a browser's "en-GB" means English.
    locale: z
      .string({ error: 'Please choose the language de or en.' })
      .nullish()
      .transform((value): 'de' | 'en' => (value?.toLowerCase().startsWith('en') ? 'en' : 'de')),
  },
  { error: 'Please send the order as a JSON object.' },
);

export type OrderInput = z.infer<typeof orderInput>;

/** Checked separately: only a cart with a digital item needs one, but any given address must be valid. */
export const emailAddress = z.email();

/** Staff's decision on a dispute: whose money it is. */
export const disputeDecision = z
  .object({
    bearer: z.enum(['vendor', 'newspaper'], {
      message: 'Please choose who bears the chargeback: "vendor" or "newspaper".',
    }),
  })
  .strict();
