import fs from 'node:fs';
import knexPkg, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { migrations } from '../../migrations/index.ts';

export type Db = Knex;

// pg hands int8 (count(*), bigint cents) back as strings while PGlite gives numbers; one parser makes
// both engines agree. Values beyond 2^53 would lose precision, so refuse them loudly instead.
pg.types.setTypeParser(20, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
});

const createKnex = ((knexPkg as unknown as { knex?: typeof knexPkg }).knex ?? knexPkg) as typeof knexPkg;

export interface DbOptions {
  /** PostgreSQL connection string; without it PGlite runs embedded. */
  databaseUrl?: string;
  /** PGlite data directory, or 'memory://' for a throw-away database. */
  dataDir: string;
  /** PostgreSQL schema to work in (tests use their own). */
  schema?: string;
}

export function createDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    return createKnex({
      client: 'pg',
      connection: options.databaseUrl,
      searchPath: options.schema ? [options.schema] : undefined,
      pool: { min: 0, max: 10 },
    });
  }
  const memory = options.dataDir === 'memory://';
  if (!memory) fs.mkdirSync(options.dataDir, { recursive: true });
  return createKnex({
    client: ClientPgLite as unknown as Knex.Config['client'],
    dialect: 'postgres',
    connection: memory ? {} : { filename: options.dataDir },
  } as Knex.Config);
}

const migrationSource: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/** Bytes from a bytea column: pg gives a Buffer, PGlite a Uint8Array. */
export function toBuffer(value: Uint8Array | Buffer): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** PostgreSQL error code of a failed query, if it is one. */
export function pgCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}
