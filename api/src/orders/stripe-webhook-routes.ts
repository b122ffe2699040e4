import type { Knex } from 'knex';
import { badRequest, HttpError } from '../http/errors.ts';
import type { RouteDef } from '../http/routes.ts';
import type { Config } from '../foundations/config.ts';
import { log } from '../foundations/log.ts';
import {
  connectedAccount,
  matchesKeyMode,
  StripeFailure,
  verifiedEvent,
  webhookSecrets,
  type Stripe,
} from '../stripe/adapter.ts';
import { PaymentNotSettled } from './settle.ts';
import { handleStripeEvent } from './stripe-events.ts';

/** What a paper answers an event it took: stored and booked, delivered before, or not its own. */
export type EventTaken = { received: true; duplicate: boolean } | { received: true; ignored: true };

/**
 * A paper takes a verified event: the paper's own route and a platform's Connect endpoint
 * (platform/stripe-connect-routes.ts) hand it over alike. A refusal leaves as an HttpError: 400 for the
 * other mode's event, 503 and 502 for one that Stripe is to deliver again.
 */
export async function takeStripeEvent(db: Knex, config: Config, event: Stripe.Event): Promise<EventTaken> {
  // A test event at a live shop (or the reverse) is refused before anything is stored or asked.
  if (!matchesKeyMode(config, event))
    throw badRequest(
      event.livemode
        ? 'This live mode event does not match the shop’s Stripe key.'
        : 'This test mode event does not match the shop’s Stripe key.',
    );
  // Only the paper's own account's events: its connected account's (they carry `account`,
  // https://docs.stripe.com/connect/webhooks), or without one the account's own (they carry none).
  // Another account's event is acknowledged and left alone: Stripe would only deliver it again.
  const account = await connectedAccount(db);
  if ((event.account ?? null) !== account) {
    log.warn('a Stripe webhook of another account is ignored', { event: event.id, type: event.type });
    return { received: true, ignored: true };
  }
  try {
    return { received: true, duplicate: (await handleStripeEvent(db, config, event)) === 'duplicate' };
  } catch (error) {
    if (error instanceof PaymentNotSettled) {
      log.warn('a Stripe webhook about a payment not settled yet is left for Stripe to deliver again', {
        event: event.id,
        type: event.type,
      });
      throw new HttpError(503, 'The payment of this event is not settled yet; please deliver it again.');
    }
    if (!(error instanceof StripeFailure)) throw error;
    // Not a fault of ours: Stripe could not be asked about the event. It delivers it again, and
    // the next delivery asks again.
    log.warn('a Stripe webhook could not be processed: Stripe did not answer', {
      event: event.id,
      type: error.type,
    });
    throw new HttpError(502, 'Stripe could not be asked about this event; please deliver it again.');
  }
}

export const webhookRoutes: RouteDef[] = [
  {
    // Stripe calls this; the signature over the exact bytes is the only credential.
    method: 'POST',
    path: '/api/webhooks/stripe',
    access: 'public',
    body: 'raw',
    handler: async (ctx) => {
      const secrets = await webhookSecrets(ctx.db, ctx.config);
      if (!secrets.length) {
        log.error('a Stripe webhook arrived but STRIPE_WEBHOOK_SECRET is not configured');
        throw new HttpError(503, 'Webhooks are not configured.');
      }
      const event = verifiedEvent(ctx.db, ctx.config, ctx.request.body as Buffer, ctx.get('Stripe-Signature'), secrets);
      if (!event) throw badRequest('The webhook signature is not valid.');
      ctx.body = await takeStripeEvent(ctx.db, ctx.config, event);
    },
  },
];
