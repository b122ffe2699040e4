import { z } from 'zod';
import { invalidError } from './errors.ts';
import { tr } from '../language/messages.ts';

// One rule for every period in the API: `from` is inclusive, `to` exclusive. A time with an offset
// ("2026-05-01T00:00:00+02:00", "…Z") is that instant. A bare date is midnight in the newspaper's
// time zone, and a bare date as `to` includes that whole local day: staff picking "until 31 May"
// mean the 31st too. A time without an offset is a wall-clock time in that zone.

const isoLike = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The years a period may touch. A newspaper's books start after 2000 and a date past 2100 is a typo
 * or a probe; without a bound, "1970 to 9999" makes the statistics lay out a hundred thousand buckets
 * and walks dates past the year 9999, which JavaScript cannot write. Within these years the largest
 * series (months) has 1,212 buckets.
 */
export const periodYears = { first: 2000, last: 2100 } as const;

const withinYears = (year: number) => year >= periodYears.first && year <= periodYears.last;

/** The refusal of a date outside `periodYears`, for the field `name`. */
export function outsidePeriodYears(name: string) {
  return invalidError(tr('"{name}" must lie within the years {first} to {last}.', { name, ...periodYears }), {
    [name]: tr('Please choose a date within the years {first} to {last}.', periodYears),
  });
}

/** A calendar day ("2026-05-01") of a period, as a schema: the routes that take local days use it. */
export const periodDay = z.iso
  .date('Please give a date as YYYY-MM-DD.')
  .refine((day) => withinYears(Number(day.slice(0, 4))), {
    message: 'Please choose a date within the years {first} to {last}.',
    params: periodYears,
  });

/** The year of a calendar month or day ("2026-05", "2026-05-01"), refused outside `periodYears`. */
export function checkPeriodYear(name: string, value: string): void {
  if (!withinYears(Number(value.slice(0, 4)))) throw outsidePeriodYears(name);
}

export interface Period {
  from?: Date;
  to?: Date;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

/**
 * The zone's offset from UTC at an instant, in milliseconds. Clocks change on a quarter hour of UTC
 * in every zone's rules since 1970, so one lookup serves a quarter hour; a CSV of a year's rows asks
 * Intl a few thousand times instead of once per row (each ask costs a good fraction of a millisecond).
 */
export function zoneOffset(at: number, timeZone: string): number {
  const quarter = Math.floor(at / 900_000);
  const key = `${timeZone} ${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    let format = formatters.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      formatters.set(timeZone, format);
    }
    const start = quarter * 900_000;
    const parts = format.formatToParts(start);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    offset = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - start;
    if (offsets.size >= 200_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/**
 * The instant at which the zone's clocks show the wall time `wall` (given as a UTC timestamp). Near
 * a clock change both offsets around it are tried; a wall time the change skips takes the offset
 * from before it, one it repeats the offset from after it, as PostgreSQL's `at time zone` does.
 */
export function zonedInstant(wall: number, timeZone: string): Date {
  const offset = (at: number) => zoneOffset(at, timeZone);
  // Every offset lies within ±14 hours, so the instant lies between these two.
  const before = offset(wall - 14 * 3_600_000);
  const after = offset(wall + 14 * 3_600_000);
  const shows = (candidate: number) => offset(candidate) === wall - candidate;
  if (before === after || !shows(wall - after)) return new Date(wall - before);
  return new Date(wall - after);
}

/**
 * The local wall-clock time of an instant to the second, without an offset: "2026-11-27T14:03:00".
 * The one reading of an instant in a zone, for days, CSV cells, DSFinV-K's date-times and RKSV's receipts.
 */
export function localDateTime(at: Date | string, timeZone: string): string {
  const instant = new Date(at).getTime();
  return new Date(instant + zoneOffset(instant, timeZone)).toISOString().slice(0, 19);
}

/** The local calendar day of an instant, as "2026-05-01". */
export function localDay(at: Date, timeZone: string): string {
  return localDateTime(at, timeZone).slice(0, 10);
}

/** Midnight at the start of a local calendar day ("2026-05-01"). */
export function localMidnight(day: string, timeZone: string): Date {
  return zonedInstant(Date.parse(`${day}T00:00:00Z`), timeZone);
}

/** The day after a calendar day, "2026-05-31" → "2026-06-01". */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Reads one end of a period; a bare date as `to` means the end of that local day. */
export function periodBound(name: 'from' | 'to', value: unknown, timeZone: string): Date {
  const raw = typeof value === 'string' ? value.trim() : '';
  const match = isoLike.exec(raw);
  const refuse = () =>
    invalidError(tr('"{name}" must be a date like 2026-05-01 or a time like 2026-05-01T14:00:00+02:00.', { name }), {
      [name]: 'Please give a date like 2026-05-01 or a time like 2026-05-01T14:00:00+02:00.',
    });
  if (!match) throw refuse();
  checkPeriodYear(name, raw);
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0')),
  );
  const calendar = new Date(wall);
  // Date.UTC rolls 2026-02-30 over into March; a date that does not exist is refused instead.
  if (
    calendar.getUTCFullYear() !== Number(year) ||
    calendar.getUTCMonth() !== Number(month) - 1 ||
    calendar.getUTCDate() !== Number(day) ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59
  ) {
    throw refuse();
  }
  if (zone) {
    const at = new Date(raw.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    if (Number.isNaN(at.getTime())) throw refuse();
    return at;
  }
  const bareDate = raw.length === 10;
  if (bareDate && name === 'to') return localMidnight(nextDay(raw), timeZone);
  return zonedInstant(wall, timeZone);
}

/** Both ends of a period, each optional; a period that ends before it starts is refused. */
export function readPeriod(values: { from?: unknown; to?: unknown }, timeZone: string): Period {
  const present = (v: unknown) => v !== undefined && v !== null && v !== '';
  const period: Period = {
    from: present(values.from) ? periodBound('from', values.from, timeZone) : undefined,
    to: present(values.to) ? periodBound('to', values.to, timeZone) : undefined,
  };
  if (period.from && period.to && period.to <= period.from) {
    throw invalidError('The period ends before it starts.', { to: 'Please choose an end after the start.' });
  }
  return period;
}
