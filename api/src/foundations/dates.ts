/** Timestamps as ISO 8601 UTC; both engines hand timestamptz back as Date, strings are tolerated. */
export const toIso = (value: Date | string | null): string | null =>
  value == null ? null : new Date(value).toISOString();
