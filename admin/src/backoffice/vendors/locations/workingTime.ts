export type WorkingTime =
  | { kind: 'allDay' | 'mornings' | 'afternoons' }
  | { kind: 'weekly'; ranges: { day: string; from: string; to: string }[] };

/** "All day", or the weekly times as "Mon 08:00–12:00, Wed 08:00–12:00". */
export function describeWorkingTime(time: WorkingTime | undefined, translate: (key: string) => string): string {
  if (!time) return '';
  if (time.kind !== 'weekly') return translate(`app.location.${time.kind}`);
  return time.ranges.map((r) => `${translate(`app.location.day_${r.day}`)} ${r.from}–${r.to}`).join(', ');
}
