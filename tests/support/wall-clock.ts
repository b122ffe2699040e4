/**
 * Intl's own reading of an instant's wall clock in `timeZone`, to the second on a 24-hour clock: the
 * outside reading that the tests hold the product's local dates and times against. In 'sv-SE' it
 * writes ISO's order ("2026-11-27 14:03:00"), in 'de-DE' a German reader's ("27.11.2026, 14:03:00").
 */
export function wallClockFormat(locale: 'sv-SE' | 'de-DE', timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
}
