import { loadConfig } from '../foundations/config.ts';
import { withSandbox } from './with-sandbox.ts';
import { configuredWebhookSecrets, keyedClient, stripeClient } from '../stripe/adapter.ts';
import { setupWebhookEndpoint, webhookUrl } from '../stripe/setup.ts';

// `npm run stripe-setup`: creates or updates the webhook endpoint <PUBLIC_URL>/api/webhooks/stripe
// at Stripe (STRIPE_SECRET_KEY) or, without a key, in this installation's sandbox, and prints the
// signing secret once. With a real key the database is not opened: it may be in use by the server.

async function main(): Promise<string> {
  const config = loadConfig();
  const sandbox = !config.stripe.secretKey;
  const outcome = sandbox
    ? await withSandbox((local, db) => setupWebhookEndpoint(stripeClient(db, local), local.publicUrl))
    : await setupWebhookEndpoint(keyedClient(config), config.publicUrl, {
        shared: false,
        configured: configuredWebhookSecrets(config).length,
      });
  const where = `${webhookUrl(config.publicUrl)} (${outcome.endpoint.id}, API version ${outcome.endpoint.api_version}, ${outcome.endpoint.enabled_events.join(', ')})`;
  const lines = [`Webhook endpoint ${outcome.action}: ${where}`];
  const old =
    outcome.replaced && `The old endpoint ${outcome.replaced.id} (API version ${outcome.replaced.api_version})`;
  if (outcome.secret && sandbox) {
    lines.push(`Signing secret (the sandbox's own; the server already uses it, nothing to set): ${outcome.secret}`);
  } else if (outcome.secret && outcome.replaced) {
    lines.push(
      'Its signing secret, shown once: put it into the environment (.env) before the secret STRIPE_WEBHOOK_SECRET holds now, comma-separated, and restart the server:',
      `STRIPE_WEBHOOK_SECRET=${outcome.secret},<the secret it holds now>`,
      `${old} keeps delivering every event meanwhile, signed with the secret the server has: none waits. Once the server runs with both secrets, run npm run stripe-setup again: it deletes the old endpoint.`,
    );
  } else if (outcome.secret) {
    lines.push(
      'Its signing secret, shown once: put it into the environment (.env) and restart the server:',
      `STRIPE_WEBHOOK_SECRET=${outcome.secret}`,
    );
  } else if (outcome.replaced && !outcome.replacedDeleted) {
    lines.push(
      `${old} still delivers: STRIPE_WEBHOOK_SECRET holds one secret. Put the new endpoint's secret (shown when it was made; Stripe's Dashboard shows it too) before the one it holds, comma-separated, restart the server and run npm run stripe-setup again.`,
    );
  } else if (outcome.replaced) {
    lines.push(
      `${old} was deleted: the new endpoint delivers alone. The old endpoint's secret may go from STRIPE_WEBHOOK_SECRET.`,
    );
  } else {
    lines.push('The signing secret is unchanged: keep STRIPE_WEBHOOK_SECRET as it is.');
  }
  return lines.join('\n');
}

main().then(
  (message) => {
    console.log(message);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(`stripe-setup failed: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
