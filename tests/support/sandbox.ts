import path from 'node:path';
import type { Db } from '../../api/src/db.ts';
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

/**
 * Stripe's automatic payout of the whole balance to the bank (pending money counted as available):
 * answers the payout (`po_…`, status paid); `GET /v1/balance_transactions?payout=` lists what it paid out.
 */
export const payOutBalance = (db: Db, baseUrl: string) => sandboxAction(db, baseUrl, '/stripe-sandbox/payouts');

// Checking the sandbox's objects against the pinned stripe-node's type definitions.

type Ts = typeof import('typescript');

interface ShapeChecker {
  problems(value: unknown, where: string, required: Required): string[];
}

/** Whose required fields are checked: every object's, or those of these `object` types (at any depth). */
type Required = boolean | readonly string[];

let checker: Promise<ShapeChecker> | undefined;

/** The Stripe type of each object the sandbox answers or sends, by its `object` field. */
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
};

async function makeChecker(): Promise<ShapeChecker> {
  const ts: Ts = (await import('typescript')).default;
  const file = path.resolve('tests/support/.stripe-shapes.ts');
  const source = `import type Stripe from 'stripe';\nexport interface Shapes {\n${Object.entries(shapeTypes)
    .map(([name, type]) => `  '${name}': ${type};`)
    .join('\n')}\n}\n`;
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
  const shapes = program.getSourceFile(file)!.statements.find(ts.isInterfaceDeclaration)!;
  const shapeOf = new Map(
    shapes.members.map((member) => {
      const symbol = types.getSymbolAtLocation(member.name!)!;
      return [symbol.name, types.getTypeOfSymbolAtLocation(symbol, shapes)] as const;
    }),
  );
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
    const type = object === undefined ? undefined : shapeOf.get(object);
    if (!type) return [`${where}: no Stripe type known for object ${JSON.stringify(object)}`];
    walk(value, type, where, required, out);
    return out;
  };
  return { problems };
}

/**
 * What does not fit the pinned stripe-node's type of `value` (chosen by its `object` field; a list
 * is checked item by item; an event with its `data.object` by its `type`): every field the type does
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
