import { z } from 'zod';

// Field rules mirror the checks in migrations/001_catalogue.ts, so bad input gets a message per
// field here instead of a generic constraint error from the database.

const isMissing = (input: unknown) => input === undefined || input === null;

export const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (isMissing(issue.input) ? 'This field is required.' : 'Please enter text.') })
    .trim()
    .min(1, 'This field is required.')
    .max(max, 'Please use at most {maximum} characters.');

/** Text that the database stores as '' when absent; react-admin sends null for a cleared input. */
export const optionalText = (max: number) =>
  z
    .string({ error: 'Please enter text.' })
    .trim()
    .max(max, 'Please use at most {maximum} characters.')
    .nullish()
    .transform((value) => value ?? '');

const number = (limit: number, message: string) =>
  z
    .number({ error: message })
    .min(-limit, message)
    .max(limit, message)
    .nullish()
    .transform((value) => value ?? null);

export const latitude = number(90, 'Please enter the latitude as a number between -90 and 90.');
export const longitude = number(180, 'Please enter the longitude as a number between -180 and 180.');

export const flag = z
  .boolean({ error: 'Please answer with true or false.' })
  .nullish()
  .transform((value) => value ?? false);

/** Empty strings from cleared form inputs mean "no value". */
const blankToNull = (value: unknown) => (typeof value === 'string' ? value.trim() || null : value);

const date = z.preprocess(
  blankToNull,
  z.iso
    .date({ error: 'Please enter a date as YYYY-MM-DD.' })
    .nullish()
    .transform((value) => value ?? null),
);

/** The language of the vendor's page /me: one it speaks, German when none is chosen. */
const language = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() || null : value),
  z
    .enum(['de', 'en'], { error: 'Please choose the language de or en.' })
    .nullish()
    .transform((value) => value ?? 'de'),
);

export const licenseIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

export const vendorInput = z.object(
  {
    licenseId: z
      .string({ error: (issue) => (isMissing(issue.input) ? 'This field is required.' : 'Please enter text.') })
      .trim()
      .regex(
        licenseIdPattern,
        'A licence ID has 1 to 40 letters, digits, "-" or "_" and starts with a letter or digit.',
      ),
    firstName: requiredText(100),
    lastName: optionalText(100),
    email: z.preprocess(
      blankToNull,
      z
        .email({ error: 'Please enter a valid email address.' })
        .max(254, 'Please use at most 254 characters.')
        .nullish()
        .transform((value) => value ?? null),
    ),
    language,
    telephone: optionalText(50),
    address: optionalText(300),
    postCode: optionalText(20),
    location: optionalText(300),
    longitude,
    latitude,
    workingTime: optionalText(300),
    registrationDate: date,
    vendorSince: date,
    hasBankAccount: flag,
    hasSmartphone: flag,
    onlineMap: flag,
    accountProofUrl: z.preprocess(
      blankToNull,
      z
        .url({ protocol: /^https?$/, error: 'Please enter a web address starting with http:// or https://.' })
        .max(1000, 'Please use at most 1000 characters.')
        .nullish()
        .transform((value) => value ?? null),
    ),
    debt: optionalText(1000),
    isDisabled: flag,
  },
  { error: 'Please send the vendor as a JSON object.' },
);

export type VendorInput = z.infer<typeof vendorInput>;

/** What PATCH /api/vendors/{id} may change: whether the vendor is deactivated. */
export const vendorStateInput = z.object(
  { isDisabled: z.boolean({ error: 'Please answer with true or false.' }) },
  { error: 'Please send the vendor as a JSON object.' },
);
