import { z } from 'zod';
import { manualKinds } from '../ledger/till.ts';
import { allDenominations } from '../country/presets.ts';
import { periodDay } from '../foundations/period.ts';

const cents = (message: string) =>
  z
    .number({ error: message })
    .int("Please give the amount as a whole number in the currency's smallest unit.")
    .min(0, 'The amount cannot be negative.')
    .max(100_000_000, 'The amount is too large.');

const tillId = z
  .number({ error: 'Please choose a till.' })
  .int('Please choose a till.')
  .min(1, 'Please choose a till.')
  .max(2_147_483_647);

/**
 * The id the back office makes for one submission of a payout or a till movement: sent again, the
 * submission books once. Left out by older clients.
 */
export const requestId = z.uuid({ error: 'The submission needs an id made by the screen (a UUID).' }).optional();

export const visitInput = z.object({
  visitId: z.uuid({ error: 'The visit needs an id made by the screen (a UUID).' }),
  vendor: z
    .string({ error: 'Please give the vendor’s licence ID.' })
    .trim()
    .min(1, 'Please give the vendor’s licence ID.')
    .max(40),
  tillId,
  items: z
    .array(
      z.object({
        itemId: z.number().int().min(1).max(2_147_483_647),
        quantity: z
          .number({ error: 'Please give a number of copies.' })
          .int('Whole copies only.')
          .min(1, 'At least 1 copy.')
          .max(10_000, 'At most 10000 copies.'),
      }),
      { error: 'Please list the copies as items.' },
    )
    .max(100, 'At most 100 lines.'),
  cash: cents("Please give the cash paid in the currency's smallest unit."),
  tendered: cents("Please give the cash handed over in the currency's smallest unit.").optional(),
  payOut: z.boolean({ error: 'Please say whether the rest is paid out.' }),
  expectedCredit: z
    .number({ error: "Please give the credit you were shown, in the currency's smallest unit." })
    .int()
    .min(-100_000_000)
    .max(100_000_000),
});

export const tillInput = z.object({
  name: z
    .string({ error: 'Please name the till.' })
    .trim()
    .min(1, 'Please name the till.')
    .max(100, 'At most 100 characters.'),
  openingBalance: cents("Please give the opening balance in the currency's smallest unit."),
});

/** Where a till stands, when not at the paper's address: empty fields take the paper's. */
export const tillLocationInput = z.object({
  name: z.string().trim().max(60, 'At most 60 characters.').default(''),
  street: z.string().trim().max(60, 'At most 60 characters.').default(''),
  postcode: z.string().trim().max(10, 'At most 10 characters.').default(''),
  town: z.string().trim().max(62, 'At most 62 characters.').default(''),
});

export const movementInput = z.object({
  kind: z.enum(manualKinds, { error: 'Please choose one of: {values}.' }),
  amount: cents("Please give the amount in the currency's smallest unit.").min(1, 'Please give an amount above 0.'),
  reason: z.string().trim().max(1000, 'At most 1000 characters.').default(''),
  requestId,
});

const pieces = z.number().int('Whole pieces only.').min(0).max(1_000_000);

export const closeInput = z.object({
  counted: cents("Please give the counted cash in the currency's smallest unit."),
  expected: z
    .number({ error: 'Please give the expected balance you were shown.' })
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER),
  denominations: z
    .partialRecord(
      z.enum(allDenominations.map(String) as [string, ...string[]], { error: 'Unknown coin or note.' }),
      pieces,
    )
    .optional(),
  reason: z.string().trim().max(1000, 'At most 1000 characters.').default(''),
});

export const dayRange = z.object({
  from: periodDay.optional(),
  to: periodDay.optional(),
});
