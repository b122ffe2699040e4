import { loadConfig } from '../foundations/config.ts';
import { openDb, openFailureMessage } from '../db/open.ts';
import { conflictError, DomainError, invalidError } from '../foundations/errors.ts';
import type { Db } from '../db/connection.ts';
import { keyedClient, stripeClient, type Stripe } from '../stripe/adapter.ts';
import { createConnectedAccount, onboardingLink, useConnectedAccount } from '../stripe/connect.ts';
import { withSandbox } from './with-sandbox.ts';

// `npm run stripe-connect`: the paper's own Stripe account, connected to the platform's key
// (STRIPE_SECRET_KEY; without one, this installation's sandbox). See docs/production.md.

const usage = `Usage:
  npm run stripe-connect -- create [--country DE] [--email <address>]   a new Standard account and its onboarding link
  npm run stripe-connect -- link <acct_…>                                 a fresh onboarding link (each expires after minutes)
  npm run stripe-connect -- use <acct_…>|none                             the paper sells on that account (none: on the platform's)

Uses the same database as npm start (DATABASE_URL or DATA_DIR) for "use".`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

async function command(args: string[], stripe: Stripe, db: () => Promise<Db>, publicUrl: string, country: string) {
  const [verb, account] = args;
  if (verb === 'create') {
    const created = await createConnectedAccount(stripe, option(args, 'country') ?? country, option(args, 'email'));
    const link = await onboardingLink(stripe, created.id, publicUrl);
    return `Account ${created.id} created (${created.country}, ${created.default_currency}). Its owner sets it up at:\n${link.url}\nThen: npm run stripe-connect -- use ${created.id}`;
  }
  if (verb === 'link' && account) return (await onboardingLink(stripe, account, publicUrl)).url;
  if (verb === 'use' && account) {
    await useConnectedAccount(await db(), stripe, account === 'none' ? null : account);
    return account === 'none'
      ? 'The paper sells on the platform’s own Stripe account again.'
      : `The paper sells on ${account} from its next order on.`;
  }
  throw invalidError(usage);
}

async function run(args: string[]): Promise<string> {
  const config = loadConfig();
  // A platform's papers live in schemas of their own, which this command does not open: their
  // settings, and without a key their sandboxes, are reached through npm run paper.
  if (config.platform.domain && (args[0] === 'use' || !config.stripe.secretKey))
    throw invalidError(
      'On a platform (PLATFORM_DOMAIN) a paper sells on its account with npm run paper -- connect <slug> <acct_…>, which the platform’s Connect endpoint finds it by; without STRIPE_SECRET_KEY each paper has a sandbox of its own, which this command does not reach.',
    );
  if (!config.stripe.secretKey)
    return withSandbox((local, db) =>
      command(args, stripeClient(db, local), () => Promise.resolve(db), config.publicUrl, config.country),
    );
  let opened: Db | undefined;
  const db = async () =>
    (opened ??= await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
      throw conflictError(openFailureMessage(error));
    }));
  try {
    return await command(args, keyedClient(config), db, config.publicUrl, config.country);
  } finally {
    await opened?.destroy();
  }
}

try {
  console.log(await run(process.argv.slice(2)));
} catch (error) {
  console.error(error instanceof DomainError ? error.message : String((error as Error)?.message ?? error));
  process.exitCode = 1;
}
