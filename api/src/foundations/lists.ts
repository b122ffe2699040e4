import type { Knex } from 'knex';
import type { Config } from './config.ts';
import { invalidError } from './errors.ts';
import { tr, type Language } from '../language/messages.ts';
import { periodBound } from './period.ts';

// What a resource's list is: its columns to sort by, its filters and its rows as the API shows them.
// The domains declare their lists here; http/list-query.ts answers them by the ra-data-simple-rest contract.

/** How one resource's list answers the ra-data-simple-rest contract. */
export interface ListSpec<Row, Out> {
  resource: string;
  /** API field → SQL column or expression that it sorts by. */
  sortable: Record<string, string>;
  defaultSort: [field: string, order: 'ASC' | 'DESC'];
  /** The id column, used for `filter={"id":[…]}` (getMany) and as a stable tie-breaker. */
  idColumn: string;
  /** Further filters by API name; unknown filter names are refused, not silently ignored. */
  filters?: Record<string, ListFilter>;
  /** Filters also read from plain query parameters, as in the specification's `?from=…&to=…`. */
  queryFilters?: readonly string[];
  toApi: (row: Row, language: Language) => Out;
}

/** What a filter may read of the request: its settings (e.g. the time zone). */
export interface ListContext {
  config: Config;
}

/**
 * Narrows a list's query by one filter value; `ctx` gives the request's settings (e.g. the time zone).
 * What it returns is ignored; `unknown` rather than `void`, since a knex builder is thenable and
 * `(query) => query.where(…)` would otherwise read as a promise dropped on the floor.
 */
export type ListFilter = (query: Knex.QueryBuilder, value: unknown, ctx: ListContext) => unknown;

/** A filter on a column with a fixed set of values; one value or a list of them (react-admin sends both). */
export function oneOfFilter(name: string, column: string, allowed: readonly string[]): ListFilter {
  return (query, value) => {
    const values = Array.isArray(value) ? value : [value];
    if (!values.length || !values.every((v) => typeof v === 'string' && allowed.includes(v))) {
      throw invalidError(tr('The filter "{name}" must be one of {allowed}.', { name, allowed }));
    }
    query.whereIn(column, values);
  };
}

/** A filter on an id column; anything that is not an id (or beyond the column's range) is refused, not sent to the database. */
export function idFilter(name: string, column: string, what: string): ListFilter {
  return (query, value) => {
    const id = Number(value);
    if (!Number.isInteger(id) || id < 1 || id >= 2 ** 31)
      throw invalidError(tr('The filter "{name}" must be {what}.', { name, what }));
    query.where(column, id);
  };
}

/** The `from` and `to` list filters on a timestamp column, by the rule of period.ts. */
export function periodFilters(column: string): Record<'from' | 'to', ListFilter> {
  return {
    from: (query, value, ctx) => query.where(column, '>=', periodBound('from', value, ctx.config.timeZone)),
    to: (query, value, ctx) => query.where(column, '<', periodBound('to', value, ctx.config.timeZone)),
  };
}
