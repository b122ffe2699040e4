import { z } from 'zod';
import { requiredText } from '../schema.ts';

const warning = z.boolean({ error: 'Please answer with true or false.' });

export const commentInput = z.object(
  {
    comment: requiredText(5000),
    warning: warning.nullish().transform((value) => value ?? false),
  },
  { error: 'Please send the comment as a JSON object.' },
);

export const commentPatch = z.object(
  {
    comment: requiredText(5000).optional(),
    warning: warning.optional(),
    resolved: z.boolean({ error: 'Please answer with true or false.' }).optional(),
  },
  { error: 'Please send the changes as a JSON object.' },
);

export type CommentInput = z.infer<typeof commentInput>;
export type CommentPatch = z.infer<typeof commentPatch>;
