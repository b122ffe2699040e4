import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { log } from '../foundations/log.ts';
import { allowsInternal, InternalAddress, isInternalAddress, publicLookup } from './address.ts';
import { onEventCommitted } from './emit.ts';

// The sender: takes due deliveries from the database, POSTs each event to its endpoint, signed, and
// writes the outcome back. Its whole state is in webhook_deliveries, so a restart (or a second
// process) carries on where it stood. A receiver that answered 2xx is not called again for the
// event; one that did not is called again later, with the same Webhook-Id, until it answers or the
// last try is spent ('failed'; staff may send it again).

/** Waits before the 2nd, 3rd, … try, in units of the first (30 s in production): 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, then 12 h. */
const retrySteps = [1, 4, 20, 60, 120, 240, 480, 960, 1440, 1440, 1440, 1440, 1440];
/** After this many tries a delivery is 'failed': with the steps above, about three days after the first. */
export const maxAttempts = retrySteps.length + 1;
/** One call may take this long; a receiver should answer at once and work afterwards. */
const requestTimeoutMs = 10_000;
/** How long a claimed delivery is kept from the other senders: longer than one call may take. */
const leaseSeconds = 20;
/** What is kept of a failed answer: enough for staff to see what the receiver said, no more. */
const excerptBytes = 300;
/** Deliveries sent at the same time by one process, so one slow receiver does not hold up the others. */
const parallel = 4;

/** Milliseconds until the next try after `attempts` failed ones, ±20 % so receivers coming back are not hit at once. */
export function retryDelayMs(attempts: number, firstMs: number): number {
  const step = retrySteps[Math.min(attempts, retrySteps.length) - 1] ?? 1;
  return Math.round(step * firstMs * (0.8 + Math.random() * 0.4));
}

/** The signature a receiver checks: hex HMAC-SHA256 of "<timestamp>.<body>" with the endpoint's secret. */
export function sign(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

interface Claimed {
  id: number;
  attempts: number;
  event_id: string;
  type: string;
  data: unknown;
  created_at: Date;
  url: string;
  secret: string;
}

/**
 * Takes the next due delivery of an active endpoint: `skip locked` lets concurrent senders pass each
 * other, and the lease (next_attempt_at moved ahead) keeps it from them while the call is made
 * outside any transaction.
 */
async function claimDue(db: Db): Promise<Claimed | undefined> {
  const { rows } = await db.raw<{ rows: Claimed[] }>(
    `with claimed as (
       update webhook_deliveries set attempts = attempts + 1, last_attempt_at = now(),
              next_attempt_at = now() + make_interval(secs => ?)
       where id = (select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
                   where d.status = 'pending' and d.next_attempt_at <= now() and e.active
                   order by d.next_attempt_at, d.id limit 1 for update of d skip locked)
       returning id, attempts, event_id, endpoint_id)
     select c.id, c.attempts, ev.id as event_id, ev.type, ev.data, ev.created_at, e.url, e.secret
     from claimed c join webhook_events ev on ev.id = c.event_id join webhook_endpoints e on e.id = c.endpoint_id`,
    [leaseSeconds],
  );
  return rows[0];
}

interface Outcome {
  status?: number;
  /** Why it failed, for staff; undefined on success. */
  error?: string;
}

/** One POST; never follows a redirect, never reads more of the answer than the excerpt. */
function post(url: URL, body: string, headers: Record<string, string>, config: Config): Promise<Outcome> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = allowsInternal(config.publicUrl);
  if (!local && net.isIP(host) && isInternalAddress(host)) {
    return Promise.resolve({ error: new InternalAddress(host).message });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        timeout: requestTimeoutMs,
        // A connection of its own each time: no socket kept from an earlier call (or another endpoint).
        agent: false,
        ...(local ? {} : { lookup: publicLookup }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          response.destroy();
          resolve({ status });
          return;
        }
        let excerpt = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          excerpt += chunk;
          if (excerpt.length >= excerptBytes) response.destroy();
        });
        const done = () => {
          const said = excerpt.slice(0, excerptBytes).replace(/\s+/g, ' ').trim();
          const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
          resolve({ status, error: `HTTP ${status}${redirect}${said ? `: ${said}` : ''}` });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${requestTimeoutMs / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ error: [error.code, error.message].filter(Boolean).join(': ').slice(0, 1000) });
    });
    request.end(body);
  });
}

async function deliver(db: Db, config: Config, delivery: Claimed): Promise<void> {
  const body = JSON.stringify({
    id: delivery.event_id,
    type: delivery.type,
    created: new Date(delivery.created_at).toISOString(),
    data: delivery.data,
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const outcome = await post(
    new URL(delivery.url),
    body,
    {
      'Content-Type': 'application/json',
      'User-Agent': 'street-paper-shop-webhooks/1',
      'Webhook-Id': delivery.event_id,
      'Webhook-Timestamp': String(timestamp),
      'Webhook-Signature': sign(delivery.secret, timestamp, body),
    },
    config,
  );
  if (!outcome.error) {
    await db('webhook_deliveries').where({ id: delivery.id }).update({
      status: 'delivered',
      delivered_at: db.fn.now(),
      last_status: outcome.status,
      last_error: null,
    });
    log.info('webhook delivered', { delivery: delivery.id, type: delivery.type, attempts: delivery.attempts });
    return;
  }
  const giveUp = delivery.attempts >= maxAttempts;
  await db('webhook_deliveries')
    .where({ id: delivery.id })
    .update({
      status: giveUp ? 'failed' : 'pending',
      last_status: outcome.status ?? null,
      last_error: outcome.error.slice(0, 1000),
      next_attempt_at: db.raw(`now() + make_interval(secs => ?)`, [
        retryDelayMs(delivery.attempts, config.webhookRetryFirstMs) / 1000,
      ]),
    });
  // The log names the delivery, never the endpoint's address (it may carry a token in its path).
  log.warn(giveUp ? 'webhook given up' : 'webhook failed, will retry', {
    delivery: delivery.id,
    type: delivery.type,
    attempts: delivery.attempts,
    status: outcome.status,
  });
}

/**
 * Sends every due delivery once; answers how many it handled. A lane opens the next one only once it
 * has claimed a delivery, so a round with nothing due asks the database once, not once per lane.
 */
export async function processDeliveries(db: Db, config: Config): Promise<number> {
  let handled = 0;
  const lanes: Promise<void>[] = [];
  const lane = async () => {
    for (let next = await claimDue(db); next; next = await claimDue(db)) {
      if (lanes.length < parallel) lanes.push(lane());
      await deliver(db, config, next);
      handled++;
    }
  };
  lanes.push(lane());
  // Lanes are opened while earlier ones run: wait until no new one was.
  let waited = 0;
  while (waited < lanes.length) {
    waited = lanes.length;
    await Promise.all(lanes);
  }
  return handled;
}

/** Per database: a round is running, and whether another was asked for meanwhile. */
const rounds = new WeakMap<Db, { again: boolean }>();

/** Sends what is due, in the background; returns at once and never throws. */
export function kickDeliveries(db: Db, config: Config): void {
  const running = rounds.get(db);
  if (running) {
    running.again = true;
    return;
  }
  const round = { again: true };
  rounds.set(db, round);
  void (async () => {
    try {
      while (round.again) {
        round.again = false;
        await processDeliveries(db, config);
      }
    } catch (error) {
      log.error('webhook round failed', { error: String((error as Error)?.stack ?? error) });
    } finally {
      rounds.delete(db);
    }
  })();
}

/**
 * Delivers for as long as the process runs: at once when an event is committed here, and every few
 * seconds for retries that fall due and events committed by another process. Every API process may
 * run one; the claim makes sure each delivery is made by one of them at a time.
 */
export function startWebhookSender(db: Db, config: Config): { stop(): void } {
  const kick = () => kickDeliveries(db, config);
  onEventCommitted(db, kick);
  kick();
  const timer = setInterval(kick, Math.min(10_000, config.webhookRetryFirstMs));
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      onEventCommitted(db, undefined);
    },
  };
}
