import type { IncomingMessage } from 'node:http';
import { invalidParam, StripeApiError } from './errors.ts';

/** A parameter as Stripe's form encoding carries it: text, a list, or a nested hash. */
export type Param = string | Param[] | { [key: string]: Param };
export type Params = { [key: string]: Param };

const maxPairs = 2000;
const maxDepth = 6;

/**
 * Stripe's bracket notation, as the SDK writes it: `line_items[0][price_data][unit_amount]=300`,
 * `metadata[order]=7`, `expand[]=payment_intent` (or `expand[0]=`). Hashes have no prototype, so a
 * key such as `__proto__` is just a key.
 */
export function parseParams(encoded: string): Params {
  const root = Object.create(null) as Params;
  const pairs = [...new URLSearchParams(encoded)];
  if (pairs.length > maxPairs)
    throw new StripeApiError(400, 'invalid_request_error', `At most ${maxPairs} parameters are accepted.`);
  for (const [key, value] of pairs) {
    const [, first, brackets = ''] = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key) ?? [];
    if (!first) throw invalidParam(key, `Invalid parameter name: ${key}`);
    // the inner group of the bracket pattern always matches, if only ''
    const path = [first, ...[...brackets.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')];
    if (path.length > maxDepth) throw invalidParam(key, `The parameter ${key} is nested too deeply.`);
    let node = root;
    path.forEach((segment, i) => {
      // `[]` appends: the next free index of this hash, made a list below.
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) {
        if (typeof node[name] === 'object')
          throw invalidParam(key, `Invalid value for ${key}: it is also used as a hash.`);
        node[name] = value;
        return;
      }
      const next = (node[name] ??= Object.create(null));
      if (typeof next !== 'object')
        throw invalidParam(key, `Invalid hash: ${path.slice(0, i + 1).join('.')} already has a value.`);
      node = next as { [key: string]: Param };
    });
  }
  return listify(root) as Params;
}

/** Hashes keyed 0, 1, 2, … are lists (the SDK writes arrays that way). */
function listify(param: Param): Param {
  if (typeof param === 'string') return param;
  const entries = Object.entries(param).map(([k, v]) => [k, listify(v)] as const);
  const indexed = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (indexed) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  return Object.assign(Object.create(null) as Record<string, Param>, Object.fromEntries(entries));
}

/** The raw request body as text, refusing more than `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new StripeApiError(
        413,
        'invalid_request_error',
        `The request body is larger than ${Math.round(limit / 1024)} KB.`,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// Readers for typed parameters with Stripe's messages.

/** Where a parameter sits, as Stripe names it in errors: `line_items[0][quantity]`. */
const fullName = (name: string, parent?: string) => (parent ? `${parent}[${name}]` : name);

export const missing = (name: string, parent?: string) =>
  invalidParam(fullName(name, parent), `Missing required param: ${fullName(name, parent)}.`, 'parameter_missing');

export function text(
  params: Params,
  name: string,
  { max = 5000, parent }: { max?: number; parent?: string } = {},
): string | undefined {
  const value = params[name];
  const full = fullName(name, parent);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidParam(full, `Invalid string: ${full} must be text.`);
  if (value.length > max) throw invalidParam(full, `Invalid string: ${full} must be at most ${max} characters long.`);
  return value;
}

export function requiredText(params: Params, name: string, options: { max?: number; parent?: string } = {}): string {
  const value = text(params, name, options);
  if (value === undefined || value === '') throw missing(name, options.parent);
  return value;
}

export function integer(
  params: Params,
  name: string,
  { min = 0, parent }: { min?: number; parent?: string } = {},
): number | undefined {
  const value = params[name];
  const full = fullName(name, parent);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d{1,15}$/.test(value))
    throw invalidParam(full, `Invalid integer: ${JSON.stringify(value)}`, 'parameter_invalid_integer');
  const n = Number(value);
  if (n < min) throw invalidParam(full, `Invalid ${full}: must be greater than or equal to ${min}.`);
  return n;
}

export function hash(params: Params, name: string, parent?: string): Params | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidParam(fullName(name, parent), `Invalid object: ${fullName(name, parent)} must be a hash.`);
  return value;
}

export function list(params: Params, name: string): Param[] | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (!Array.isArray(value)) throw invalidParam(name, `Invalid array: ${name} must be a list.`);
  return value;
}

/** `metadata`: at most 50 keys of text. */
export function metadata(params: Params, parent?: string): Record<string, string> {
  const name = fullName('metadata', parent);
  const value = hash(params, 'metadata', parent) ?? {};
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalidParam(name, 'Metadata can have at most 50 keys.');
  for (const [key, v] of entries) {
    if (typeof v !== 'string' || key.length > 40 || v.length > 500) {
      throw invalidParam(
        `${name}[${key}]`,
        'Metadata keys are text of at most 40 characters and values text of at most 500.',
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** `expand[]`: the paths of objects to inline. */
export function expandPaths(params: Params): string[] {
  return (list(params, 'expand') ?? []).map((path) => {
    if (typeof path !== 'string') throw invalidParam('expand', 'Invalid array: expand must hold text.');
    return path;
  });
}

/** Refuses parameters the sandbox does not know, as Stripe refuses unknown ones. */
export function onlyKnown(params: Params, known: readonly string[], parent?: string): void {
  for (const name of Object.keys(params)) {
    if (!known.includes(name))
      throw invalidParam(
        fullName(name, parent),
        `Received unknown parameter: ${fullName(name, parent)}`,
        'parameter_unknown',
      );
  }
}
