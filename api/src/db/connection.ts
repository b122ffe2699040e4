import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import knexPkg, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import pg from 'pg';
import { migrations } from '../../../migrations/index.ts';
import { lockDataDir } from './lock.ts';
import { log } from '../foundations/log.ts';

export type Db = Knex;

/** The configuration a knex instance was made with (knex types its client as `any`). */
export function clientConfig(db: Knex): Knex.Config {
  return (db.client as { config: Knex.Config }).config;
}

// pg hands int8 (count(*), bigint cents) back as strings while PGlite gives numbers; one parser makes
// both engines agree. Values beyond 2^53 would lose precision, so refuse them loudly instead.
pg.types.setTypeParser(20, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
});

const createKnex = (knexPkg as unknown as { knex?: typeof knexPkg }).knex ?? knexPkg;

/**
 * The embedded database starts with a buffer cache of 32 MB instead of the 128 MB that initdb writes
 * into every data directory's postgresql.conf: PGlite touches the whole cache in its WebAssembly
 * memory at each start, so an open database held about 160 MB resident (about 55 MB now) and spent
 * about two fifths of its start's CPU on it. The demo paper's whole database (11 MB) fits in it; a
 * page that does not is read from the operating system's file cache.
 */
const embeddedStart = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

export interface DbOptions {
  /** PostgreSQL connection string; without it PGlite runs embedded. */
  databaseUrl?: string;
  /** PGlite data directory, or 'memory://' for a throw-away database. */
  dataDir: string;
  /** PostgreSQL schema to work in (tests use their own, a platform's paper its `paper_<slug>`). */
  schema?: string;
  /** Most connections of the PostgreSQL pool (10 unless given; a platform's paper has a few). */
  poolMax?: number;
  /** How long an unused connection of the pool stays open (tarn's 30 s unless given). */
  poolIdleMs?: number;
  /**
   * How long a query waits for PGlite's one connection before it fails (knex's 60 s unless given).
   * Opening the database is not bound by it (`migrate` waits for it); tests shorten it to show that.
   */
  embeddedAcquireTimeoutMs?: number;
}

// When PostgreSQL goes away, requests must fail within seconds (503, try again) rather than queue for
// a minute, and must not be handed a connection that died meanwhile. knex already listens for pg's
// 'error' and 'end' on every client and drops such a client from the pool instead of reusing it, so
// an idle connection dying never becomes an unhandled 'error' that stops the process.
/** Longest wait for a pooled connection before the request is answered 503. */
const acquireTimeoutMs = 10_000;
/** Longest wait for a new TCP connection and PostgreSQL's greeting. */
const connectTimeoutMs = 5_000;
/** A runaway statement is stopped by the server instead of holding its connection and locks. */
const statementTimeoutMs = 30_000;
/** A transaction left open by a vanished client releases its locks. */
const idleInTransactionTimeoutMs = 60_000;

/** A connection string with its password masked, for anything that may end up in a log. */
export const withoutPassword = (text: string) => text.replace(/(\w+:\/\/[^:/@\s]*:)[^@\s]*@/g, '$1***@');

/** knex's notes on a failed connection attempt and on a pooled connection found dead. */
const connectionNotes = /^(Acquire connection error|Connection Error)/;

/**
 * knex's own warnings go to our log as one line, without secrets. Its connection notes are left
 * out: the request that meets the outage logs it, once (a cut would add one note per connection).
 */
const knexLog = (level: 'warn' | 'error') => (message: unknown) => {
  const text = String((message as Error)?.message ?? message);
  if (!connectionNotes.test(text)) log[level]('database', { message: withoutPassword(text) });
};

export function createDb(options: DbOptions): Db {
  if (options.databaseUrl) {
    return createKnex({
      client: 'pg',
      connection: {
        connectionString: options.databaseUrl,
        connectionTimeoutMillis: connectTimeoutMs,
        statement_timeout: statementTimeoutMs,
        idle_in_transaction_session_timeout: idleInTransactionTimeoutMs,
        // The books' long reports run on row estimates the planner gets wrong by far; JIT then
        // compiles for a big statement and spends more than it saves (a vendor's year statement on a
        // 2-million-row history: 125 ms with JIT, 40 ms without, npm run bench -- books).
        options: '-c jit=off',
        keepAlive: true,
      },
      searchPath: options.schema ? [options.schema] : undefined,
      pool: {
        min: 0,
        max: options.poolMax ?? 10,
        ...(options.poolIdleMs ? { idleTimeoutMillis: options.poolIdleMs } : {}),
      },
      acquireConnectionTimeout: acquireTimeoutMs,
      log: { warn: knexLog('warn'), error: knexLog('error'), deprecate: knexLog('warn'), debug: () => {} },
    });
  }
  const memory = options.dataDir === 'memory://';
  if (!memory) fs.mkdirSync(options.dataDir, { recursive: true });
  // Every opener of a data directory comes through here, so here it takes the directory's lock.
  const release = memory ? undefined : lockDataDir(options.dataDir);
  // amcheck, for npm run check's comparison of every index with its table (maintenance/check.ts)
  const pglite = new PGlite(memory ? 'memory://' : options.dataDir, {
    extensions: { amcheck },
    startParams: embeddedStart,
  });
  const db = createKnex({
    client: ClientPgLite,
    dialect: 'postgres',
    connection: { pglite },
    ...(options.embeddedAcquireTimeoutMs ? { acquireConnectionTimeout: options.embeddedAcquireTimeoutMs } : {}),
  } as Knex.Config);
  if (release) {
    // knex's own destroy is read-only; it ends in its client's, which closes PGlite.
    const client = db.client as { destroy: (callback?: unknown) => Promise<void> };
    const destroy = client.destroy.bind(client);
    client.destroy = async (callback) => {
      try {
        await destroy(callback);
      } finally {
        release();
      }
    };
  }
  return db;
}

/** knex's pg client, for the statements that go to the driver directly (hotRows). */
interface PgClient extends Pick<NodeJS.EventEmitter, 'emit'> {
  acquireConnection(): Promise<pg.ClientBase>;
  releaseConnection(connection: pg.ClientBase): Promise<void>;
}

/**
 * A hot read as a prepared statement: its SQL in pg's own $n placeholders (from knex's `?` ones,
 * translated once) and the name it is prepared under on each connection that ran it.
 */
interface HotStatement {
  text: string;
  name: string;
}

const hotStatements = new Map<string, HotStatement>();

function hotStatement(db: Knex, sql: string, bindings: readonly Knex.Value[]): HotStatement {
  let statement = hotStatements.get(sql);
  if (!statement) {
    statement = { text: db.raw(sql, bindings).toSQL().toNative().sql, name: `hot-${hotStatements.size}` };
    hotStatements.set(sql, statement);
  }
  return statement;
}

/**
 * The rows of one statement on the hot paths: the public reads (the vendor check, the shop page, the
 * receipt) and the long statements of a purchase (placing the order, storing Stripe's event, booking
 * it). On PostgreSQL it goes to the driver on a connection of knex's pool, or on the connection of
 * the transaction `db` is, as a prepared statement: knex's building and running of a query cost as
 * much time as the query itself (its rewriting of `?` into `$n` grows with the statement's length),
 * and PostgreSQL planned the query anew each time, on the same two cores. Each names its
 * columns, so a column added by a later migration does not change the prepared statement's result.
 * On PGlite it goes through knex, which queues it behind an open transaction on the one connection.
 * Either way knex's 'query' event tells listeners about it, as for every other query: through the
 * client, so a transaction's statement reaches the listeners of the knex it came from too.
 */
export async function hotRows<T>(db: Knex, sql: string, bindings: readonly Knex.Value[]): Promise<T[]> {
  if (clientConfig(db).client !== 'pg') return (await db.raw<{ rows: T[] }>(sql, bindings)).rows;
  const { text, name } = hotStatement(db, sql, bindings);
  const client = db.client as PgClient;
  client.emit('query', { sql: text, bindings, method: 'raw' });
  const connection = await client.acquireConnection();
  try {
    return (await connection.query<T & pg.QueryResultRow>({ name, text, values: bindings as unknown[] })).rows;
  } finally {
    await client.releaseConnection(connection);
  }
}

const migrationSource: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: () => Promise.resolve(migrations),
  getMigrationName: (m) => m.name,
  getMigration: (m) => Promise.resolve(m),
};

/**
 * Answers the database once it is open. PGlite opens when knex first asks for its connection, and
 * knex gives up on that after its acquire timeout: a large database replaying its journal after a
 * crash took longer, and the start (db/open.ts) called it damaged, a backup called it a timeout.
 * Its opening is waited for, however long it takes. PostgreSQL connects per query, as before.
 */
export async function opened(db: Db): Promise<Db> {
  const config = clientConfig(db) as { client: unknown; connection: unknown };
  if (config.client !== 'pg') await (config.connection as { pglite: PGlite }).pglite.waitReady;
  return db;
}

/**
 * Identifies the migration lock among all of the database's advisory locks; the schema is the lock's
 * second key, so the papers of one platform (each its own schema) migrate without waiting for another.
 */
export const migrationLockKey = 4_004_000;

/**
 * Brings the schema up to date. Several API processes may start together on one PostgreSQL, and
 * knex's own lock makes the second one fail rather than wait, so they queue on an advisory lock
 * first and the later ones find nothing left to do. A migration may rewrite a big table, so it runs
 * on connections of its own without the request timeouts. PGlite is one process with one connection.
 */
export async function migrate(db: Db): Promise<void> {
  const config = clientConfig(db) as Omit<Knex.Config, 'connection'> & { connection: Knex.PgConnectionConfig };
  if (config.client !== 'pg') {
    await opened(db);
    await db.migrate.latest({ migrationSource });
    return;
  }
  const migrator = createKnex({
    ...config,
    connection: { ...config.connection, statement_timeout: 0, idle_in_transaction_session_timeout: 0 },
    pool: { min: 0, max: 2 },
  });
  try {
    await migrator.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, hashtext(current_schema()))', [migrationLockKey]);
      await migrator.migrate.latest({ migrationSource });
    });
  } finally {
    await migrator.destroy();
  }
}

/**
 * Takes a job's advisory lock for this transaction if no other holds it. The schema is the lock's
 * second key: one job at a time per paper, while the papers of one platform (each its own schema on
 * the same PostgreSQL) never wait for each other's.
 */
export async function tryJobLock(trx: Knex.Transaction, key: number): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { locked: boolean }[] }>(
    'select pg_try_advisory_xact_lock(?, hashtext(current_schema())) as locked',
    [key],
  );
  return rows[0]?.locked === true;
}

/** The names of the migrations the database's schema still lacks. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  await opened(db);
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown, { name: string }[]];
  return pending.map((m) => m.name);
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

/**
 * Whether PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization conflict
 * (40001): it undid all of it, so the whole transaction may run again.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = pgCode(error);
  return code === '40P01' || code === '40001';
}

/** Network failures and PostgreSQL's "shutting down / connection lost" codes (classes 08 and 57P). */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** pg's messages for a connection that broke or never came up; they carry no code. */
const lostConnection = /Connection terminated|not queryable|timeout exceeded when trying to connect/i;

/** Whether a failed query means the database cannot be reached (try again later) rather than a fault of ours. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const e = error as { name?: unknown; message?: unknown } | null | undefined;
  if (!e) return false;
  const code = pgCode(error);
  return (
    e.name === 'KnexTimeoutError' ||
    (code !== undefined && unreachableCodes.has(code)) ||
    (typeof e.message === 'string' && lostConnection.test(e.message))
  );
}
