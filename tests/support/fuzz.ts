import http from 'node:http';
import fc from 'fast-check';
import type { z } from 'zod';
import Stripe from 'stripe';
import type { RouteDef } from '../../api/src/http/routes.ts';

// Generators for the fuzz test: malformed requests of every kind an attacker, a broken client or a
// confused proxy sends, plus bodies shaped like what a route expects (field names and types taken
// from its zod schema, values mixed with real ids and licence IDs), so that the checks deep inside
// a handler are reached and not only the JSON parser.

/** Real values of the database under test; mixing them in lets generated requests find real rows. */
export interface Pools {
  /** Numbers that mean something: ids of vendors, items, orders, payouts, credits in cents. */
  numbers: number[];
  /** Texts that mean something: licence IDs, receipt tokens, download ids, file ids, e-mails. */
  texts: string[];
  /** Valid values by field name (`vendor`, `entries`, `expectedAmount`, …), so that some requests get all the way through. */
  fields: Record<string, unknown[]>;
}

/** Who sends a request: nobody, a vendor, the office, or somebody with a forged or broken header. */
export type Caller = 'anonymous' | 'vendor' | 'backoffice' | 'forged';

/** One generated request, raw: exactly these bytes go on the wire. */
export interface FuzzRequest {
  caller: Caller;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** What a route's body is checked against, for bodies shaped like valid ones. */
export type BodySchemas = Record<string, z.ZodType>;

const sqlFragments = [
  "' or '1'='1",
  "'; drop table ledger_rows; --",
  '1; delete from payouts',
  "1' union select password_hash from accounts --",
  '$$; truncate vendors; $$',
  "\\'; commit; --",
  '%_%',
  '1)::int8--',
];
const scriptFragments = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '</style><script>x</script>',
  'javascript:alert(1)',
  '{{constructor.constructor("return process")()}}',
  '${7*7}',
];
const unicodeTricks = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eRTL\u202d',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  '\ufeff',
  'Z\u0351\u0352\u0353\u0354',
  '\u{1f4a9}\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  'ǅ İ ß ﬃ',
  '\r\n\t',
  ' ',
  '',
];
/** Strings that are almost valid for the forms and converters (booleans, cents, colours, addresses, JSON). */
const formish = [
  'true',
  'false',
  'on',
  'off',
  '0',
  '1',
  '-1',
  '150',
  '1,50',
  '1.5',
  '1e3',
  '0x10',
  '2147483647',
  '2147483648',
  '9223372036854775808',
  '-2147483649',
  '#000',
  '#AABBCC',
  '#ggg',
  'red',
  'https://example.org',
  'http://localhost.evil.com',
  'ftp://x',
  '//evil.example',
  '@example.org',
  'example.org',
  '48.2082',
  '16,37',
  '91',
  '2026-05-01',
  '2026-02-30',
  '2026-05-01T14:00:00+02:00',
  '0000-01-01',
  '+275760-09-13',
  '{"dotType":"dots"}',
  '{"x":1}',
  '["https://a.example"]',
  '[1,2]',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '__proto__',
  'DEMO-1',
  'demo-1',
  'a@b.c',
  'x@y',
  'de',
  'en-GB',
];
const numberEdges = [
  0,
  -0,
  1,
  -1,
  2,
  49,
  50,
  100,
  250,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  1e21,
  1e308,
  5e-324,
  0.5,
  1.5,
  99.99,
  -0.01,
  1e-7,
];

const text = (pools: Pools) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...pools.texts) },
    { weight: 3, arbitrary: fc.constantFrom(...formish) },
    { weight: 2, arbitrary: fc.constantFrom(...sqlFragments, ...scriptFragments, ...unicodeTricks) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(300), 'ü'.repeat(2100), 'A'.repeat(70_000)) },
  );

const number = (pools: Pools) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...pools.numbers) },
    { weight: 3, arbitrary: fc.constantFrom(...numberEdges) },
    { weight: 2, arbitrary: fc.integer({ min: -5, max: 5000 }) },
    { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  );

/** Any JSON value, with the wrong types, odd keys and nesting a route does not expect. */
const junkValue = (pools: Pools): fc.Arbitrary<unknown> =>
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      number(pools),
      text(pools),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', '', 'a.b', '$where'), text(pools)),
        tie('value'),
        { maxKeys: 4 },
      ),
    ),
  })).value;

/** zod's own description of a schema (type, shape, checks, wrapped schema). */
const defOf = (schema: unknown) => (schema as { _zod: { def: Record<string, unknown> } })._zod.def;

/** The schema behind wrappers that only change how a value is read (optional, default, preprocess, …). */
function inner(schema: z.ZodType): z.ZodType | undefined {
  const def = defOf(schema);
  if (def.type === 'pipe') return (defOf(def.in).type === 'transform' ? def.out : def.in) as z.ZodType;
  if ('innerType' in def) return def.innerType as z.ZodType;
  return undefined;
}

/**
 * Values shaped by a zod schema: objects with its field names (some left out, some added), strings
 * matching its patterns and formats, numbers and booleans where it wants them; one value in eight
 * is junk instead, so each field's own refusal is reached too.
 */
function shaped(schema: z.ZodType, pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 7, arbitrary: plausible(schema, pools) }, { weight: 1, arbitrary: junkValue(pools) });
}

function plausible(schema: z.ZodType, pools: Pools): fc.Arbitrary<unknown> {
  const unwrapped = inner(schema);
  if (unwrapped)
    return fc.oneof(
      { weight: 5, arbitrary: shaped(unwrapped, pools) },
      { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
    );
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.fromEntries(
        Object.entries(shape).map(([name, field]) => {
          const valid = pools.fields[name];
          return [
            name,
            valid
              ? fc.oneof(
                  { weight: 3, arbitrary: fc.constantFrom(...valid) },
                  { weight: 1, arbitrary: shaped(field, pools) },
                )
              : shaped(field, pools),
          ];
        }),
      );
      return fc
        .tuple(
          fc.oneof(
            { weight: 3, arbitrary: fc.record(fields) },
            { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
          ),
          fc.dictionary(
            fc.constantFrom('id', 'price', 'status', 'amount', 'credit', 'extra', '__proto__'),
            junkValue(pools),
            { maxKeys: 2 },
          ),
        )
        .map(([record, extra]) => ({ ...extra, ...record }));
    }
    case 'array':
      return fc.array(shaped(def.element as z.ZodType, pools), { maxLength: 4 });
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => shaped(option, pools)));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'boolean':
      return fc.boolean();
    case 'number':
      return number(pools);
    case 'string':
      return stringFor(def, pools);
    default:
      return junkValue(pools);
  }
}

const formats: Record<string, string[]> = {
  email: ['office@example.org', 'a@b.co', 'not-an-email', 'x@y', `${'a'.repeat(250)}@example.org`],
  url: ['https://example.org/proof', 'http://x.test', 'javascript:alert(1)', 'https://', 'mailto:x@y.z'],
  date: ['2026-05-01', '2026-02-30', '1999-12-31', '99999-01-01', '2026-5-1'],
};

function stringFor(def: Record<string, unknown>, pools: Pools): fc.Arbitrary<string> {
  const checks = ((def.checks ?? []) as { _zod: { def: { format?: string; pattern?: RegExp } } }[]).map(
    (check) => check._zod.def,
  );
  const pattern = checks.find((check) => check.format === 'regex')?.pattern;
  const formatName = def.format ?? checks.find((check) => check.format && formats[check.format])?.format;
  const format = typeof formatName === 'string' ? formats[formatName] : undefined;
  const specific = pattern ? fc.stringMatching(pattern) : format ? fc.constantFrom(...format) : undefined;
  return specific ? fc.oneof({ weight: 2, arbitrary: specific }, { weight: 1, arbitrary: text(pools) }) : text(pools);
}

/** Each byte as a URL carries it: unreserved ones as they are, every other one percent-encoded. */
const encodedBytes = Array.from({ length: 256 }, (_, byte) =>
  /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
    ? String.fromCharCode(byte)
    : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
);

/**
 * Percent-encodes every byte but the unreserved ones; lone surrogates become U+FFFD as in a browser.
 * Byte by byte from a table: the generated texts run to 70,000 characters.
 */
function encode(value: string): string {
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) encoded += encodedBytes[byte];
  return encoded;
}

/** Path segments that mean something else than they look: traversal, NUL, broken escapes, numbers beyond every integer type. */
const segmentTricks = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F%2E%2E',
  '%00',
  'a%00b',
  '%',
  '%zz',
  '%ED%A0%80',
  '%C0%AE',
  '%2F',
  '%5C..%5C',
  ';',
  '%20',
  '+',
  '0',
  '-1',
  '00001',
  '1.5',
  '1e3',
  '0x1F',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999999',
  '-0',
  'NaN',
  '%EF%BC%91',
  'A'.repeat(5000),
];

function segment(pools: Pools, real: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...real) },
    { weight: 3, arbitrary: fc.constantFrom(...segmentTricks) },
    { weight: 2, arbitrary: text(pools).map(encode) },
    { weight: 1, arbitrary: number(pools).map((n) => encode(String(n))) },
  );
}

/** The route's path with its parameters filled in, sometimes bent by a slash or a traversal. */
function pathOf(route: RouteDef, pools: Pools, params: Record<string, string[]>): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  const values = fc.tuple(...names.map((name) => segment(pools, params[name] ?? ['1'])));
  const same = (p: string) => p;
  const bend = fc.constantFrom<(path: string) => string>(
    ...new Array(18).fill(same),
    (p) => `${p}/`,
    (p) => p.replace('/api/', '/api//'),
    (p) => `${p}/../..${p}`,
    (p) => `/api/..${p}`,
    (p) => p.toUpperCase(),
    (p) => `${p}%2F..`,
  );
  return fc
    .tuple(values, bend)
    .map(([filled, bent]) => bent(names.reduce((path, name, i) => path.replace(`:${name}`, filled[i]), route.path)));
}

const queryNames = [
  'sort',
  'range',
  'filter',
  'format',
  'from',
  'to',
  'vendor',
  'item',
  'kind',
  'table',
  'lang',
  'rev',
  'order',
  'session_id',
  'q',
  'id',
];
const filterNames = [
  'q',
  'id',
  'status',
  'vendor',
  'from',
  'to',
  'item',
  'kind',
  'isDisabled',
  'hasCredit',
  'hasDebt',
  'reversed',
  'orderId',
  'user',
  'recordType',
  'recordId',
  'action',
  'disabled',
  'isLicenseItem',
  'nope',
];
const listValues = [
  '["id","ASC"]',
  '["credit","DESC"]',
  '["createdAt","asc"]',
  '["nope","ASC"]',
  '["id","DROP"]',
  '["id"]',
  '"id"',
  '[1,2]',
  '{}',
  '[0,9]',
  '[0,999]',
  '[0,1000]',
  '[5,2]',
  '[-1,2]',
  '[0,1e9]',
  '[0.5,3]',
  '[1e20,1e20]',
  '[0,9007199254740993]',
  '[null,null]',
  'csv',
  'json',
  'items',
  'series',
  'en',
  'de',
  '[',
  '{"q":',
  'null',
  'true',
  '[]',
];

function queryOf(pools: Pools): fc.Arbitrary<string> {
  const filter = fc
    .dictionary(fc.constantFrom(...filterNames), fc.oneof(junkValue(pools), text(pools)), { maxKeys: 3 })
    .map((f) => JSON.stringify(f));
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...listValues) },
    { weight: 2, arbitrary: filter },
    { weight: 3, arbitrary: text(pools) },
    { weight: 1, arbitrary: junkValue(pools).map((v) => JSON.stringify(v) ?? '') },
  );
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...queryNames), fc.constantFrom('filter[q]', 'sort[]', 'range[0]', '__proto__', '')),
    value,
  );
  return fc
    .tuple(
      fc.array(pair, { maxLength: 4 }),
      fc.boolean(),
      fc.constantFrom('', '', '', '&', '&&=', '%zz=%zz', '&sort=["id","ASC"]'),
    )
    .map(([pairs, raw, tail]) => {
      // Duplicated keys come from the pairs themselves; `raw` sends a value unescaped, as broken clients do.
      const query =
        pairs.map(([k, v]) => `${encode(k)}=${raw ? v.replace(/[^\x21-\x7e]/g, encode) : encode(v)}`).join('&') + tail;
      return query ? `?${query}` : '';
    });
}

interface Payload {
  type?: string;
  body?: Buffer;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'undefined');
const asFormText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** A multipart/form-data body, written by hand so that broken ones can be written as well. */
function multipart(
  fields: [string, string][],
  files: { field: string; name: string; type: string; bytes: Buffer }[],
  boundary = 'fuzzBoundary7MA4YWxk',
): Payload {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name.replace(/["\r\n]/g, '_')}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

export interface SampleFiles {
  png: Buffer;
  pdf: Buffer;
}

function uploads(files: SampleFiles): fc.Arbitrary<{ field: string; name: string; type: string; bytes: Buffer }[]> {
  const file = fc.record({
    field: fc.constantFrom('image', 'pdf', 'logo', 'favicon', 'qrCodeLogo', 'name', 'other'),
    name: fc.constantFrom(
      'a.png',
      'edition.pdf',
      '../../etc/passwd',
      '..\\..\\boot.ini',
      'ü😀.png',
      '',
      'x'.repeat(300),
      'a.png\u0000.exe',
    ),
    type: fc.constantFrom('image/png', 'application/pdf', 'image/svg+xml', 'text/html', 'application/octet-stream', ''),
    bytes: fc.oneof(
      fc.constantFrom(
        files.png,
        files.pdf,
        Buffer.alloc(0),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        Buffer.from('%PDF-1.4 broken'),
      ),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(files.png.subarray(0, 20)),
    ),
  });
  return fc.array(file, { maxLength: 2 });
}

/** Bodies for a route: shaped like its schema in the encoding it reads, and everything else a server can be sent. */
function payloadOf(
  route: RouteDef,
  schema: z.ZodType | undefined,
  pools: Pools,
  files: SampleFiles,
): fc.Arbitrary<Payload> {
  const value = schema ? shaped(schema, pools) : junkValue(pools);
  const asJson = value.map((v): Payload => ({ type: 'application/json', body: json(v) }));
  const asForm = fc.tuple(value, uploads(files)).map(([v, f]) => {
    const fields =
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.entries(v)
            .filter(([, x]) => x !== undefined)
            .map(([k, x]): [string, string] => [k, asFormText(x)])
        : [['value', asFormText(v)] as [string, string]];
    return multipart(fields, f);
  });
  const asCss = text(pools).map((css): Payload => ({
    type: 'text/css',
    body: Buffer.from(`#shop { color: red; } ${css}`),
  }));
  const native = { json: asJson, multipart: asForm, css: asCss, raw: asJson }[route.body ?? 'json'];
  const odd = fc.oneof(
    fc.constant<Payload>({}),
    fc.constant<Payload>({ type: 'application/json', body: Buffer.alloc(0) }),
    fc
      .constantFrom(
        '{',
        '{"a":',
        '[1,]',
        '{"vendor":"DEMO-1","vendor":{"x":1}}',
        '\ufeff{}',
        '{"a":"\u0000"}',
        'nul\u0000l',
        '"\\ud800"',
        '1e999',
        '{"__proto__":{"admin":true}}',
      )
      .map((body): Payload => ({ type: 'application/json', body: Buffer.from(body) })),
    fc
      .tuple(
        value,
        fc.constantFrom(
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/json; charset=x-unknown',
          'APPLICATION/JSON',
          'application/vnd.api+json',
          'application/json-patch+json',
        ),
      )
      .map(([v, type]): Payload => ({ type, body: json(v) })),
    value.map((v): Payload => ({ type: 'text/plain', body: json(v) })),
    value.map((v): Payload => ({ body: json(v) })),
    value.map((v): Payload => ({
      type: 'application/x-www-form-urlencoded',
      body: Buffer.from(
        v && typeof v === 'object'
          ? new URLSearchParams(Object.entries(v).map(([k, x]) => [k, asFormText(x)])).toString()
          : asFormText(v),
      ),
    })),
    fc.constantFrom<Payload>(
      { type: 'multipart/form-data', body: Buffer.from('--x\r\n\r\njunk') },
      {
        type: 'multipart/form-data; boundary=x',
        body: Buffer.from('--x\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--x--'),
      },
      { type: 'multipart/form-data; boundary=x', body: Buffer.from('--y\r\n') },
      { type: 'multipart/form-data; boundary=""', body: Buffer.alloc(10) },
      { type: 'text/css', body: Buffer.from('</style><script>alert(1)</script>') },
      { type: 'application/octet-stream', body: Buffer.from([0, 255, 254, 0]) },
    ),
    // Beyond every body limit of the API (the largest is 1 MB for signed webhooks).
    fc
      .constantFrom('application/json', 'text/css', 'multipart/form-data; boundary=x')
      .map((type): Payload => ({ type, body: Buffer.alloc(1_100_000, 0x61) })),
  );
  return fc.oneof({ weight: route.body ? 6 : 1, arbitrary: native }, { weight: 3, arbitrary: odd });
}

const forgedAuthorization = [
  'Bearer ',
  'Bearer x.y.z',
  'Bearer eyJhbGciOiJub25lIn0.eyJncm91cHMiOlsiYmFja29mZmljZSJdfQ.',
  'Basic b2ZmaWNlOm9mZmljZQ==',
  'bearer',
  'Bearer  a b',
  `Bearer ${'a'.repeat(9000)}`,
  'Bearer %00',
  'Token abc',
  'Bearer ../../etc/passwd',
  'Bearer ' + 'eyJ'.repeat(50),
];

/** Headers beside the body: the caller's token (or a forged one), proxies, origins and Stripe's signature. */
function headersOf(
  route: RouteDef,
  tokens: Record<'vendor' | 'backoffice', string>,
  pools: Pools,
): fc.Arbitrary<{ caller: Caller; headers: Record<string, string> }> {
  // Most requests come from a caller the route lets in, so its validation is reached, not only the 401/403.
  const allowed: Caller = route.access === 'vendor' ? 'vendor' : route.access === 'public' ? 'anonymous' : 'backoffice';
  const caller = fc.oneof(
    { weight: 6, arbitrary: fc.constant(allowed) },
    { weight: 1, arbitrary: fc.constantFrom<Caller>('anonymous', 'vendor', 'backoffice', 'forged') },
  );
  const headerText = text(pools).map((v) => v.replace(/[^\x20-\x7e]/g, '?').slice(0, 8000));
  const extra = fc.dictionary(
    fc.constantFrom(
      'X-Forwarded-For',
      'X-Forwarded-Proto',
      'X-Forwarded-Host',
      'Forwarded',
      'Origin',
      'Accept',
      'Accept-Encoding',
      'Accept-Language',
      'If-None-Match',
      'Range',
      'Stripe-Signature',
      'Cookie',
      'X-Request-Id',
    ),
    fc.oneof(
      headerText,
      fc.constantFrom(
        '127.0.0.1, 10.0.0.1',
        '::1',
        'unknown',
        'https://localhost.evil.com',
        'null',
        'gzip;q=x, br;q=-1',
        '*/*;q=0',
        'bytes=0-1,5-',
        't=1,v1=abc',
        `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      ),
    ),
    { maxKeys: 2 },
  );
  return fc.tuple(caller, extra, fc.constantFrom(...forgedAuthorization)).map(([who, headers, forged]) => {
    const authorization = who === 'forged' ? forged : who === 'anonymous' ? undefined : `Bearer ${tokens[who]}`;
    return { caller: who, headers: authorization ? { ...headers, Authorization: authorization } : headers };
  });
}

const otherMethods: string[] = ['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'DELETE', 'POST'];

export interface RequestSources {
  pools: Pools;
  /** Real values for each path parameter name (`id`, `licenseId`, `token`, …). */
  params: Record<string, string[]>;
  tokens: Record<'vendor' | 'backoffice', string>;
  schemas: BodySchemas;
  files: SampleFiles;
}

/** Requests aimed at one route: mostly its own method, sometimes another one on its path. */
export function requestsFor(route: RouteDef, sources: RequestSources): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant<string>(route.method) },
    { weight: 1, arbitrary: fc.constantFrom(...otherMethods) },
  );
  const schema = sources.schemas[`${route.method} ${route.path}`];
  return fc
    .record({
      method,
      path: pathOf(route, sources.pools, sources.params),
      query: queryOf(sources.pools),
      payload: fc.oneof(
        {
          weight: route.method === 'GET' || route.method === 'DELETE' ? 1 : 8,
          arbitrary: payloadOf(route, schema, sources.pools, sources.files),
        },
        { weight: 1, arbitrary: fc.constant<Payload>({}) },
      ),
      who: headersOf(route, sources.tokens, sources.pools),
    })
    .map(({ method: m, path, query, payload, who }) => ({
      caller: who.caller,
      method: m,
      path: path + query,
      headers: payload.type === undefined ? who.headers : { ...who.headers, 'Content-Type': payload.type },
      body: payload.body,
    }));
}

/** What came back; `error` when no HTTP answer arrived at all (a reset, a hang, a broken stream). */
export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  error?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Sends the request byte for byte (no client library normalising the path or adding a content type). */
export function send(base: string, request: FuzzRequest, timeoutMs = 15_000): Promise<FuzzResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    // A body always has its length: without it, Node sends a GET's body unframed and it reads as the next request.
    const headers = request.body
      ? { ...request.headers, 'Content-Length': String(request.body.length) }
      : request.headers;
    const req = http.request(
      { agent, hostname, port, method: request.method, path: request.path, headers, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (error) =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: '',
            error: `the answer broke off: ${error.message}`,
          }),
        );
        res.on('aborted', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', error: 'the answer was aborted' }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve({ status: 0, headers: {}, text: '', error: error.message }));
    req.end(request.body);
  });
}

/** The request as a person reads it in a failure report (long bodies cut). */
export function describeRequest(request: FuzzRequest): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const headers = Object.entries(request.headers)
    .map(([k, v]) => `${k}: ${cut(v, 200)}`)
    .join('\n  ');
  return `${request.method} ${cut(request.path, 500)} as ${request.caller}\n  ${headers}\n  body: ${request.body ? cut(JSON.stringify(request.body.toString('utf8')), 1500) : '(none)'}`;
}

const ignoredEventTypes = [
  'payment_intent.created',
  'customer.created',
  'charge.refunded',
  'checkout.session.async_payment_failed',
  'x'.repeat(300),
  '',
];

/**
 * Webhook deliveries correctly signed with the sandbox's secret (`secret`), as Stripe sends them for things
 * that are not this shop's business: event types it ignores, sessions of other shops on the same
 * account (no order of ours in their metadata), charges of unknown payments. Stripe never signs an
 * event naming our order with a session it does not have, so none of these does either.
 */
export function signedWebhooks(pools: Pools, secret: string): fc.Arbitrary<FuzzRequest> {
  const foreignOrder = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('', '0', '-4', 'abc', '1.5', '9007199254740993', '2147483648'),
    text(pools).filter((v) => !/^\s*\d+\s*$/.test(v)),
  );
  const session = fc.record({
    id: text(pools).map((v) => `cs_${v}`),
    object: fc.constant('checkout.session'),
    metadata: foreignOrder.map((order) => (order === undefined ? {} : { order })),
    client_reference_id: fc.constant(null),
    payment_status: fc.constantFrom('paid', 'unpaid'),
  });
  const event = fc.oneof(
    fc.tuple(
      fc.constantFrom(
        'checkout.session.completed',
        'checkout.session.expired',
        'checkout.session.async_payment_succeeded',
      ),
      session,
    ),
    fc.tuple(
      fc.constant('charge.updated'),
      fc.record({
        id: text(pools),
        object: fc.constant('charge'),
        payment_intent: fc.oneof(
          fc.constant(null),
          text(pools).map((v) => `pi_${v}`),
        ),
      }),
    ),
    fc.tuple(
      fc.constantFrom(...ignoredEventTypes),
      fc.dictionary(fc.string({ maxLength: 8 }), junkValue(pools), { maxKeys: 3 }),
    ),
  );
  return fc.tuple(event, fc.string({ maxLength: 20 })).map(([[type, object], id]) => {
    const payload = JSON.stringify({
      id: `evt_fuzz_${encode(id)}`,
      object: 'event',
      type,
      api_version: Stripe.API_VERSION,
      created: 0,
      data: { object },
      livemode: false,
    });
    return {
      caller: 'anonymous',
      method: 'POST',
      path: '/api/webhooks/stripe',
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
      body: Buffer.from(payload),
    };
  });
}
