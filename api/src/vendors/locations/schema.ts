import { z } from 'zod';
import { latitude, longitude, optionalText, requiredText } from '../schema.ts';

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const timeMessage = 'Please enter a time as HH:MM.';
// "to" may be 24:00 so that a shift can last until midnight.
const from = z.string({ error: timeMessage }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, timeMessage);
const to = z.string({ error: timeMessage }).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, timeMessage);

const range = z
  .object(
    {
      day: z.enum(weekdays, { error: 'Please choose a weekday: {values}.' }),
      from,
      to,
    },
    { error: 'Please give each time range as { day, from, to }.' },
  )
  .refine((r) => r.from < r.to, { message: 'The end must be after the start.', path: ['to'] });

const ranges = z
  .array(range, { error: 'Please give the weekly times as a list of ranges.' })
  .min(1, 'Please add at least one time range.')
  .max(50, 'Please use at most 50 time ranges.')
  .superRefine((list, ctx) => {
    list.forEach((r, i) => {
      const clash = list.findIndex((o, j) => j < i && o.day === r.day && o.from < r.to && r.from < o.to);
      if (clash >= 0)
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: 'Overlaps with time range {range}.',
          params: { range: clash + 1 },
        });
    });
  });

// In people's words: the kinds' names in the API (allDay, weekly) are not the office's.
const kindMessage = 'Please choose the working time: all day, mornings, afternoons or certain weekdays.';

export const workingTime = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('allDay') }),
    z.object({ kind: z.literal('mornings') }),
    z.object({ kind: z.literal('afternoons') }),
    z.object({ kind: z.literal('weekly'), ranges }),
  ],
  { error: kindMessage },
);

export type WorkingTime = z.infer<typeof workingTime>;

export const locationInput = z.object(
  {
    name: requiredText(200),
    address: optionalText(300),
    postCode: optionalText(20),
    latitude,
    longitude,
    // Left out, the database default (all day) applies.
    workingTime: workingTime.optional(),
  },
  { error: 'Please send the location as a JSON object.' },
);

export const locationPatch = locationInput.partial();

export type LocationPatch = z.infer<typeof locationPatch>;
