import type { Knex } from 'knex';
import { badRequest } from './errors.ts';
import { refuseNulIn } from './nul.ts';
import type { AppContext } from './routes.ts';
import { tr, languageOf } from '../language/messages.ts';
import type { ListSpec } from '../foundations/lists.ts';

// Lists as answers: the `sort`, `range` and `filter` parameters of ra-data-simple-rest, the page and
// its Content-Range. What a list is (its columns and filters) is declared in api/src/foundations/lists.ts.

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
