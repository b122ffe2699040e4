import { addDays, localDay } from '../../shared/dates.ts';

// The period presets of the money screens as calendar days ("2026-11-21"). The API reads a bare
// date in the newspaper's time zone and takes `to` as the whole of that day, so "today" is the
// newspaper's today too, not the office computer's.

export type Preset = 'today' | 'this_week' | 'this_month' | 'last_month' | 'this_year';

export const presets: Preset[] = ['today', 'this_week', 'this_month', 'last_month', 'this_year'];

/** The day of a year, month (0-based, may run over) and day of month, as "YYYY-MM-DD". */
const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);

/** The preset's first and last day around `now` in the newspaper's zone; weeks start on Monday. */
export function presetPeriod(preset: Preset, now = new Date()): { from: string; to: string } {
  const today = localDay(now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'this_week': {
      const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
      return { from: monday, to: addDays(monday, 6) };
    }
    case 'this_month':
      return { from: day(y, m - 1, 1), to: day(y, m, 0) };
    case 'last_month':
      return { from: day(y, m - 2, 1), to: day(y, m - 1, 0) };
    case 'this_year':
      return { from: day(y, 0, 1), to: day(y, 11, 31) };
  }
}
