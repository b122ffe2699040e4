import { z } from 'zod';

// Field rules mirror the checks in migrations/001_catalogue.ts, so bad input gets a message per
// field here instead of a generic constraint error from the database.

const isMissing = (input: unknown) => input === undefined || input === null;

export const requiredText = (max: number) =>
  z
    .string({ error: (issue) => (isMissing(issue.input) ? 'This field is required.' : 'Please enter text.') })
    .trim()
    .min(1, 'This field is required.')
    .max(max, `Please use at most ${max} characters.`);

/** Text that the database stores as '' when absent; react-admin sends null for a cleared input. */
export const optionalText = (max: number) =>
  z
    .string({ error: 'Please enter text.' })
    .trim()
    .max(max, `Please use at most ${max} characters.`)
    .nullish()
    .transform((value) => value ?? '');

const number = (min: number, max: number, what: string) =>
  z
    .number({ error: `Please enter the ${what} as a number.` })
    .min(min, `The ${what} must be between ${min} and ${max}.`)
    .max(max, `The ${what} must be between ${min} and ${max}.`)
    .nullish()
    .transform((value) => value ?? null);

export const latitude = number(-90, 90, 'latitude');
export const longitude = number(-180, 180, 'longitude');

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
    language: optionalText(50),
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
