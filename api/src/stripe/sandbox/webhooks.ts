import type { Knex } from 'knex';
import Stripe from 'stripe';
import type { Config } from '../../foundations/config.ts';
import type { Db } from '../../db/connection.ts';
import { log } from '../../foundations/log.ts';
import { platformConnectSecret, sandboxCredentials } from './keys.ts';
import { newId, unixNow } from './objects.ts';
import { currentAccount, listObjects, type StripeObject } from './store.ts';

export interface StripeEvent extends StripeObject {
  object: 'event';
  /** The connected account the event happened on; absent on the platform's own events. */
  account?: string;
  type: string;
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
}

/**
 * An endpoint added with POST /v1/webhook_endpoints. Its URL can only be the server's own webhook
 * route and its signing secret is the installation's, so registering one chooses events, nothing else.
 */
export interface WebhookEndpoint extends StripeObject {
  object: 'webhook_endpoint';
  url: string;
  enabled_events: string[];
  /**
   * A Connect endpoint gets the events of every connected account and none of the platform's; an
   * account endpoint only the platform's (https://docs.stripe.com/connect/webhooks).
   */
  connect?: boolean;
}

/**
 * An event with the object as it is now (a copy: later changes to the object are later events' business).
 * An event on a connected account names it in `account` (https://docs.stripe.com/connect/webhooks).
 */
export function stripeEvent(
  type: string,
  current: StripeObject,
  previousAttributes?: Record<string, unknown>,
  account = currentAccount(),
): StripeEvent {
  const object = JSON.parse(JSON.stringify(current)) as StripeObject;
  return {
    id: newId('evt_'),
    object: 'event',
    ...(account ? { account } : {}),
    api_version: Stripe.API_VERSION,
    created: unixNow(),
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The server's own webhook route: the one address the sandbox of a single paper sends events to. */
export const ownWebhookUrl = (config: Config) => `${config.publicUrl}/api/webhooks/stripe`;

/**
 * On a platform (PLATFORM_DOMAIN), its Connect endpoint, which the platform's process answers at
 * every host it serves, so at the paper's own address too: the other address the sandbox sends to.
 * Like the platform's Connect endpoint at Stripe it gets the events of the connected accounts
 * (https://docs.stripe.com/connect/webhooks), signed with the platform's secret, not the paper's.
 */
export const platformConnectUrl = (config: Config): string | undefined =>
  config.platform.domain && config.platform.secret ? `${config.publicUrl}/api/webhooks/stripe-connect` : undefined;

/**
 * Queues the events for every endpoint that wants them, in the transaction of the change that caused
 * them: a change that is committed has its deliveries committed with it, whatever happens next to
 * this process. Without any registered endpoint the server's own route gets every event, the
 * connected accounts' too; on a platform the connected accounts' go to its Connect endpoint instead,
 * as once the platform registered one at Stripe.
 */
export async function queueEvents(trx: Knex.Transaction, events: StripeEvent[]): Promise<void> {
  if (events.length === 0) return;
  // The platform's endpoints, whichever account the events happened on.
  const registered = await listObjects<WebhookEndpoint>(trx, 'webhook_endpoint', null);
  const rows = events.flatMap((event) => {
    const targets = registered.length
      ? registered
          .filter(
            (e) =>
              e.status !== 'disabled' &&
              Boolean(e.connect) === Boolean(event.account) &&
              (e.enabled_events.includes('*') || e.enabled_events.includes(event.type)),
          )
          .map((e) => e.id)
      : [null];
    event.pending_webhooks = targets.length;
    return targets.map((endpointId) => ({
      event_id: event.id,
      endpoint_id: endpointId,
      payload: JSON.stringify(event),
    }));
  });
  if (rows.length) await trx('stripe_sandbox_deliveries').insert(rows);
}

/**
 * Stripe retries a delivery for up to three days with exponential back-off
 * (https://docs.stripe.com/webhooks#retries): the first retry after a minute (SANDBOX_WEBHOOK_RETRY_MS),
 * doubling, thirteen attempts span 4095 minutes, about 2.8 days.
 */
export const maxAttempts = 13;
/**
 * How long a claimed delivery is the claiming process's: longer than one attempt's timeout, short
 * enough that what a crashed process held goes out again within seconds.
 */
const leaseSeconds = 15;
const attemptTimeoutMs = 10_000;
const batch = 20;

interface Delivery {
  id: string;
  event_id: string;
  endpoint_id: string | null;
  payload: StripeEvent;
  attempts: number;
}

/**
 * Claims deliveries that are due (all pending ones when `all`, as at start), skipping rows another
 * process holds: each delivery is sent by one process at a time, and a claim left by a dead process
 * runs out after the lease.
 */
async function claim(db: Db, all: boolean): Promise<Delivery[]> {
  const { rows } = await db.raw<{ rows: Delivery[] }>(
    `update stripe_sandbox_deliveries set attempts = attempts + 1, leased_until = now() + make_interval(secs => ?)
      where id in (
        select id from stripe_sandbox_deliveries
         where (leased_until is null or leased_until < now()) and (? or next_attempt_at <= now())
         order by id limit ? for update skip locked)
      returning id, event_id, endpoint_id, payload, attempts`,
    [leaseSeconds, all, batch],
  );
  return rows;
}

/** Where a delivery goes now, with its secret; undefined when its endpoint was deleted meanwhile. */
async function target(
  db: Db,
  config: Config,
  delivery: Delivery,
): Promise<{ url: string; secret: string } | undefined> {
  const connect = platformConnectUrl(config);
  const toPlatform = connect ? { url: connect, secret: platformConnectSecret(config.platform.secret!) } : undefined;
  const own = { url: ownWebhookUrl(config), secret: (await sandboxCredentials(db)).webhookSecret };
  if (delivery.endpoint_id === null) return delivery.payload.account ? (toPlatform ?? own) : own;
  const endpoint = await db('stripe_sandbox_objects')
    .where({ id: delivery.endpoint_id, type: 'webhook_endpoint' })
    .first<{ data: WebhookEndpoint } | undefined>('data');
  if (!endpoint) return undefined;
  return toPlatform && endpoint.data.url === toPlatform.url ? toPlatform : own;
}

/** One signed POST, as Stripe sends it; the outcome as text when it failed. */
async function post(url: string, secret: string, event: StripeEvent): Promise<string | undefined> {
  const payload = JSON.stringify(event);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        // Signed afresh on every attempt, like Stripe: the timestamp must be recent to be accepted.
        'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
        'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
      redirect: 'manual',
      signal: AbortSignal.timeout(attemptTimeoutMs),
    });
    await response.body?.cancel();
    return response.ok ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    return String((error as Error).message ?? error);
  }
}

async function send(db: Db, config: Config, delivery: Delivery): Promise<void> {
  const to = await target(db, config, delivery);
  const outcome = to ? await post(to.url, to.secret, delivery.payload) : undefined;
  if (outcome === undefined) {
    await db('stripe_sandbox_deliveries').where({ id: delivery.id }).delete();
    return;
  }
  const fields = { event: delivery.event_id, type: delivery.payload.type, attempt: delivery.attempts, outcome };
  // Only the claim this attempt came from: had it outlived its lease, another sender owns the row now.
  const claimed = db('stripe_sandbox_deliveries').where({ id: delivery.id, attempts: delivery.attempts });
  if (delivery.attempts >= maxAttempts) {
    log.warn('sandbox webhook given up', fields);
    await claimed.delete();
    return;
  }
  log.warn('sandbox webhook failed, will retry', fields);
  const delayMs = config.sandboxWebhookRetryMs * 2 ** (delivery.attempts - 1);
  await claimed.update({
    leased_until: null,
    next_attempt_at: db.raw(`now() + make_interval(secs => ?)`, [delayMs / 1000]),
  });
}

/** Node fires a longer timer at once: a retry weeks away is looked at again then. */
const longestTimerMs = 2 ** 31 - 1;

/** Each server's timer for its next round (one at a time). */
const nextRounds = new WeakMap<Config, NodeJS.Timeout>();

/**
 * Sets this server's next round for when the next delivery comes due (its retry, or the end of a
 * claim whose sender died), by the database's clock. A timer per failed attempt fired into nothing
 * when another sender had moved the retry later or held the row, and the delivery then waited for
 * the sweep (a server without one, in tests, for ever). Never sooner than 10 ms, so that a row
 * another sender is just claiming is not asked for in a busy loop.
 */
async function armNextRound(db: Db, config: Config): Promise<void> {
  const { rows } = await db.raw<{ rows: { wait_ms: number | null }[] }>(
    `select ceil(extract(epoch from min(greatest(next_attempt_at, leased_until)) - now()) * 1000)::float8 as wait_ms
       from stripe_sandbox_deliveries`,
  );
  const waitMs = rows[0]?.wait_ms;
  if (waitMs === null || waitMs === undefined || stopped.has(config)) return;
  clearTimeout(nextRounds.get(config));
  const timer = setTimeout(() => deliverDue(db, config), Math.min(Math.max(10, waitMs + 1), longestTimerMs));
  timer.unref();
  nextRounds.set(config, timer);
}

/**
 * Per database and server: whether it is sending, and whether more became due meanwhile. Two servers
 * of one process (tests) send side by side as two processes would, each to its own address.
 */
const sending = new WeakMap<Db, WeakMap<Config, { again: boolean; all: boolean }>>();

/**
 * The configurations of servers that stopped: their rounds and retries claim nothing more. A stopping
 * process leaves what is still due to the next one (or a sibling's sweep), which sends it to its own
 * address; a closed one would only spend the delivery's attempts on an address nobody answers.
 */
const stopped = new WeakSet<Config>();

/** This server sends no more sandbox webhooks: a round under way ends after its batch. */
export function stopSandboxDeliveries(config: Config): void {
  stopped.add(config);
}

/**
 * Sends what is due now, in the background; never throws (a failure is logged and retried later).
 * One round at a time per server: a call while one runs asks it to look once more, so a burst of
 * payments costs one query per batch, not one sender each.
 */
export function deliverDue(db: Db, config: Config, all = false): void {
  if (stopped.has(config)) return;
  let servers = sending.get(db);
  if (!servers) sending.set(db, (servers = new WeakMap()));
  const running = servers.get(config);
  if (running) {
    running.again = true;
    running.all ||= all;
    return;
  }
  const state = { again: true, all };
  servers.set(config, state);
  void (async () => {
    do {
      while (state.again && !stopped.has(config)) {
        state.again = false;
        const everything = state.all;
        state.all = false;
        let claimed: Delivery[];
        do {
          claimed = await claim(db, everything);
          await Promise.all(claimed.map((delivery) => send(db, config, delivery)));
        } while (claimed.length === batch && !stopped.has(config));
      }
      await armNextRound(db, config);
      // A call while the next round was being set asked for one more look.
    } while (state.again && !stopped.has(config));
  })()
    .catch((error) => log.warn('sandbox webhooks could not be sent', { error: String(error) }))
    .finally(() => servers.delete(config));
}

/**
 * Sandbox-only: every delivery waiting for its retry is due now (a test's "three days later");
 * answers how many there are. They go out in the background, as retries do.
 */
export async function retryDeliveriesNow(db: Db, config: Config): Promise<number> {
  const due = await db('stripe_sandbox_deliveries')
    .whereRaw('leased_until is null or leased_until < now()')
    .update({ next_attempt_at: db.fn.now(), leased_until: null });
  deliverDue(db, config);
  return due;
}

const sweepMs = 5_000;

/**
 * At start: sends every delivery left pending by a stopped process at once (a payment acknowledged
 * just before a crash is settled within seconds), then looks every few seconds for deliveries that a
 * sibling process on the same database claimed and never finished.
 */
export function startSandboxDeliveries(db: Db, config: Config): { stop(): void } {
  deliverDue(db, config, true);
  const timer = setInterval(() => deliverDue(db, config), sweepMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      stopSandboxDeliveries(config);
    },
  };
}
