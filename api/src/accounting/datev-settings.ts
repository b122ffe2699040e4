import type { Knex } from 'knex';
import { z } from 'zod';
import { type Chart, chartDefaults, charts, type DatevRole, datevRoles } from '../ledger/postings.ts';

// The settings of the DATEV export, stored as one JSON object in the settings row (migration 016).
// They are the bookkeeper's business, not the shop's: they have their own route and never appear in
// the public settings.

type Db = Knex | Knex.Transaction;

/**
 * Roles added after newspapers saved their settings: a saved object (or a form) without one takes
 * the chart's default for it, instead of every account falling back to the defaults.
 */
const laterRoles: readonly DatevRole[] = [
  'bank',
  'disputes',
  'otherIncome',
  'otherExpense',
  'shortfall',
  'surplus',
  'rounding',
];

export interface DatevSettings {
  /** Beraternummer; empty until set. */
  adviserNumber: string;
  /** Mandantennummer; empty until set. */
  clientNumber: string;
  fiscalYearMonth: number;
  fiscalYearDay: number;
  chart: Chart;
  /** Sachkontenlänge: the digits of a general ledger account; personal accounts have one more. */
  accountLength: number;
  /** One collective account for all vendors, or a personal account each (base number + vendor number). */
  vendorAccounts: 'collective' | 'personal';
  accounts: Record<DatevRole, string>;
  /** The first personal account; vendor number n is booked on base + n. */
  vendorBase: string;
}

/** Digits as text; `error` names the field, as German needs a sentence of its own for each. */
const digits = (error: string) => z.string({ error }).trim();

/** A whole number from `min` to `max`, one message for every way of missing it. */
const whole = (min: number, max: number, error: string) =>
  z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

const stored = z.strictObject(
  {
    adviserNumber: digits('Please give the adviser number as digits.').regex(/^(|[1-9]\d{3,6})$/, {
      error: 'Please give the adviser number as 4 to 7 digits (1001 to 9999999), or leave it empty.',
    }),
    clientNumber: digits('Please give the client number as digits.').regex(/^(|[1-9]\d{0,4})$/, {
      error: 'Please give the client number as 1 to 5 digits (1 to 99999), or leave it empty.',
    }),
    fiscalYearMonth: whole(1, 12, 'Please choose a month from 1 to 12.'),
    fiscalYearDay: whole(1, 31, 'Please choose a day from 1 to 31.'),
    chart: z.enum(charts, { error: 'Please choose SKR03 or SKR04.' }),
    accountLength: whole(4, 8, 'Please choose an account length from 4 to 8.'),
    vendorAccounts: z.enum(['collective', 'personal'], { error: 'Please choose collective or personal.' }),
    accounts: z.strictObject(
      Object.fromEntries(
        datevRoles.map((role) => {
          const account = digits('Please give the account number as digits.').regex(/^\d{1,8}$/, {
            error: 'Please give the account number as digits.',
          });
          return [role, laterRoles.includes(role) ? account.optional() : account];
        }),
      ) as Record<DatevRole, z.ZodString>,
      { error: 'Please send the account numbers as an object with one number for each kind of account.' },
    ),
    vendorBase: digits('Please give the first personal account as digits.').regex(/^\d{5,9}$/, {
      error: 'Please give 5 to 9 digits.',
    }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'Unknown DATEV setting: {keys}.'
        : 'Please send the DATEV settings as a JSON object.',
  },
);

/** The number of days of each month in a year that is not a leap year: a fiscal year must start every year. */
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** PUT body: every setting; the account numbers must fit the account length chosen with them. */
export const datevSettingsForm = stored.superRefine((settings, ctx) => {
  if (settings.fiscalYearDay > (monthDays[settings.fiscalYearMonth - 1] ?? 31))
    ctx.addIssue({ code: 'custom', path: ['fiscalYearDay'], message: 'This month does not have this day every year.' });
  const defaults = chartDefaults[settings.chart];
  for (const role of laterRoles) settings.accounts[role] ??= defaults[role];
  for (const role of datevRoles) {
    if (settings.accounts[role].length > settings.accountLength)
      ctx.addIssue({
        code: 'custom',
        path: ['accounts', role],
        message: 'Please give at most {n} digits, as the account length says.',
        params: { n: settings.accountLength },
      });
  }
  const numbers = new Set<string>();
  for (const role of datevRoles) {
    if (numbers.has(settings.accounts[role]))
      ctx.addIssue({ code: 'custom', path: ['accounts', role], message: 'Each kind of account needs its own number.' });
    numbers.add(settings.accounts[role]);
  }
  if (settings.vendorBase.length !== settings.accountLength + 1)
    ctx.addIssue({
      code: 'custom',
      path: ['vendorBase'],
      message: 'Personal accounts have {n} digits: one more than the account length.',
      params: { n: settings.accountLength + 1 },
    });
});

/** The defaults of a new newspaper: SKR03, calendar year, account length 4, one collective vendor account. */
export function defaultDatevSettings(chart: Chart = 'SKR03', accountLength = 4): DatevSettings {
  return {
    adviserNumber: '',
    clientNumber: '',
    fiscalYearMonth: 1,
    fiscalYearDay: 1,
    chart,
    accountLength,
    vendorAccounts: 'collective',
    accounts: { ...chartDefaults[chart] },
    vendorBase: `7${'0'.repeat(accountLength)}`,
  };
}

/**
 * The stored settings over the defaults; a stored value that no longer passes its check is left out,
 * and so is an account of a kind the export no longer books (each account is read on its own).
 */
export async function readDatevSettings(db: Db): Promise<DatevSettings> {
  const row = await db('settings').where({ id: 1 }).first<{ datev: Record<string, unknown> } | undefined>('datev');
  const saved = row?.datev ?? {};
  const values = Object.fromEntries(
    Object.entries(stored.shape).flatMap(([key, schema]) => {
      if (key === 'accounts') return [];
      const parsed = schema.safeParse(saved[key]);
      return parsed.success ? [[key, parsed.data]] : [];
    }),
  ) as Partial<DatevSettings>;
  const savedAccounts = (saved.accounts ?? {}) as Record<string, unknown>;
  const accounts = Object.fromEntries(
    datevRoles.flatMap((role) => {
      const value = Object.hasOwn(savedAccounts, role) ? savedAccounts[role] : undefined;
      return typeof value === 'string' && /^\d{1,8}$/.test(value) ? [[role, value]] : [];
    }),
  );
  const defaults = defaultDatevSettings(values.chart, values.accountLength);
  return { ...defaults, ...values, accounts: { ...defaults.accounts, ...accounts } };
}

export async function saveDatevSettings(db: Db, settings: DatevSettings): Promise<DatevSettings> {
  await db('settings')
    .where({ id: 1 })
    .update({ datev: JSON.stringify(settings), updated_at: db.fn.now() });
  return readDatevSettings(db);
}
