import type { z } from 'zod';
import { rejectFields, type FieldErrors } from '../foundations/errors.ts';
import { badRequest } from './errors.ts';
import { Message, tr, type Param } from '../language/messages.ts';

/** What zod says where a schema has no message of ours; replaced by our own sentence below. */
const zodDefault = '\u0000zod';
const markDefault = () => zodDefault;

/** Our sentence for an issue that the schema gave no message, by zod's issue code. */
function ownSentence(issue: z.core.$ZodIssue): Message {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return tr('This field is required.');
      if (issue.expected === 'string') return tr('Please enter text.');
      if (issue.expected === 'number' || issue.expected === 'int') return tr('Please enter a number.');
      if (issue.expected === 'boolean') return tr('Please answer with true or false.');
      if (issue.expected === 'array') return tr('Please send a list.');
      if (issue.expected === 'object') return tr('Please send a JSON object.');
      return tr('This value has the wrong type.');
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? tr('This field is required.') : tr('Please use at least {minimum} characters.');
      if (issue.origin === 'array' || issue.origin === 'set') return tr('Please give at least {minimum} entries.');
      return issue.inclusive
        ? tr('Please enter a number of at least {minimum}.')
        : tr('Please enter a number above {minimum}.');
    case 'too_big':
      if (issue.origin === 'string') return tr('Please use at most {maximum} characters.');
      if (issue.origin === 'array' || issue.origin === 'set') return tr('Please give at most {maximum} entries.');
      return issue.inclusive
        ? tr('Please enter a number of at most {maximum}.')
        : tr('Please enter a number below {maximum}.');
    case 'invalid_format':
      if (issue.format === 'email') return tr('Please enter a valid email address.');
      if (issue.format === 'url') return tr('Please enter a web address starting with http:// or https://.');
      if (issue.format === 'date') return tr('Please enter a date as YYYY-MM-DD.');
      return tr('This value has the wrong format.');
    case 'invalid_value':
      return tr('Please choose one of: {values}.');
    case 'unrecognized_keys':
      return tr('Unknown fields: {keys}.');
    case 'not_multiple_of':
      return tr('Please enter a multiple of {divisor}.');
    default:
      return tr('This value is not valid.');
  }
}

/**
 * The message of an issue as an id with its figures: a schema's own sentence may name the issue's
 * figures ({minimum}, {maximum}, {values}, {keys}) or, for a custom issue, its params.
 */
function issueMessage(issue: z.core.$ZodIssue): Message {
  const figures: Record<string, Param> = {};
  for (const name of ['minimum', 'maximum', 'divisor'] as const) {
    const value = (issue as Partial<Record<typeof name, unknown>>)[name];
    if (typeof value === 'number' || typeof value === 'bigint') figures[name] = String(value);
  }
  if (issue.code === 'invalid_value') figures.values = issue.values.map(String);
  if (issue.code === 'unrecognized_keys') figures.keys = issue.keys;
  if (issue.code === 'custom' && issue.params) Object.assign(figures, issue.params);
  const own = issue.message === zodDefault ? ownSentence(issue) : new Message(issue.message);
  return new Message(own.id, { ...figures, ...own.params });
}

/** Parses input with a zod schema; on failure a 400 naming every bad field. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input, { error: markDefault });
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    errors[field] ??= issueMessage(issue);
  }
  return rejectFields(errors) as never;
}

type InputContext = { request: { body?: unknown }; state: { input?: { schema: unknown; value: unknown } } };

/**
 * Reads the request's body with the route's `input` schema (a 400 naming every bad field) and keeps it
 * on the request: the route table does so before the route's transaction, its lock and `around`.
 */
export function readBody(ctx: InputContext, schema: z.ZodType): void {
  ctx.state.input = { schema, value: parse(schema, ctx.request.body) };
}

/**
 * The body as the route table read it with `schema`. A handler that reads a body with a schema its
 * route does not declare as `input` would parse it inside its transaction, after the lock: that is a
 * mistake in the route, and fails every request to it, so a test of the route finds it at once.
 */
export function readInput<S extends z.ZodType>(ctx: InputContext, schema: S): z.infer<S> {
  const read = ctx.state.input;
  if (read?.schema !== schema)
    throw new Error('The route reads a body with a schema it does not declare as its input.');
  return read.value as z.infer<S>;
}

/** A numeric route parameter such as /vendors/:id. */
export function idParam(value: string | undefined, what = 'entry'): number {
  const id = Number(value);
  if (!value || !/^\d{1,9}$/.test(value) || id < 1)
    throw badRequest(tr('"{value}" is not a valid {what} id.', { value: String(value), what }));
  return id;
}
