import { z } from 'zod';
import { requestId } from '../counter/schema.ts';

export const payoutInput = z.object({
  vendor: z
    .string({ error: 'Please give the vendor’s licence ID.' })
    .trim()
    .min(1, 'Please give the vendor’s licence ID.'),
  expectedAmount: z
    .number({ error: "Please give the amount you were shown, in the currency's smallest unit." })
    .int("Please give the amount as a whole number in the currency's smallest unit.")
    .min(0, 'The amount cannot be negative.')
    .max(Number.MAX_SAFE_INTEGER, 'The amount is too large.'),
  /** The till the cash comes from; the first till when left out. */
  tillId: z.number().int('Please choose a till.').min(1, 'Please choose a till.').max(2_147_483_647).optional(),
  requestId,
});

export const reversalInput = z.object({
  reason: z
    .string({ error: 'Please say why the payout is reversed.' })
    .trim()
    .min(1, 'Please say why the payout is reversed.')
    .max(1000, 'Please use at most 1000 characters.'),
});
