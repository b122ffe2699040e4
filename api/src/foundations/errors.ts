// What a domain refuses, as facts about what was asked, not as HTTP answers: the HTTP layer
// (api/src/http/errors.ts) turns each kind of refusal into a status once. Nothing here knows of
// requests, so domains, the ledger and command-line tools throw the same errors.

import { fieldLabel } from '../language/fields.ts';
import { asMessage, tr, type Text } from '../language/messages.ts';

/**
 * What kind of refusal it is. The names are those of the counter's refusals (ledger/errors.ts), so a
 * refusal of the money rules can be one of these too.
 */
export type RefusalKind =
  /** What was sent is not acceptable as it is: a value, a filter, a missing field. */
  | 'invalid'
  /** The person asking may not do this. */
  | 'forbidden'
  /** What was asked for does not exist (or is not to be found by this person). */
  | 'unknown'
  /** It contradicts the state things are in now: taken already, closed, paid, booked. */
  | 'conflict'
  /** The same client asked too often in a short time. */
  | 'too_many'
  /** A service the shop depends on (Stripe) failed or could not be reached; nothing was done. */
  | 'service_failed';

/** Field names to what a person reads beside the field. */
export type FieldErrors = Record<string, Text>;

/** A domain refused what was asked; `text` is meant for the person in front of the screen. */
export class DomainError extends Error {
  constructor(
    readonly refusal: RefusalKind,
    readonly text: Text,
    readonly errors?: FieldErrors,
    /** Extra facts for the screen, e.g. the credit as it is now, shown beside the message. */
    readonly details?: Record<string, unknown>,
  ) {
    super(String(text));
  }
}

/** Too many requests from one client: it may ask again after `retryAfterSeconds`. */
export class TooManyRequests extends DomainError {
  constructor(
    text: Text,
    readonly retryAfterSeconds: number,
  ) {
    super('too_many', text);
  }
}

export const invalidError = (text: Text, errors?: FieldErrors) => new DomainError('invalid', text, errors);
export const forbiddenError = (text: Text) => new DomainError('forbidden', text);
export const notFoundError = (text: Text) => new DomainError('unknown', text);
export const conflictError = (text: Text, errors?: FieldErrors) => new DomainError('conflict', text, errors);
export const serviceError = (text: Text) => new DomainError('service_failed', text);

/** Refuses as invalid, naming every bad field (`_` for the input as a whole); nothing when there is none. */
export function rejectFields(errors: FieldErrors): void {
  const first = Object.entries(errors)[0];
  if (!first) return;
  throw invalidError(
    first[0] === '_'
      ? first[1]
      : tr('Please check the field "{field}": {problem}', {
          field: fieldLabel(first[0]),
          problem: asMessage(first[1]),
        }),
    errors,
  );
}
