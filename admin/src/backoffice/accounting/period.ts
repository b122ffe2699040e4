// The period presets of the money screens as calendar days ("2026-11-21"). The API reads a bare
// date in the newspaper's time zone and takes `to` as the whole of that day.

export type Preset = 'today' | 'this_week' | 'this_month' | 'last_month' | 'this_year';

export const presets: Preset[] = ['today', 'this_week', 'this_month', 'last_month', 'this_year'];

const day = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The preset's first and last day around `now`; weeks start on Monday. */
export function presetPeriod(preset: Preset, now = new Date()): { from: string; to: string } {
  const y = now.getFullYear();
  const m = now.getMonth();
  switch (preset) {
    case 'today':
      return { from: day(now), to: day(now) };
    case 'this_week': {
      const monday = new Date(y, m, now.getDate() - ((now.getDay() + 6) % 7));
      return { from: day(monday), to: day(new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + 6)) };
    }
    case 'this_month':
      return { from: day(new Date(y, m, 1)), to: day(new Date(y, m + 1, 0)) };
    case 'last_month':
      return { from: day(new Date(y, m - 1, 1)), to: day(new Date(y, m, 0)) };
    case 'this_year':
      return { from: day(new Date(y, 0, 1)), to: day(new Date(y, 11, 31)) };
  }
}
