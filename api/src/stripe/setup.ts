import type { Stripe } from './adapter.ts';
import { Stripe as StripeSdk } from './adapter.ts';
import { handledEvents } from './events.ts';

// `npm run stripe-setup`: the webhook endpoint at Stripe that delivers our events, made through the
// SDK so that going live needs no clicking in the Dashboard and a second run changes nothing.

export interface SetupOutcome {
  action: 'created' | 'recreated' | 'updated' | 'unchanged';
  endpoint: Stripe.WebhookEndpoint;
  /** The signing secret: Stripe shows it only when an endpoint is created. */
  secret?: string;
}

export const webhookUrl = (publicUrl: string) => `${publicUrl}/api/webhooks/stripe`;

const sameEvents = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Creates the endpoint `<PUBLIC_URL>/api/webhooks/stripe` with exactly the events we handle and the
 * SDK's pinned API version, or brings an existing one in line. An endpoint's API version cannot be
 * changed, so one of another version is replaced (which gives it a new signing secret). The new
 * endpoint is made before the old one goes: at no moment is there none, so an event that happens
 * meanwhile is sent to one of them (or both: events are stored by id, so it is handled once), and
 * Stripe retries it (for days) until the server has the new secret. When the creation fails, the old
 * endpoint stays as it was.
 */
export async function setupWebhookEndpoint(stripe: Stripe, publicUrl: string): Promise<SetupOutcome> {
  const url = webhookUrl(publicUrl);
  const existing = (await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 })).filter(
    (e) => e.url === url,
  );
  const wanted = {
    enabled_events: [...handledEvents],
    api_version: StripeSdk.API_VERSION,
  } as Stripe.WebhookEndpointCreateParams;
  const current = existing.find((e) => e.api_version === StripeSdk.API_VERSION);
  // Until its replacement exists, one old endpoint (an enabled one if there is) keeps delivering.
  const kept = current ?? existing.find((e) => e.status === 'enabled') ?? existing[0];
  // Others at our URL (another API version, duplicates) would deliver every event twice; going first,
  // they leave room for the new one under Stripe's limit of endpoints.
  for (const other of existing) if (other !== kept) await stripe.webhookEndpoints.del(other.id);
  if (!current) {
    const endpoint = await stripe.webhookEndpoints.create({ ...wanted, url, description: 'Street newspaper shop' });
    if (kept) await stripe.webhookEndpoints.del(kept.id);
    return { action: kept ? 'recreated' : 'created', endpoint, secret: endpoint.secret };
  }
  if (sameEvents(current.enabled_events, handledEvents) && current.status === 'enabled')
    return { action: 'unchanged', endpoint: current };
  const endpoint = await stripe.webhookEndpoints.update(current.id, {
    enabled_events: wanted.enabled_events,
    disabled: false,
  });
  return { action: 'updated', endpoint };
}
