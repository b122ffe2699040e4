import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { noSuchObject, StripeApiError } from './errors.ts';

/** Any object the sandbox keeps, in Stripe's JSON shape (`object` names its type). */
export interface StripeObject {
  id: string;
  object: string;
  [field: string]: unknown;
}

type Db = Knex | Knex.Transaction;

// One table of JSON documents by id: the sandbox's state survives a restart and is shared by every
// process on the same database.

/**
 * The account a request acts on: a connected account's id when it named one in the Stripe-Account
 * header (https://docs.stripe.com/connect/authentication), null for the platform's own. Every object
 * is kept with the account it was made on and is found only from that account, as on Stripe; work
 * that follows from a request (its fee, the banks' steps) runs on the account of its objects.
 */
const accountScope = new AsyncLocalStorage<string | null>();

/** Runs `work` on `account` (null: the platform's own). */
export const onAccount = <T>(account: string | null, work: () => Promise<T>): Promise<T> =>
  accountScope.run(account, work);

/** The account the running work acts on; null for the platform's own. */
export const currentAccount = (): string | null => accountScope.getStore() ?? null;

/** The account an object belongs to, whichever it is (for the hosted pages, reached by the object's id alone). */
export async function accountOfObject(trx: Db, type: string, id: string): Promise<string | null | undefined> {
  const row = await trx('stripe_sandbox_objects')
    .where({ id, type })
    .first<{ account: string | null } | undefined>('account');
  return row?.account;
}

/**
 * Stored with the time of the statement itself (not of its transaction), so objects made in one
 * request keep the order they were made in: Stripe lists newest first, in that order.
 */
export async function insertObject(trx: Db, object: StripeObject): Promise<void> {
  await trx('stripe_sandbox_objects').insert({
    id: object.id,
    type: object.object,
    data: JSON.stringify(object),
    account: currentAccount(),
    created_at: trx.raw('clock_timestamp()'),
  });
}

export async function saveObject(trx: Db, object: StripeObject): Promise<void> {
  await trx('stripe_sandbox_objects')
    .where({ id: object.id })
    .update({ data: JSON.stringify(object) });
}

export async function deleteObject(trx: Db, object: StripeObject): Promise<void> {
  await trx('stripe_sandbox_objects').where({ id: object.id }).delete();
}

/** The object with this id and type, locked for the transaction when `lock` is set; Stripe's 404 when there is none. */
export async function getObject<T extends StripeObject = StripeObject>(
  trx: Db,
  type: string,
  id: string,
  { lock = false } = {},
): Promise<T> {
  const query = trx('stripe_sandbox_objects').where({ id, type, account: currentAccount() }).first('data');
  if (lock) query.forUpdate();
  const row = (await query) as { data: T } | undefined;
  if (!row) throw noSuchObject(type, id);
  return row.data;
}

/** The objects of a type on the current account (or on `account`), oldest first. */
export async function listObjects<T extends StripeObject>(
  trx: Db,
  type: string,
  account = currentAccount(),
): Promise<T[]> {
  const rows = await trx('stripe_sandbox_objects')
    .where({ type, account })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select<{ data: T }[]>('data');
  return rows.map((row) => row.data);
}

/** Expired sessions are kept this long (Stripe lists them for a while), then may make room. */
const keepExpiredDays = 7;
const pruneBatch = 1000;

const objectCount = async (trx: Db, cap: number) =>
  Number(
    (
      await trx.raw<{ rows: { n: string }[] }>(
        `select count(*) as n from (select 1 from stripe_sandbox_objects limit ?) kept`,
        [cap],
      )
    ).rows[0]?.n ?? 0,
  );

/**
 * Room for the objects of one more session, under `cap`: when full, the oldest sessions that expired
 * unpaid more than a week ago go (nothing refers to them); when none can, Stripe's error shape says so.
 */
export async function ensureRoom(trx: Knex.Transaction, cap: number): Promise<void> {
  if ((await objectCount(trx, cap)) < cap) return;
  await trx.raw(
    `delete from stripe_sandbox_objects where id in (
       select id from stripe_sandbox_objects
        where type = 'checkout.session' and data->>'status' = 'expired' and created_at < now() - make_interval(days => ?)
        order by created_at limit ?)`,
    [keepExpiredDays, pruneBatch],
  );
  if ((await objectCount(trx, cap)) < cap) return;
  throw new StripeApiError(
    400,
    'invalid_request_error',
    `The local Stripe sandbox is full: it keeps at most ${cap} objects (SANDBOX_MAX_OBJECTS).`,
    {
      code: 'sandbox_full',
    },
  );
}

/** What an earlier request with the same idempotency key answered: its body, or the error it failed with. */
type Replay = { body: unknown; error?: StripeApiError };

/** A failed request's stored answer: Stripe's error body with its HTTP status (no object Stripe answers has `error`). */
interface StoredError {
  error: ReturnType<StripeApiError['toJSON']>['error'];
  status: number;
}

const isStoredError = (response: unknown): response is StoredError =>
  typeof response === 'object' && response !== null && 'error' in response;

/** Stripe keeps an idempotency key for 24 hours; after that the key is free for any request. */
const keyLifetime = '24 hours';

/**
 * Claims an idempotency key of this caller (the hash of its API key) for this request. Answers the
 * stored response when the caller used the key before with the same request, and refuses it for a
 * different one, as Stripe does. A concurrent request with the same key waits on the unique key
 * until the first one commits. Keys older than a day are forgotten, as Stripe forgets them.
 */
export async function claimIdempotencyKey(
  trx: Knex.Transaction,
  caller: string,
  key: string,
  request: string,
): Promise<Replay | undefined> {
  if (key.length > 255)
    throw new StripeApiError(400, 'invalid_request_error', 'Idempotency keys can be at most 255 characters long.');
  const fingerprint = createHash('sha256').update(request).digest('hex');
  await trx('stripe_sandbox_requests')
    .where('created_at', '<', trx.raw(`now() - interval '${keyLifetime}'`))
    .delete();
  const claimed = await trx('stripe_sandbox_requests')
    .insert({ caller, idempotency_key: key, fingerprint })
    .onConflict(['caller', 'idempotency_key'])
    .ignore()
    .returning('idempotency_key');
  if (claimed.length) return undefined;
  const prior = await trx('stripe_sandbox_requests')
    .where({ caller, idempotency_key: key })
    .first<{ fingerprint: string; response: unknown }>('fingerprint', 'response');
  if (prior.fingerprint !== fingerprint) {
    throw new StripeApiError(
      400,
      'idempotency_error',
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    );
  }
  if (!isStoredError(prior.response)) return { body: prior.response };
  const { type, message, ...details } = prior.response.error;
  return { body: null, error: new StripeApiError(prior.response.status, type, message, details) };
}

export async function storeIdempotentResponse(
  trx: Knex.Transaction,
  caller: string,
  key: string,
  body: unknown,
): Promise<void> {
  await trx('stripe_sandbox_requests')
    .where({ caller, idempotency_key: key })
    .update({ response: JSON.stringify(body) });
}

export async function storeIdempotentError(
  trx: Knex.Transaction,
  caller: string,
  key: string,
  error: StripeApiError,
): Promise<void> {
  const stored: StoredError = { ...error.toJSON(), status: error.status };
  await trx('stripe_sandbox_requests')
    .where({ caller, idempotency_key: key })
    .update({ response: JSON.stringify(stored) });
}
