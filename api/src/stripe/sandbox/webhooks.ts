import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { log } from '../../log.ts';
import { SANDBOX_WEBHOOK_SECRET } from './keys.ts';
import { newId, unixNow } from './objects.ts';
import { listObjects, type StripeObject } from './store.ts';

export interface StripeEvent extends StripeObject {
  object: 'event';
  type: string;
  data: { object: StripeObject; previous_attributes?: Record<string, unknown> };
}

/** An endpoint added with POST /v1/webhook_endpoints (the shop's own one needs no registration). */
export interface WebhookEndpoint extends StripeObject {
  object: 'webhook_endpoint';
  url: string;
  enabled_events: string[];
  secret: string;
}

export function stripeEvent(type: string, object: StripeObject, previousAttributes?: Record<string, unknown>): StripeEvent {
  return {
    id: newId('evt_'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: unixNow(),
    data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
    livemode: false,
    pending_webhooks: 0,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The shop's webhook route, signed with the sandbox's webhook secret, and every registered endpoint. */
async function endpointsFor(db: Db, config: Config, type: string) {
  const registered = await listObjects<WebhookEndpoint>(db, 'webhook_endpoint');
  return [
    { url: `${config.publicUrl}/api/webhooks/stripe`, secret: SANDBOX_WEBHOOK_SECRET },
    ...registered.filter((e) => e.enabled_events.includes('*') || e.enabled_events.includes(type)),
  ];
}

/** With the first retry after a second (SANDBOX_WEBHOOK_RETRY_MS), doubling: eight attempts span about two minutes. */
const maxAttempts = 8;

/**
 * Sends events as Stripe does, after the change is committed: a signed POST to every endpoint,
 * retried with backoff until one answers 2xx. It runs in the background and never throws, so a
 * slow or failing endpoint neither delays the customer's redirect nor stops the process.
 */
export function sendEvents(db: Db, config: Config, events: StripeEvent[]): void {
  for (const event of events) {
    endpointsFor(db, config, event.type).then(
      (endpoints) => {
        event.pending_webhooks = endpoints.length;
        for (const endpoint of endpoints) void attempt(endpoint, event, 1, config.sandboxWebhookRetryMs);
      },
      (error) => log.warn('sandbox webhook endpoints could not be read', { event: event.id, error: String(error) }),
    );
  }
}

async function attempt(endpoint: { url: string; secret: string }, event: StripeEvent, n: number, firstRetryMs: number): Promise<void> {
  const payload = JSON.stringify(event);
  let outcome: string;
  try {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        // Signed afresh on every attempt, like Stripe: the timestamp must be recent to be accepted.
        'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: endpoint.secret }),
        'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    if (response.ok) return;
    outcome = `HTTP ${response.status}`;
  } catch (error) {
    outcome = String((error as Error).message ?? error);
  }
  const fields = { event: event.id, type: event.type, url: endpoint.url, attempt: n, outcome };
  if (n >= maxAttempts) {
    log.warn('sandbox webhook given up', fields);
    return;
  }
  log.warn('sandbox webhook failed, will retry', fields);
  setTimeout(() => void attempt(endpoint, event, n + 1, firstRetryMs), firstRetryMs * 2 ** (n - 1)).unref();
}
