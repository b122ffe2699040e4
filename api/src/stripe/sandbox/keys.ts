import type { Knex } from 'knex';
import { deriveKey } from '../../foundations/sealing.ts';
import { newId } from './objects.ts';

/**
 * The local Stripe sandbox's test-mode credentials. They are made at random once per installation
 * and kept in the database, so every process on it shares them and nobody outside knows them: with
 * the key one could create sessions, claim idempotency keys and read customers' e-mail addresses.
 */
export interface SandboxCredentials {
  secretKey: string;
  webhookSecret: string;
}

type Row = { secret_key: string; webhook_secret: string };

const read = (db: Knex) =>
  db('stripe_sandbox_credentials').where({ id: true }).first('secret_key', 'webhook_secret') as Promise<
    Row | undefined
  >;

// Once read, per database handle: the row never changes, and every Stripe call (the adapter's and
// the sandbox's check of it) needs it, so it is not read again for each.
const known = new WeakMap<Knex, SandboxCredentials>();

/** This installation's sandbox key and webhook secret, made on first use. */
export async function sandboxCredentials(db: Knex): Promise<SandboxCredentials> {
  const cached = known.get(db);
  if (cached) return cached;
  let row = await read(db);
  if (!row) {
    // Two processes starting at once both insert; the primary key keeps the first, both read it.
    await db('stripe_sandbox_credentials')
      .insert({ id: true, secret_key: newId('sk_test_', 48), webhook_secret: newId('whsec_', 40) })
      .onConflict('id')
      .ignore();
    row = (await read(db))!;
  }
  const credentials = { secretKey: row.secret_key, webhookSecret: row.webhook_secret };
  known.set(db, credentials);
  return credentials;
}

/**
 * The signing secret of the platform's Connect endpoint while the papers run their sandboxes: every
 * paper's sandbox signs its connected accounts' events with it, and the platform verifies them with
 * it (stripe/adapter.ts, platformWebhookSecrets). Each paper's sandbox keeps its own credentials in
 * its own schema, which the platform cannot read, so the secret is made from PLATFORM_SECRET, which
 * the platform and each paper's configuration share and nobody outside knows.
 */
export const platformConnectSecret = (platformSecret: string) =>
  `whsec_${deriveKey(platformSecret, 'street-paper-shop platform', 'sandbox connect webhook secret').toString('base64url')}`;
