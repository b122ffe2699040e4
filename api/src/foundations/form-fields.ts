import { z } from 'zod';
import { Message, money, tr, type Text } from '../language/messages.ts';

// Multipart forms deliver every field as a string. These helpers turn such a string into the typed
// value (boolean, whole number, colour, URL, …) with a message a person understands, so items and
// settings parse their forms the same way.

/** What a converter answers when the text is not acceptable. */
export class Invalid {
  constructor(readonly message: Text) {}
}
export type Converter<T> = (value: string) => T | Invalid;

function formString(required: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? required : 'Please send this field as text.') });
}

function check<T>(convert: Converter<T>, value: string, ctx: z.core.$RefinementCtx): T {
  const out = convert(value);
  if (!(out instanceof Invalid)) return out;
  // The figures travel as the issue's params; http/validate.ts fills them into the sentence.
  const { id, params } = typeof out.message === 'string' ? new Message(out.message) : out.message;
  ctx.issues.push({ code: 'custom', message: id, params, input: value });
  return z.NEVER;
}

/** A form field that must hold a value; `required` is the message when it is missing. */
export function formField<T>(convert: Converter<T>, required = 'This field is required.') {
  return formString(required).transform((raw, ctx): T => check(convert, raw.trim(), ctx));
}

/** A form field where an empty string means "no value" (null). */
export function optionalFormField<T>(convert: Converter<T>) {
  return formString('This field is required.').transform((raw, ctx): T | null =>
    raw.trim() === '' ? null : check(convert, raw.trim(), ctx),
  );
}

/** A form field holding JSON, checked against `schema` (issues keep their path below the field). */
export function formJson<S extends z.ZodType>(schema: S) {
  return formString('This field is required.')
    .transform((raw, ctx): unknown => {
      try {
        return JSON.parse(raw);
      } catch {
        ctx.issues.push({ code: 'custom', message: 'Please send valid JSON.', input: raw });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

// Converters. Each gets the trimmed text.

export const text =
  ({
    max,
    min = 0,
    required = 'Please fill in this field.',
  }: {
    max: number;
    min?: number;
    required?: string;
  }): Converter<string> =>
  (value) => {
    if (value.length < min) return new Invalid(required);
    if (value.length > max) return new Invalid(tr('Please use at most {maximum} characters.', { maximum: max }));
    return value;
  };

export const boolean: Converter<boolean> = (value) => {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'on' || v === '1') return true;
  if (v === 'false' || v === 'off' || v === '0') return false;
  return new Invalid('Please choose yes or no (true or false).');
};

const int32 = 2 ** 31 - 1;

export const integer =
  ({ min = -int32, max = int32, message }: { min?: number; max?: number; message?: string } = {}): Converter<number> =>
  (value) => {
    if (!/^[+-]?\d+$/.test(value)) return new Invalid(message ?? 'Please enter a whole number.');
    const n = Number(value);
    if (n < min) return new Invalid(message ?? tr('Please enter a number of at least {minimum}.', { minimum: min }));
    if (n > max) return new Invalid(message ?? tr('Please enter a number of at most {maximum}.', { maximum: max }));
    return n;
  };

/**
 * Money is sent as an integer in the currency's minor unit; "1,50" or "1.5" is refused rather than
 * rounded. The example's 150 reads right in any currency: 1.50 in cents, ¥150 in yen.
 */
export const cents =
  ({ min = 0, max = int32 }: { min?: number; max?: number } = {}): Converter<number> =>
  (value) => {
    if (!/^[+-]?\d+$/.test(value))
      return new Invalid(
        tr("Please enter the amount in the currency's smallest unit, for example {minor} for {amount}.", {
          minor: '150',
          amount: money(150),
        }),
      );
    const n = Number(value);
    if (n < min)
      return new Invalid(
        min === 0
          ? 'The amount must not be negative.'
          : tr('The amount must be at least {minimum}.', { minimum: money(min) }),
      );
    if (n > max) return new Invalid(tr('Please enter at most {maximum}.', { maximum: money(max) }));
    return n;
  };

/** A decimal number such as a coordinate; a decimal comma is accepted as well as a point. */
export const decimal =
  ({ min, max }: { min: number; max: number }): Converter<number> =>
  (value) => {
    if (!/^[+-]?\d+([.,]\d+)?$/.test(value)) return new Invalid('Please enter a number, for example 48.2082.');
    const n = Number(value.replace(',', '.'));
    if (n < min || n > max) return new Invalid(tr('Please enter a number between {min} and {max}.', { min, max }));
    return n;
  };

export const colourPattern = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
export const colourMessage = 'Please enter a colour like #000 or #aabbcc.';

export const colour: Converter<string> = (value) => (colourPattern.test(value) ? value : new Invalid(colourMessage));

/** An http(s) address, or empty for none. */
export const url: Converter<string> = (value) => {
  if (value === '') return '';
  if (value.length > 2000) return new Invalid('Please use an address of at most 2000 characters.');
  const parsed = URL.canParse(value) ? new URL(value) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return new Invalid('Please enter an address starting with https:// or http://, or leave it empty.');
  }
  return value;
};

/** A numeric id of another entry, e.g. the item a select box points to. */
export const id = (message: string): Converter<number> => integer({ min: 1, message });

/**
 * A file field sent as text instead of a file: an empty string removes the stored file; any other
 * text (clients echo back the URL they were given) keeps it.
 */
export const fileAsText = z
  .string({ error: 'Please upload one file here, or send an empty text to remove the stored one.' })
  .transform((value) => (value === '' ? ('remove' as const) : ('keep' as const)));

/**
 * A VAT rate in percent ("7", "10", "5,5") as whole hundredths of a percent (700, 1000, 550), the
 * unit the database and api/src/ledger/vat.ts count in.
 */
export const vatRate: Converter<number> = (value) => {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(value);
  const rate = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(rate >= 0 && rate <= 10000))
    return new Invalid('Please enter the VAT rate in percent between 0 and 100, for example 7 or 5.5.');
  return rate;
};
