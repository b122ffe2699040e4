import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { uuidFrom } from '../ids.ts';

/**
 * The local TSE simulator's credentials, made at random once per installation and kept in the
 * database, so every process shares them and nobody outside knows them (like the Stripe sandbox's,
 * stripe/sandbox/keys.ts). The TSS and the client the tills sign with are named after the key.
 */
export interface SimulatorCredentials {
  apiKey: string;
  apiSecret: string;
  tssId: string;
  clientId: string;
}

type Row = { api_key: string; api_secret: string };

const read = (db: Knex) =>
  db('fiscal_sandbox_credentials').where({ id: true }).first('api_key', 'api_secret') as Promise<Row | undefined>;

export async function simulatorCredentials(db: Knex): Promise<SimulatorCredentials> {
  let row = await read(db);
  if (!row) {
    // Two processes starting at once both insert; the primary key keeps the first, both read it.
    await db('fiscal_sandbox_credentials')
      .insert({
        id: true,
        api_key: `test_${randomBytes(16).toString('hex')}`,
        api_secret: randomBytes(24).toString('hex'),
      })
      .onConflict('id')
      .ignore();
    row = (await read(db))!;
  }
  return {
    apiKey: row.api_key,
    apiSecret: row.api_secret,
    tssId: uuidFrom(`simulator-tss:${row.api_key}`),
    clientId: uuidFrom(`simulator-client:${row.api_key}`),
  };
}
