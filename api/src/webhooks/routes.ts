import { badRequest, HttpError } from '../http/errors.ts';
import type { RouteDef } from '../http/routes.ts';
import { log } from '../log.ts';
import { Stripe, stripeClient, webhookSecret } from '../stripe/adapter.ts';
import { handleStripeEvent } from './stripe.ts';

export const webhookRoutes: RouteDef[] = [
  {
    // Stripe calls this; the signature over the exact bytes is the only credential.
    method: 'POST',
    path: '/api/webhooks/stripe',
    access: 'public',
    body: 'raw',
    handler: async (ctx) => {
      const secret = await webhookSecret(ctx.db, ctx.config);
      if (!secret) {
        log.error('a Stripe webhook arrived but STRIPE_WEBHOOK_SECRET is not configured');
        throw new HttpError(503, 'Webhooks are not configured.');
      }
      let event: Stripe.Event;
      try {
        event = stripeClient(ctx.db, ctx.config).webhooks.constructEvent(ctx.request.body as Buffer, ctx.get('Stripe-Signature'), secret);
      } catch {
        throw badRequest('The webhook signature is not valid.');
      }
      let outcome: Awaited<ReturnType<typeof handleStripeEvent>>;
      try {
        outcome = await handleStripeEvent(ctx.db, ctx.config, event);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeError)) throw error;
        // Not a fault of ours: Stripe could not be asked about the event. It delivers it again, and
        // the next delivery asks again.
        log.warn('a Stripe webhook could not be processed: Stripe did not answer', { event: event.id, type: error.type });
        throw new HttpError(502, 'Stripe could not be asked about this event; please deliver it again.');
      }
      ctx.body = { received: true, duplicate: outcome === 'duplicate' };
    },
  },
];
