import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../foundations/config.ts';
import type { Db } from '../db/connection.ts';
import { log } from '../foundations/log.ts';
import { HttpError } from '../http/errors.ts';
import { languageOf, translate, type Text } from '../language/messages.ts';
import { takeStripeEvent, type EventTaken } from '../orders/stripe-webhook-routes.ts';
import { platformWebhookSecrets, Stripe } from '../stripe/adapter.ts';

// The platform's one Connect webhook endpoint. Stripe sends the events of every connected account
// to the platform's Connect endpoint, each naming its account in `account`, and none of them to an
// account endpoint (https://docs.stripe.com/connect/webhooks); a paper's sale is a direct charge on
// the paper's connected account (https://docs.stripe.com/connect/direct-charges), so its events are
// among them. The platform verifies the signature with its own endpoint's secret, finds the paper
// whose account it is (`platform.papers.stripe_account`) and hands the event to that paper, which
// takes it as its own webhook route does (orders/stripe-webhook-routes.ts).
//
// Stripe delivers an event again, for up to three days, until it is answered with a 2xx
// (https://docs.stripe.com/webhooks#retries): an event of a paper that is not served now (suspended,
// behind the migrations) is answered 503, so it is booked once the paper is served again; the
// paper's reconciliation asks Stripe about its pending orders besides. An event of an account no
// paper sells on, or one of the platform's own account, is answered 200 and left alone: Stripe would
// only deliver it again.

/** Where the platform answers, at every host it serves: the signature says who calls, not the host. */
export const connectWebhookPath = '/api/webhooks/stripe-connect';

/** A paper being served, as its event is handed to it. */
export interface ServedPaperData {
  db: Db;
  config: Config;
}

/** Stripe's events are small; the paper's own route takes no more either (http/body.ts). */
const bodyLimit = 1024 * 1024;

/** The exact bytes of the request, or undefined beyond the limit. */
async function rawBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > bodyLimit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > bodyLimit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The event, or undefined when its signature verifies with none of `secrets` (two while one is replaced). */
function verified(body: Buffer, signature: string | string[] | undefined, secrets: string[]): Stripe.Event | undefined {
  if (typeof signature !== 'string') return undefined;
  for (const secret of secrets) {
    try {
      return Stripe.webhooks.constructEvent(body, signature, secret);
    } catch {
      // Not signed with this one: the next.
    }
  }
  return undefined;
}

/**
 * The handler of the platform's Connect endpoint. `served` gives the paper being served now, undefined
 * for one that is not (suspended, behind the migrations, refused at its start).
 */
export function connectWebhook(
  admin: Db,
  base: Config,
  served: (slug: string) => ServedPaperData | undefined,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const language = languageOf(req.headers['accept-language']);
    const reply = (status: number, body: EventTaken | { message: string }, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    const refuse = (status: number, text: Text, headers?: Record<string, string>) =>
      reply(status, { message: translate(text, language) }, headers);
    try {
      if (req.method !== 'POST') return refuse(405, 'This method is not allowed here.', { Allow: 'POST' });
      const body = await rawBody(req);
      if (!body) return refuse(413, 'The request is too large.', { Connection: 'close' });
      const secrets = platformWebhookSecrets(base);
      if (!secrets.length) {
        log.error('a Stripe Connect webhook arrived but PLATFORM_STRIPE_WEBHOOK_SECRET is not configured');
        return refuse(503, 'Webhooks are not configured.');
      }
      const event = verified(body, req.headers['stripe-signature'], secrets);
      if (!event) return refuse(400, 'The webhook signature is not valid.');
      const paper = event.account
        ? await admin('platform.papers')
            .where({ stripe_account: event.account })
            .first<{ slug: string } | undefined>('slug')
        : undefined;
      if (!paper) {
        log.warn('a Stripe Connect webhook of an account no paper sells on is ignored', {
          event: event.id,
          type: event.type,
          account: event.account ?? null,
        });
        return reply(200, { received: true, ignored: true });
      }
      const taker = served(paper.slug);
      if (!taker) {
        log.warn('a Stripe Connect webhook of a paper not served now is left for Stripe to deliver again', {
          event: event.id,
          type: event.type,
          paper: paper.slug,
        });
        return refuse(503, 'The newspaper of this event is not served now; please deliver it again.', {
          'Retry-After': '300',
        });
      }
      try {
        return reply(200, await takeStripeEvent(taker.db, taker.config, event));
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return refuse(error.status, error.text, error.headers);
      }
    } catch (error) {
      log.error('a Stripe Connect webhook failed', { error: String((error as Error)?.message ?? error) });
      if (!res.headersSent) refuse(500, 'An error occurred. Please try again later.');
      else res.end();
    }
  };
}
