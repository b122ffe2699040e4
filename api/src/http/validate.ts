import type { z } from 'zod';
import { badRequest, type FieldErrors } from './errors.ts';

/** Parses input with a zod schema; on failure a 400 naming every bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    errors[field] ??= issue.message;
  }
  return rejectFields(errors) as never;
}

/** A 400 naming every bad field (`_` for the input as a whole); nothing when there is none. */
export function rejectFields(errors: FieldErrors): void {
  const first = Object.entries(errors)[0];
  if (!first) return;
  throw badRequest(first[0] === '_' ? first[1] : `Please check the field "${first[0]}": ${first[1]}`, errors);
}

/** A numeric route parameter such as /vendors/:id. */
export function idParam(value: string | undefined, what = 'entry'): number {
  const id = Number(value);
  if (!value || !/^\d{1,9}$/.test(value) || id < 1) throw badRequest(`"${value}" is not a valid ${what} id.`);
  return id;
}
