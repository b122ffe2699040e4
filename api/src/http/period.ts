import type { Knex } from 'knex';
import { badRequest } from './errors.ts';

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;

function instant(name: 'from' | 'to', value: unknown): Date {
  const raw = typeof value === 'string' ? value.trim() : '';
  const at = new Date(dateOnly.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(at.getTime())) {
    throw badRequest(`The filter "${name}" must be a date like 2026-05-01 or a time like 2026-05-01T14:00:00Z.`);
  }
  return at;
}

/**
 * The `from` and `to` list filters on a timestamp column. A bare date as `to` includes that whole
 * day, as a person picking "until 31 May" expects; a full timestamp is taken as it is.
 */
export function periodFilters(column: string): Record<'from' | 'to', (query: Knex.QueryBuilder, value: unknown) => void> {
  return {
    from: (query, value) => query.where(column, '>=', instant('from', value)),
    to: (query, value) => {
      const at = instant('to', value);
      if (dateOnly.test(String(value).trim())) query.where(column, '<', new Date(at.getTime() + 24 * 3600 * 1000));
      else query.where(column, '<=', at);
    },
  };
}
