import { isLocalStart, isLocalUrl, type Config } from '../foundations/config.ts';
import { fiscalCredentials, missingFiscalCredentials } from '../fiscal/settings.ts';
import type { Db } from '../db/connection.ts';
import { isLiveKey, isTestMode } from '../stripe/mode.ts';
import { resetPassword } from '../identity/accounts/queries.ts';
import { demoLoginsInUse } from '../../../seeds/demo.ts';

// Production is safe by default, local stays zero-config: reachable from any machine but this one
// (a PUBLIC_URL elsewhere, or listening on an interface other than loopback), the server refuses a default that could move money without a real payment (the
// sandbox, a test key), or that opens the back office to anyone (the demo seed, a demo password),
// unless that choice is made explicitly. Each refusal names the variable that decides it. A local
// start in turn refuses every request that reaches it through a proxy or under another name
// (http/local-only.ts), since a proxy on this machine would publish it with those defaults.

/** Where the server can be reached, for a refusal's first words. */
const whereReached = (config: Config) =>
  isLocalUrl(config.publicUrl) ? `HOST is ${config.host ?? 'every interface'}` : `PUBLIC_URL is ${config.publicUrl}`;

/** What the configuration alone refuses (no database needed); `paper`: a platform's paper, by its slug. */
export function configRefusals(config: Config, paper?: string): string[] {
  if (isLocalStart(config)) return fiscalRefusals(config, paper);
  const refusals: string[] = fiscalRefusals(config, paper);
  const where = whereReached(config);
  if (isLocalUrl(config.publicUrl)) {
    refusals.push(
      `HOST is ${config.host ?? 'every interface'}, so other machines reach the server, but PUBLIC_URL ` +
        `${config.publicUrlSet ? `is ${config.publicUrl}, an address of this machine only` : 'is not set'}: ` +
        'set PUBLIC_URL to the address people open the shop at (like https://shop.example.org, docs/production.md), ' +
        'or leave HOST unset to serve this machine only.',
    );
  }
  if (!config.stripe.secretKey && !config.stripe.sandbox) {
    refusals.push(
      `${where}, but STRIPE_SECRET_KEY is not set: the local test sandbox would take payments that are not real ` +
        'and credit vendors. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (docs/production.md), ' +
        'or STRIPE_SANDBOX=true to run in test mode on purpose.',
    );
  } else if (config.stripe.secretKey && isTestMode(config) && !config.stripe.sandbox) {
    refusals.push(
      `${where}, but STRIPE_SECRET_KEY is a Stripe test key: test cards would credit vendors. ` +
        'Use the live key (sk_live_…), or set STRIPE_SANDBOX=true to run in test mode on purpose.',
    );
  }
  if (config.stripe.sandbox && isLiveKey(config)) {
    refusals.push(`STRIPE_SANDBOX=true asks for test mode, but STRIPE_SECRET_KEY is a live key: remove one of them.`);
  }
  if (config.stripe.secretKey && !config.stripe.webhookSecret) {
    refusals.push(
      `${where} with STRIPE_SECRET_KEY, but STRIPE_WEBHOOK_SECRET is not set: payments could not be confirmed ` +
        '(the signing secret of the webhook endpoint at Stripe, docs/production.md).',
    );
  }
  return refusals;
}

/**
 * Signing, refused wherever the server runs: live without the provider's credentials would sign
 * nothing while receipts claim a TSE, and half of them is a typo (test mode would quietly use the
 * simulator instead of the provider the other half names).
 */
function fiscalRefusals(config: Config, paper?: string): string[] {
  const missing = missingFiscalCredentials(config);
  // A platform's paper has credentials of its own or none (paperConfig): the variables are not its.
  if (paper !== undefined && config.fiscal.mode === 'live' && missing.length)
    return [
      `FISCAL_MODE is live, but the paper ${paper} has no signing credentials of its own, so it is not served: ` +
        "its cash would go unsigned, and no other paper's account may sign it. " +
        `Give it its own with npm run paper -- fiscal ${paper} --api-key … --api-secret … --tss … --client … (docs/fiscal.md).`,
    ];
  if (config.fiscal.mode === 'live' && missing.length)
    return [
      `FISCAL_MODE is live, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set: every cash ` +
        'movement must be signed by the TSE the tax office knows. Set them (docs/fiscal.md), or FISCAL_MODE=test or off.',
    ];
  if (missing.length && missing.length < fiscalCredentials.length)
    return [
      `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set beside the other FISCAL_ credentials: ` +
        'set all four for the signing service, or none for the local simulator in test mode (docs/fiscal.md).',
    ];
  return [];
}

/** What the database refuses: a demo about to be seeded without SEED_DEMO=true, a demo password still valid. */
export async function databaseRefusals(db: Db, config: Config): Promise<string[]> {
  if (isLocalStart(config)) return [];
  const refusals: string[] = [];
  const where = whereReached(config);
  const seeded = await db('system_state').where({ key: 'demo_seeded' }).first<{ key: string } | undefined>('key');
  if (config.seedDemo && !config.seedDemoChosen && !seeded) {
    refusals.push(
      `${where}, and the demo newspaper (with demo logins) would be seeded: ` +
        'set SEED_DEMO=false for a real newspaper, or SEED_DEMO=true for a demo.',
    );
  }
  // With an external OpenID provider the embedded accounts cannot log in at all.
  if (!config.oidc.issuer) {
    const open = await demoLoginsInUse(db);
    if (open.length) {
      const names = open.map((d) => `"${d.username}"`).join(' and ');
      refusals.push(
        `${where}, and ${names} still open${open.length === 1 ? 's' : ''} with the demo password: ` +
          `give each a new password with "npm run account -- password <name>", then start again.`,
      );
    }
  }
  return refusals;
}

/**
 * A demo seeded on purpose behind a public address gets passwords of its own instead of the public
 * demo ones; they are printed once, like `npm run account` does.
 */
export async function replaceDemoPasswords(db: Db): Promise<{ username: string; password: string }[]> {
  const replaced = [];
  for (const demo of await demoLoginsInUse(db)) {
    const password = await resetPassword(db, demo.username);
    if (password) replaced.push({ username: demo.username, password });
  }
  return replaced;
}

/** The variables that name one signing account (and the secret of its TSS's admin) for every paper. */
const sharedFiscalVariables = [...fiscalCredentials, ['FISCAL_SECRET_KEY', 'secretKey']] as const;

/**
 * What many papers in one process (PLATFORM_DOMAIN) refuse besides: every paper's data lives in
 * PostgreSQL, and nothing that identifies a paper to the outside may be one for all of them.
 */
export function platformRefusals(config: Config): string[] {
  const refusals: string[] = [];
  if (!config.databaseUrl || !config.platform.secret)
    refusals.push(
      'PLATFORM_DOMAIN serves many papers from PostgreSQL only: set DATABASE_URL to the PostgreSQL database and ' +
        'PLATFORM_SECRET to the secret the papers were added with (npm run paper).',
    );
  // One outside issuer for every paper would let a login of one paper into every other.
  if (config.oidc.issuer)
    refusals.push(
      'OIDC_ISSUER is set, but many papers cannot share one login provider: leave it unset, so that each ' +
        'paper has its own embedded OpenID provider at https://<host>/oidc.',
    );
  // The FISCAL_ credentials are one fiskaly organisation: every paper's tills would sign with it, and
  // one paper's cash would be recorded at another's tax office. Each paper has its own (serve.ts).
  const shared = sharedFiscalVariables.filter(([, key]) => config.fiscal[key]).map(([name]) => name);
  if (shared.length)
    refusals.push(
      `${shared.join(', ')} ${shared.length === 1 ? 'is' : 'are'} set, but many papers cannot share one signing ` +
        "account: one paper's cash would be signed for another. Remove " +
        `${shared.length === 1 ? 'it' : 'them'} and give each paper its own with ` +
        'npm run paper -- fiscal <slug> --api-key … --api-secret … --tss … --client … (docs/fiscal.md).',
    );
  return refusals;
}
