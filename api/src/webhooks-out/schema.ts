import { z } from 'zod';
import { eventTypes } from './types.ts';

const endpointFields = {
  url: z
    .string({ error: 'Please give the address the events are sent to.' })
    .trim()
    .min(1, 'Please give the address the events are sent to.')
    .max(2000, 'The address is too long.'),
  description: z.string({ error: 'The description must be text.' }).trim().max(500, 'At most 500 characters.'),
  eventTypes: z
    .array(z.enum(eventTypes, { error: 'Please choose among {values}.' }), {
      error: 'Please choose the events to send.',
    })
    .min(1, 'Please choose at least one event.')
    .max(eventTypes.length)
    .transform((types) => [...new Set(types)]),
  active: z.boolean({ error: 'Please say whether the endpoint is active.' }),
};

/** A new endpoint: active unless said otherwise. Unknown fields are ignored. */
export const endpointInput = z.object({
  ...endpointFields,
  description: endpointFields.description.default(''),
  active: endpointFields.active.default(true),
});

/** A change: the form sends the whole record; an absent field keeps its value. */
export const endpointChange = z.object({
  url: endpointFields.url.optional(),
  description: endpointFields.description.optional(),
  eventTypes: endpointFields.eventTypes.optional(),
  active: endpointFields.active.optional(),
});
