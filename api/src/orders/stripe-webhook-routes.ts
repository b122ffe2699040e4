import { badRequest, HttpError } from '../http/errors.ts';
import type { RouteDef } from '../http/routes.ts';
import { log } from '../foundations/log.ts';
import { connectedAccount, matchesKeyMode, StripeFailure, verifiedEvent, webhookSecrets } from '../stripe/adapter.ts';
import { PaymentNotSettled } from './settle.ts';
import { handleStripeEvent } from './stripe-events.ts';

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
      // A test event at a live shop (or the reverse) is refused before anything is stored or asked.
      if (!matchesKeyMode(ctx.config, event))
        throw badRequest(
          event.livemode
            ? 'This live mode event does not match the shop’s Stripe key.'
            : 'This test mode event does not match the shop’s Stripe key.',
        );
      // Only the paper's own account's events: its connected account's (they carry `account`,
      // https://docs.stripe.com/connect/webhooks), or without one the account's own (they carry none).
      // Another account's event is acknowledged and left alone: Stripe would only deliver it again.
      const account = await connectedAccount(ctx.db);
      if ((event.account ?? null) !== account) {
        log.warn('a Stripe webhook of another account is ignored', { event: event.id, type: event.type });
        ctx.body = { received: true, ignored: true };
        return;
      }
      let outcome: Awaited<ReturnType<typeof handleStripeEvent>>;
      try {
        outcome = await handleStripeEvent(ctx.db, ctx.config, event);
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
      ctx.body = { received: true, duplicate: outcome === 'duplicate' };
    },
  },
];
