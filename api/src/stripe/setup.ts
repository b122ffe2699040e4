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
  /** The endpoint being replaced, which still delivers (signed with the secret the server has). */
  replaced?: Stripe.WebhookEndpoint;
  /** The endpoint being replaced was deleted in this run. */
  replacedDeleted?: boolean;
}

/** What the server verifies events with, which decides when an endpoint being replaced may go. */
export interface ServerSecrets {
  /** The sandbox signs every endpoint's events with the installation's one secret. */
  shared: boolean;
  /** How many secrets STRIPE_WEBHOOK_SECRET holds: two once the new endpoint's is beside the old one's. */
  configured: number;
}

export const webhookUrl = (publicUrl: string) => `${publicUrl}/api/webhooks/stripe`;

const sameEvents = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Creates the endpoint `<PUBLIC_URL>/api/webhooks/stripe` with exactly the events we handle and the
 * SDK's pinned API version, or brings an existing one in line. An endpoint's API version cannot be
 * changed, so one of another version is replaced, and the new endpoint has a new signing secret.
 * The old endpoint keeps delivering until the server verifies the new one's events too (the sandbox
 * at once; with Stripe once STRIPE_WEBHOOK_SECRET holds both secrets, a later run): at no moment does
 * an event go only to an endpoint whose signature the server refuses. Meanwhile both deliver each
 * event; events are stored by id, so it is handled once. When the creation fails, the old endpoint
 * stays as it was.
 */
export async function setupWebhookEndpoint(
  stripe: Stripe,
  publicUrl: string,
  secrets: ServerSecrets = { shared: true, configured: 0 },
): Promise<SetupOutcome> {
  const url = webhookUrl(publicUrl);
  const existing = (await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({ limit: 1000 })).filter(
    (e) => e.url === url,
  );
  const wanted = {
    enabled_events: [...handledEvents],
    api_version: StripeSdk.API_VERSION,
  } as Stripe.WebhookEndpointCreateParams;
  const current = existing.find((e) => e.api_version === StripeSdk.API_VERSION);
  const old = existing.filter((e) => e !== current);
  // One old endpoint (an enabled one if there is) keeps delivering until the new one is verified.
  const replaced = old.find((e) => e.status === 'enabled') ?? old[0];
  // Others at our URL (another API version, duplicates) would deliver every event twice; going first,
  // they leave room for the new one under Stripe's limit of endpoints.
  for (const other of old) if (other !== replaced) await stripe.webhookEndpoints.del(other.id);
  let outcome: SetupOutcome;
  if (!current) {
    const endpoint = await stripe.webhookEndpoints.create({ ...wanted, url, description: 'Street newspaper shop' });
    outcome = { action: replaced ? 'recreated' : 'created', endpoint, secret: endpoint.secret };
  } else if (sameEvents(current.enabled_events, handledEvents) && current.status === 'enabled') {
    outcome = { action: 'unchanged', endpoint: current };
  } else {
    const endpoint = await stripe.webhookEndpoints.update(current.id, {
      enabled_events: wanted.enabled_events,
      disabled: false,
    });
    outcome = { action: 'updated', endpoint };
  }
  if (!replaced) return outcome;
  // A secret made in this run cannot be in STRIPE_WEBHOOK_SECRET yet, whatever it holds.
  const verified = secrets.shared || (current !== undefined && secrets.configured > 1);
  if (!verified) return { ...outcome, replaced };
  await stripe.webhookEndpoints.del(replaced.id);
  return { ...outcome, replaced, replacedDeleted: true };
}
