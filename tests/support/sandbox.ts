import path from 'node:path';
import type { Db } from '../../api/src/db/connection.ts';
import { sandboxCredentials } from '../../api/src/stripe/sandbox/keys.ts';

/**
 * Pays a sandbox Checkout Session the way a customer does: opens the hosted page and submits its
 * form with `card`. Answers where the page sends the browser next (the success URL with the session
 * id filled in); throws with the page's message when the card is refused or the session is not open.
 */
export async function payInSandbox(baseUrl: string, checkoutUrl: string, card = '4242424242424242'): Promise<string> {
  const page = new URL(new URL(checkoutUrl).pathname, baseUrl);
  const shown = await fetch(page);
  const html = await shown.text();
  if (shown.status !== 200 || !html.includes('id="sandbox-form"'))
    throw new Error(`The checkout page cannot be paid (HTTP ${shown.status}): ${pageMessage(html)}`);
  const paid = await fetch(page, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card, exp: '12 / 34', cvc: '123' }),
    redirect: 'manual',
  });
  const location = paid.headers.get('location');
  if (paid.status !== 303 || !location)
    throw new Error(`The payment was refused (HTTP ${paid.status}): ${pageMessage(await paid.text())}`);
  return location;
}

/** The card 4000 0000 0000 0010 pays without a fee; this books the fee later and sends `charge.updated`. */
export async function releaseHeldFee(db: Db, baseUrl: string, sessionId: string): Promise<void> {
  const res = await fetch(new URL(`/stripe-sandbox/sessions/${sessionId}/release-fee`, baseUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${(await sandboxCredentials(db)).secretKey}` },
  });
  if (!res.ok) throw new Error(`The fee could not be released (HTTP ${res.status}): ${await res.text()}`);
}

function pageMessage(html: string): string {
  return /id="sandbox-(?:error|expired|missing)"[^>]*>([^<]*)</.exec(html)?.[1] ?? html.slice(0, 200);
}

/**
 * Posts one of the sandbox-only actions (with the installation's key, `body` as JSON); answers what
 * it answers, and throws with Stripe's error message when it refuses.
 */
export async function sandboxAction(
  db: Db,
  baseUrl: string,
  path: string,
  body: Record<string, string | number | boolean> = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${(await sandboxCredentials(db)).secretKey}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} failed (HTTP ${res.status}): ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * Refunds a payment as someone does in Stripe's Dashboard: the whole of what is left, or `amount`
 * cents of it (a partial refund); answers the refund.
 */
export const dashboardRefund = (db: Db, baseUrl: string, paymentIntent: string, amount?: number) =>
  sandboxAction(
    db,
    baseUrl,
    `/stripe-sandbox/payment_intents/${paymentIntent}/dashboard-refund`,
    amount === undefined ? {} : { amount },
  );

/**
 * "Some time later" for the asynchronous refund cards: the pending refund of 4000 0000 0000 7726
 * succeeds, the succeeded refund of 4000 0000 0000 5126 fails (`refund.failed`); answers the refund.
 */
export const finishRefund = (db: Db, baseUrl: string, refundId: string) =>
  sandboxAction(db, baseUrl, `/stripe-sandbox/refunds/${refundId}/finish`);

export interface DisputeOptions {
  /** Cents disputed; the whole charge unless given. */
  amount?: number;
  /** Stripe's dispute reason, `fraudulent` unless given. */
  reason?: string;
  /** An inquiry (status warning_needs_response, nothing withdrawn) instead of a chargeback. */
  inquiry?: boolean;
}

/**
 * The card's bank disputes a charge (also one refunded already, as Stripe allows): a chargeback that
 * withdraws the amount and the dispute fee, or an inquiry; answers the dispute.
 */
export const disputeCharge = (db: Db, baseUrl: string, chargeId: string, options: DisputeOptions = {}) =>
  sandboxAction(db, baseUrl, `/stripe-sandbox/charges/${chargeId}/dispute`, { ...options });

/** Stripe's webhook retries of the next three days, sent now; answers how many were waiting. */
export const retryWebhooksNow = async (db: Db, baseUrl: string) =>
  Number((await sandboxAction(db, baseUrl, '/stripe-sandbox/webhooks/retry-now')).retried);

/**
 * The sandbox's clock hurried: what the card's banks do some time after a payment (the disputes,
 * inquiries and fraud warnings of the test cards 0259, 0079, 1976 and 5423) happens now; answers how
 * many actions were due. Their events go out in the background.
 */
export const bankActsNow = async (db: Db, baseUrl: string) =>
  Number((await sandboxAction(db, baseUrl, '/stripe-sandbox/clock/advance')).done);

/** Stripe's test IBAN whose payouts fail with `account_closed` (https://docs.stripe.com/connect/testing#payouts). */
export const closedAccountIban = 'DE89370400440532013002';

/**
 * Stripe's automatic payout of the whole balance to the bank (pending money counted as available),
 * to `iban` (Stripe's succeeding test IBAN unless given). Created `pending`; unless `settle` is
 * false the sandbox's clock is hurried for it (in transit, then paid or failed on its arrival day),
 * its events going out in the background. Answers the payout as Stripe has it then;
 * `GET /v1/balance_transactions?payout=` lists what it paid out.
 */
export async function payOutBalance(
  db: Db,
  baseUrl: string,
  { iban, settle = true }: { iban?: string; settle?: boolean } = {},
): Promise<Record<string, unknown>> {
  const created = await sandboxAction(db, baseUrl, '/stripe-sandbox/payouts', iban ? { iban } : {});
  if (!settle) return created;
  return settlePayout(db, baseUrl, created.id as string);
}

/** The sandbox's clock hurried for one payout: it goes in transit and arrives (or fails); answers it then. */
export async function settlePayout(db: Db, baseUrl: string, payoutId: string): Promise<Record<string, unknown>> {
  await sandboxAction(db, baseUrl, `/stripe-sandbox/clock/advance?payout=${encodeURIComponent(payoutId)}`);
  const res = await fetch(new URL(`/v1/payouts/${payoutId}`, baseUrl), {
    headers: { Authorization: `Bearer ${(await sandboxCredentials(db)).secretKey}` },
  });
  if (!res.ok) throw new Error(`The payout could not be read (HTTP ${res.status}): ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

// Checking the sandbox's objects against the pinned stripe-node's type definitions.

type Ts = typeof import('typescript');

interface ShapeChecker {
  problems(value: unknown, where: string, required: Required): string[];
  paramsProblems(params: unknown, type: string, where: string): string[];
}

/** Whose required fields are checked: every object's, or those of these `object` types (at any depth). */
type Required = boolean | readonly string[];

let checker: Promise<ShapeChecker> | undefined;

/** The Stripe type of each object the sandbox answers or sends, by its `object` field (and `deleted`). */
const shapeTypes: Record<string, string> = {
  'checkout.session': 'Stripe.Checkout.Session',
  payment_intent: 'Stripe.PaymentIntent',
  charge: 'Stripe.Charge',
  refund: 'Stripe.Refund',
  dispute: 'Stripe.Dispute',
  balance_transaction: 'Stripe.BalanceTransaction',
  balance: 'Stripe.Balance',
  payout: 'Stripe.Payout',
  'radar.early_fraud_warning': 'Stripe.Radar.EarlyFraudWarning',
  webhook_endpoint: 'Stripe.WebhookEndpoint',
  event: 'Stripe.Event',
  // What a DELETE answers (`deleted: true`).
  'deleted webhook_endpoint': 'Stripe.DeletedWebhookEndpoint',
};

/**
 * The stripe-node parameters type of each of Stripe's routes that the sandbox answers: the type of
 * the `params` argument of the SDK method that calls it (`stripe.refunds.create(params)` →
 * RefundCreateParams). `:id` is one path segment.
 */
const requestTypes: { method: string; path: string; type: string }[] = [
  ['POST /v1/checkout/sessions', 'Stripe.Checkout.SessionCreateParams'],
  ['GET /v1/checkout/sessions/:id', 'Stripe.Checkout.SessionRetrieveParams'],
  ['POST /v1/checkout/sessions/:id/expire', 'Stripe.Checkout.SessionExpireParams'],
  ['GET /v1/payment_intents/:id', 'Stripe.PaymentIntentRetrieveParams'],
  ['GET /v1/charges/:id', 'Stripe.ChargeRetrieveParams'],
  ['GET /v1/balance_transactions', 'Stripe.BalanceTransactionListParams'],
  ['GET /v1/balance_transactions/:id', 'Stripe.BalanceTransactionRetrieveParams'],
  ['GET /v1/balance', 'Stripe.BalanceRetrieveParams'],
  ['POST /v1/refunds', 'Stripe.RefundCreateParams'],
  ['GET /v1/refunds', 'Stripe.RefundListParams'],
  ['GET /v1/refunds/:id', 'Stripe.RefundRetrieveParams'],
  ['GET /v1/disputes', 'Stripe.DisputeListParams'],
  ['GET /v1/disputes/:id', 'Stripe.DisputeRetrieveParams'],
  ['POST /v1/disputes/:id', 'Stripe.DisputeUpdateParams'],
  ['POST /v1/disputes/:id/close', 'Stripe.DisputeCloseParams'],
  ['GET /v1/radar/early_fraud_warnings', 'Stripe.Radar.EarlyFraudWarningListParams'],
  ['GET /v1/radar/early_fraud_warnings/:id', 'Stripe.Radar.EarlyFraudWarningRetrieveParams'],
  ['GET /v1/payouts', 'Stripe.PayoutListParams'],
  ['GET /v1/payouts/:id', 'Stripe.PayoutRetrieveParams'],
  ['POST /v1/webhook_endpoints', 'Stripe.WebhookEndpointCreateParams'],
  ['GET /v1/webhook_endpoints', 'Stripe.WebhookEndpointListParams'],
  ['GET /v1/webhook_endpoints/:id', 'Stripe.WebhookEndpointRetrieveParams'],
  ['POST /v1/webhook_endpoints/:id', 'Stripe.WebhookEndpointUpdateParams'],
  ['DELETE /v1/webhook_endpoints/:id', 'Stripe.WebhookEndpointDeleteParams'],
].map(([route, type]) => {
  const [method, path] = route.split(' ');
  return { method, path, type };
});

/** A number as the SDK writes one into a form or query string. */
const number = /^-?\d+(\.\d+)?$/;

async function makeChecker(): Promise<ShapeChecker> {
  const ts: Ts = (await import('typescript')).default;
  const file = path.resolve('tests/support/.stripe-shapes.ts');
  const fields = (named: Record<string, string>) =>
    Object.entries(named)
      .map(([name, type]) => `  '${name}': ${type};`)
      .join('\n');
  const paramsTypes = Object.fromEntries(requestTypes.map(({ type }) => [type, type]));
  const source = `import type Stripe from 'stripe';\nexport interface Shapes {\n${fields(shapeTypes)}\n}\nexport interface Params {\n${fields(paramsTypes)}\n}\n`;
  const options: import('typescript').CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    path.resolve(name) === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const types = program.getTypeChecker();
  const declared = (name: string) => {
    const node = program
      .getSourceFile(file)!
      .statements.filter(ts.isInterfaceDeclaration)
      .find((declaration) => declaration.name.text === name)!;
    const byName = new Map(
      node.members.map((member) => {
        const symbol = types.getSymbolAtLocation(member.name!)!;
        return [symbol.name, types.getTypeOfSymbolAtLocation(symbol, node)] as const;
      }),
    );
    return { node, byName };
  };
  const { node: shapes, byName: shapeOf } = declared('Shapes');
  const { byName: paramsOf } = declared('Params');
  type Type = import('typescript').Type;

  const members = (type: Type): Type[] =>
    type.isUnion() ? type.types.flatMap(members) : [types.getNonNullableType(type)];
  const literal = (type: Type): string[] | undefined => {
    const all = members(type);
    return all.every((t) => t.isStringLiteral()) ? all.map((t) => t.value) : undefined;
  };
  const isObject = (type: Type) => (type.flags & ts.TypeFlags.Object) !== 0 && !types.isArrayType(type);

  /** The object types `value` may be: those whose literal fields (`object`, `type`) match it. */
  function candidates(type: Type, value: Record<string, unknown>): Type[] {
    const objects = members(type).filter(isObject);
    const matching = objects.filter((candidate) =>
      Object.entries(value).every(([key, field]) => {
        const property = candidate.getProperty(key);
        if (!property || typeof field !== 'string') return true;
        const allowed = literal(types.getTypeOfSymbolAtLocation(property, shapes));
        return !allowed || allowed.includes(field);
      }),
    );
    return matching.length ? matching : objects;
  }

  function walk(
    value: unknown,
    type: Type,
    where: string,
    required: Required,
    out: string[],
    ownerChecked = required === true,
  ): void {
    if (value === null || typeof value !== 'object') return;
    const object = (value as { object?: unknown }).object;
    // An object of Stripe's (it has `object`) is checked by its own type's rule; its plain parts by their owner's.
    const checked =
      typeof object === 'string' && Array.isArray(required)
        ? required.includes(object)
        : required === true || ownerChecked;
    if (Array.isArray(value)) {
      const element = members(type)
        .filter((t) => types.isArrayType(t))
        .map((t) => types.getTypeArguments(t as import('typescript').TypeReference)[0])[0];
      if (!element) out.push(`${where}: a list where the type has none`);
      else value.forEach((item, i) => walk(item, element, `${where}[${i}]`, required, out, ownerChecked));
      return;
    }
    const record = value as Record<string, unknown>;
    const options = candidates(type, record);
    if (options.length === 0) {
      out.push(`${where}: an object where the type has none`);
      return;
    }
    const indexed = options.map((t) => types.getIndexTypeOfType(t, ts.IndexKind.String)).find(Boolean);
    if (indexed) {
      for (const [key, field] of Object.entries(record))
        walk(field, indexed, `${where}.${key}`, required, out, checked);
      return;
    }
    const fits = (t: Type) => Object.keys(record).every((key) => t.getProperty(key));
    const shape = options.find(fits) ?? options[0];
    for (const [key, field] of Object.entries(record)) {
      const property = shape.getProperty(key);
      if (!property) out.push(`${where}.${key}: not a field of ${types.typeToString(shape)}`);
      else walk(field, types.getTypeOfSymbolAtLocation(property, shapes), `${where}.${key}`, required, out, checked);
    }
    if (checked) {
      for (const property of shape.getProperties()) {
        const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
        if (!optional && !(property.name in record)) out.push(`${where}.${property.name}: missing`);
      }
    }
  }

  const problems = (value: unknown, where: string, required: Required): string[] => {
    const out: string[] = [];
    const object = (value as { object?: string } | null)?.object;
    if (object === 'list') {
      const data = (value as { data: unknown[] }).data;
      data.forEach((item, i) => out.push(...problems(item, `${where}.data[${i}]`, required)));
      return out;
    }
    const deleted = (value as { deleted?: unknown }).deleted === true;
    const type = object === undefined ? undefined : shapeOf.get(deleted ? `deleted ${object}` : object);
    if (!type) return [`${where}: no Stripe type known for object ${JSON.stringify(object)}`];
    walk(value, type, where, required, out);
    return out;
  };
  /** Whether a text value of the form encoding is one the type takes: numbers and booleans as the SDK writes them. */
  const takesText = (type: Type, text: string): boolean => {
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral))
      return true;
    if (type.isStringLiteral()) return type.value === text;
    if (type.isNumberLiteral()) return number.test(text) && Number(text) === type.value;
    if (type.flags & ts.TypeFlags.Number) return number.test(text);
    if (type.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral))
      return type.flags & ts.TypeFlags.Boolean ? /^(true|false)$/.test(text) : types.typeToString(type) === text;
    // OtherString (string & Record<never, never>), which open enums add to their values.
    if (type.isIntersection()) return type.types.some((part) => takesText(part, text));
    // stripe-node's Decimal class: a decimal number as text.
    if (type.getSymbol()?.name === 'Decimal') return number.test(text);
    return false;
  };

  /** The parameter's name as Stripe writes it in errors: `line_items[0][price_data][currency]`. */
  const inner = (name: string, key: string | number) => (name ? `${name}[${key}]` : String(key));

  function walkParams(value: unknown, type: Type, name: string, out: string[]): void {
    const all = members(type);
    const shown = name || '(the parameters)';
    if (typeof value === 'string') {
      if (!all.some((t) => takesText(t, value)))
        out.push(`${shown}: ${JSON.stringify(value)} is not a ${types.typeToString(types.getNonNullableType(type))}`);
      return;
    }
    if (Array.isArray(value)) {
      const element = all
        .filter((t) => types.isArrayType(t))
        .map((t) => types.getTypeArguments(t as import('typescript').TypeReference)[0])[0];
      if (element) value.forEach((item, i) => walkParams(item, element, inner(name, i), out));
      // Keys 0, 1, … of a hash (metadata[0]=…) read as a list.
      else if (all.some(isObject)) walkParams({ ...value }, type, name, out);
      else out.push(`${shown}: a list where ${types.typeToString(type)} has none`);
      return;
    }
    if (value === null || typeof value !== 'object') {
      out.push(`${shown}: ${typeof value} is no value of the form encoding`);
      return;
    }
    const record = value as Record<string, unknown>;
    const objects = all.filter(isObject);
    if (objects.length === 0) {
      out.push(`${shown}: a hash where ${types.typeToString(type)} has none`);
      return;
    }
    const indexed = objects.map((t) => types.getIndexTypeOfType(t, ts.IndexKind.String)).find(Boolean);
    if (indexed) {
      for (const [key, field] of Object.entries(record)) walkParams(field, indexed, inner(name, key), out);
      return;
    }
    const required = (t: Type) =>
      t.getProperties().filter((property) => (property.flags & ts.SymbolFlags.Optional) === 0);
    const fits = (t: Type) => Object.keys(record).every((key) => t.getProperty(key));
    const complete = (t: Type) => required(t).every((property) => property.name in record);
    const shape =
      objects.find((t) => fits(t) && complete(t)) ?? objects.find(fits) ?? objects.find(complete) ?? objects[0];
    for (const [key, field] of Object.entries(record)) {
      const property = shape.getProperty(key);
      if (!property) out.push(`${inner(name, key)}: not a parameter of ${types.typeToString(shape)}`);
      else walkParams(field, types.getTypeOfSymbolAtLocation(property, shapes), inner(name, key), out);
    }
    for (const property of required(shape))
      if (!(property.name in record))
        out.push(`${inner(name, property.name)}: missing, ${types.typeToString(shape)} requires it`);
  }

  const paramsProblems = (params: unknown, type: string, where: string): string[] => {
    const root = paramsOf.get(type);
    if (!root || root.flags & ts.TypeFlags.Any) return [`${where}: no parameters type ${type} known`];
    const out: string[] = [];
    walkParams(params, root, '', out);
    return out.map((problem) => `${where}: ${problem}`);
  };
  return { problems, paramsProblems };
}

/**
 * What does not fit the pinned stripe-node's type of `value` (chosen by its `object` field, a
 * deleted object's by `deleted` too; a list is checked item by item; an event with its `data.object` by its `type`): every field the type does
 * not name, at any depth, and with `required` (true, or a list of `object` types) every field the
 * type requires that is missing.
 */
export async function stripeShapeProblems(
  value: unknown,
  where = 'object',
  required: Required = false,
): Promise<string[]> {
  checker ??= makeChecker();
  return (await checker).problems(value, where, required);
}

/** A value of Stripe's form encoding: text, a list, or a hash. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/**
 * Stripe's form encoding decoded, as its API reads the SDK's bodies and query strings: brackets
 * nest (`metadata[order]=1`, `line_items[0][price_data][currency]=eur`, `created[gte]=…`), `[]`
 * appends (`expand[]=…`), and a hash keyed 0, 1, 2, … is a list. Throws on a name that is not
 * bracket notation or a name used both as a value and a hash.
 */
export function decodeStripeForm(encoded: string): Record<string, FormValue> {
  type Node = Map<string, Node | string>;
  const root: Node = new Map();
  for (const [key, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw new Error(`${key}: not a parameter name of Stripe's form encoding`);
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    let node = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(node.size) : segment;
      const last = i === path.length - 1;
      const there = node.get(name);
      if (last ? there !== undefined : typeof there === 'string')
        throw new Error(`${key}: ${path.slice(0, i + 1).join('.')} is given twice, or as a value and a hash`);
      if (last) node.set(name, value);
      else if (typeof there === 'object') node = there;
      else node.set(name, (node = new Map()));
    });
  }
  const plain = (node: Node): Record<string, FormValue> =>
    Object.fromEntries([...node].map(([key, value]) => [key, typeof value === 'string' ? value : listed(value)]));
  const listed = (node: Node): FormValue => {
    const keys = [...node.keys()];
    const list = keys.length > 0 && keys.every((key, i) => key === String(i));
    return list ? Object.values(plain(node)) : plain(node);
  };
  return plain(root);
}

/** The stripe-node parameters type of a request to Stripe's API (`GET /v1/refunds` → Stripe.RefundListParams). */
export function stripeParamsType(method: string, path: string): string | undefined {
  const segments = path.split('/');
  return requestTypes.find((route) => {
    const pattern = route.path.split('/');
    return (
      route.method === method.toUpperCase() &&
      pattern.length === segments.length &&
      pattern.every((part, i) => (part === ':id' ? segments[i] !== '' : part === segments[i]))
    );
  })?.type;
}

/**
 * What does not fit the pinned stripe-node's parameters type `type` (`Stripe.RefundCreateParams`, one
 * of the routes' types) in `params`, decoded from the form encoding: every parameter the type does
 * not name, at any depth; every one it requires that is missing; and values that are not of their
 * type (numbers as numerals, booleans as true or false, the values of closed enums).
 */
export async function stripeParamsProblems(params: unknown, type: string, where = type): Promise<string[]> {
  checker ??= makeChecker();
  return (await checker).paramsProblems(params, type, where);
}

/** A request to the Stripe API as it went over the wire: `url` its path and query string. */
export interface StripeRequest {
  method: string;
  url: string;
  /** The form-encoded body (POST). */
  body?: string;
}

/**
 * What does not fit the pinned stripe-node's parameters type in a request the SDK sent: its route
 * names the type (stripeParamsType), the query string and the form body its parameters. A route of
 * Stripe's API without a known type is a problem; the sandbox's own routes (/stripe-sandbox/…, not
 * Stripe's) are not checked and answer undefined.
 */
export async function stripeRequestProblems(request: StripeRequest): Promise<string[] | undefined> {
  const url = new URL(request.url, 'http://sandbox.invalid');
  if (url.pathname.startsWith('/stripe-sandbox/')) return undefined;
  const where = `${request.method} ${url.pathname}`;
  const type = stripeParamsType(request.method, url.pathname);
  if (!type) return [`${where}: no parameters type known for this route`];
  let params: Record<string, FormValue>;
  try {
    const query = decodeStripeForm(url.search.slice(1));
    const body = decodeStripeForm(request.body ?? '');
    if (Object.keys(query).length && Object.keys(body).length)
      return [`${where}: parameters in the query and the body`];
    params = { ...query, ...body };
  } catch (error) {
    return [`${where}: ${(error as Error).message}`];
  }
  return stripeParamsProblems(params, type, `${where} (${type})`);
}
