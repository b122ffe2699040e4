import type { Knex } from 'knex';
import { badRequest } from './errors.ts';
import { refuseNulIn } from './nul.ts';
import type { AppContext } from './routes.ts';
import { tr, languageOf, type Language } from '../language/messages.ts';

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

/**
 * Narrows a list's query by one filter value; `ctx` gives the request's settings (e.g. the time zone).
 * What it returns is ignored; `unknown` rather than `void`, since a knex builder is thenable and
 * `(query) => query.where(…)` would otherwise read as a promise dropped on the floor.
 */
export type ListFilter = (query: Knex.QueryBuilder, value: unknown, ctx: AppContext) => unknown;

export const maxPageSize = 1000;

function jsonParam(ctx: AppContext, name: string): unknown {
  const raw = ctx.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest(tr('The parameter "{name}" was given more than once.', { name }));
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(tr('The parameter "{name}" is not valid JSON.', { name }));
  }
  refuseNulIn(value, name);
  return value;
}

export function readListParams(ctx: AppContext, spec: ListSpec<never, unknown>) {
  const sort = jsonParam(ctx, 'sort') ?? spec.defaultSort;
  if (
    !Array.isArray(sort) ||
    sort.length !== 2 ||
    typeof sort[0] !== 'string' ||
    !/^(ASC|DESC)$/i.test(String(sort[1]))
  ) {
    throw badRequest('The parameter "sort" must look like ["field","ASC"].');
  }
  // Own properties only: "constructor" or "toString" would otherwise find Object's and reach the SQL.
  const column = Object.hasOwn(spec.sortable, sort[0]) ? spec.sortable[sort[0]] : undefined;
  if (!column) throw badRequest(tr('The list cannot be sorted by "{field}".', { field: sort[0] }));

  const range = jsonParam(ctx, 'range') ?? [0, maxPageSize - 1];
  if (
    !Array.isArray(range) ||
    range.length !== 2 ||
    !range.every((n) => Number.isInteger(n) && n >= 0) ||
    range[1] < range[0]
  ) {
    throw badRequest('The parameter "range" must look like [0,24].');
  }
  if (range[1] - range[0] + 1 > maxPageSize)
    throw badRequest(tr('At most {count} entries can be fetched at once.', { count: maxPageSize }));

  return {
    sort: [column, String(sort[1]).toUpperCase()] as [string, 'ASC' | 'DESC'],
    range: range as [number, number],
    filter: readListFilter(ctx, spec),
  };
}

/** The `filter` parameter, plus the spec's `queryFilters` given as plain query parameters. */
export function readListFilter(
  ctx: AppContext,
  { queryFilters = [] }: Pick<ListSpec<never, unknown>, 'queryFilters'>,
): Record<string, unknown> {
  const filter = jsonParam(ctx, 'filter') ?? {};
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw badRequest('The parameter "filter" must be a JSON object.');
  }
  const plain = Object.fromEntries(
    queryFilters.filter((name) => ctx.query[name] !== undefined).map((name) => [name, ctx.query[name]]),
  );
  return { ...plain, ...(filter as Record<string, unknown>) };
}

/** Narrows `query` by every filter of the request; unknown or unreadable filters are a 400. */
export function applyFilters(
  ctx: AppContext,
  query: Knex.QueryBuilder,
  filter: Record<string, unknown>,
  spec: ListSpec<never, unknown>,
): void {
  for (const [name, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    if (name === 'id') {
      const ids = Array.isArray(value) ? value : [value];
      if (!ids.every((id) => Number.isInteger(Number(id)) && Number(id) > 0 && Number(id) < 2 ** 31)) {
        throw badRequest('The filter "id" must hold entry ids.');
      }
      query.whereIn(spec.idColumn, ids.map(Number));
      continue;
    }
    const apply = spec.filters && Object.hasOwn(spec.filters, name) ? spec.filters[name] : undefined;
    if (!apply) throw badRequest(tr('The list cannot be filtered by "{name}".', { name }));
    apply(query, value, ctx);
  }
}

/**
 * Answers a list request: filters, total count, sort, page, and the `Content-Range` header that
 * react-admin reads for pagination.
 */
export async function respondList<Row, Out>(
  ctx: AppContext,
  base: Knex.QueryBuilder,
  spec: ListSpec<Row, Out>,
): Promise<void> {
  const { sort, range, filter } = readListParams(ctx, spec);
  applyFilters(ctx, base, filter, spec);
  const counted = await base
    .clone()
    .clearSelect()
    .clearOrder()
    .count({ total: '*' })
    .first<{ total?: number } | undefined>();
  const total = Number(counted?.total ?? 0);
  const rows = (await base
    .orderByRaw(`${sort[0]} ${sort[1]} nulls last`)
    .orderBy(spec.idColumn, sort[1] === 'ASC' ? 'asc' : 'desc')
    .offset(range[0])
    .limit(range[1] - range[0] + 1)) as Row[];
  const end = rows.length ? range[0] + rows.length - 1 : range[0];
  ctx.set('Content-Range', `${spec.resource} ${range[0]}-${end}/${total}`);
  // Labels of our own in the rows (an account's name) are in the caller's language.
  const language = languageOf(ctx.get('Accept-Language'));
  ctx.vary('Accept-Language');
  ctx.body = rows.map((row) => spec.toApi(row, language));
}

/** A filter on a column with a fixed set of values; one value or a list of them (react-admin sends both). */
export function oneOfFilter(name: string, column: string, allowed: readonly string[]): ListFilter {
  return (query, value) => {
    const values = Array.isArray(value) ? value : [value];
    if (!values.length || !values.every((v) => typeof v === 'string' && allowed.includes(v))) {
      throw badRequest(tr('The filter "{name}" must be one of {allowed}.', { name, allowed }));
    }
    query.whereIn(column, values);
  };
}

/** A filter on an id column; anything that is not an id (or beyond the column's range) is refused, not sent to the database. */
export function idFilter(name: string, column: string, what: string): ListFilter {
  return (query, value) => {
    const id = Number(value);
    if (!Number.isInteger(id) || id < 1 || id >= 2 ** 31)
      throw badRequest(tr('The filter "{name}" must be {what}.', { name, what }));
    query.where(column, id);
  };
}
