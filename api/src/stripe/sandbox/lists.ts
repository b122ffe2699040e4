import { invalidParam } from './errors.ts';
import { integer, text, type Params } from './form.ts';
import type { StripeObject } from './store.ts';

// Stripe's list answers (https://docs.stripe.com/api/pagination): newest first, `limit` 1 to 100
// (10 unless given), `starting_after` / `ending_before` an object id of the list, and range
// filters such as `created[gte]`.

export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

/** One page of `all` (oldest first, as stored) as Stripe lists it: newest first. */
export function page<T extends StripeObject>(all: T[], params: Params, url: string): StripeList<T> {
  const limit = integer(params, 'limit', { min: 1 }) ?? 10;
  if (limit > 100) throw invalidParam('limit', 'Invalid limit: must be between 1 and 100.');
  const newest = [...all].reverse();
  const after = text(params, 'starting_after');
  const before = text(params, 'ending_before');
  const at = (id: string, name: string) => {
    const index = newest.findIndex((object) => object.id === id);
    if (index < 0) throw invalidParam(name, `No such object: '${id}'`, 'resource_missing');
    return index;
  };
  if (before !== undefined) {
    const end = at(before, 'ending_before');
    return { object: 'list', data: newest.slice(Math.max(0, end - limit), end), has_more: end > limit, url };
  }
  const start = after === undefined ? 0 : at(after, 'starting_after') + 1;
  return {
    object: 'list',
    data: newest.slice(start, start + limit),
    has_more: newest.length > start + limit,
    url,
  };
}

/** A range filter (`created`, `arrival_date`): an exact time, or `gt`, `gte`, `lt`, `lte`. */
export function inRange(params: Params, name: string): (time: number) => boolean {
  const value = params[name];
  if (value === undefined) return () => true;
  if (typeof value === 'string') {
    const exact = integer(params, name);
    return (time) => time === exact;
  }
  if (Array.isArray(value)) throw invalidParam(name, `Invalid ${name}: must be an integer or a hash.`);
  const bounds: [string, (time: number, bound: number) => boolean][] = [
    ['gt', (time, bound) => time > bound],
    ['gte', (time, bound) => time >= bound],
    ['lt', (time, bound) => time < bound],
    ['lte', (time, bound) => time <= bound],
  ];
  for (const key of Object.keys(value))
    if (!bounds.some(([known]) => known === key))
      throw invalidParam(`${name}[${key}]`, `Received unknown parameter: ${name}[${key}]`, 'parameter_unknown');
  const checks = bounds
    .map(([key, test]) => [integer(value, key, { parent: name }), test] as const)
    .filter((check): check is readonly [number, (time: number, bound: number) => boolean] => check[0] !== undefined);
  return (time) => checks.every(([bound, test]) => test(time, bound));
}
