// The end-to-end tests' server process, one per test process, serving one paper after another on
// the same port. Each suite hands it a data directory (a copy of the seeded template, or one of its
// own) and the paper's settings; the host opens that database and serves it through the same start as
// `npm start` (startup/paper.ts: the paper's data made ready, its app and jobs bound to its own
// database and configuration); at the suite's end it stops the paper's jobs and closes its database,
// as the server's shutdown does. A new paper begins with nothing of the one before it, since a paper's
// state hangs off its database and configuration, never off the process (the platform serves many
// papers in one process on the same guarantee); what a suite gains is the process's start: Node,
// the modules and PGlite's WebAssembly, about four CPU-seconds each time.
//
// A paper begun from the seeded template (most suites') is served from one data directory the host
// keeps open: the first such lease opens a copy of the template, and each later one loads the demo
// back into it (tests/support/reset.ts, as the API tests' engines between suites) where a new copy
// would cost the test process about 0.7 CPU-seconds (some 1,300 files of Postgres's made anew) and the
// host the opening and the closing of PGlite. Each lease gets a knex of its own over that PGlite:
// what the product keeps in memory per database (keyed by its knex: a TSS known to be ready, the
// cash registers set up at SIGN AT, the Stripe sandbox's keys) begins empty for each paper, as in a
// process of its own, although the same files were loaded back underneath it. The paper's start
// (startup/paper.ts) runs on it as on any start; its jobs stop and its knex ends at the lease's end.
//
// Started by tests/e2e/host.ts with an IPC channel; what the process itself shows (its banner, its
// exit code, its listening address) stays a test of the real server (`startServer`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import knexPkg, { type Knex } from 'knex';
import type { Db } from '../../api/src/db/connection.ts';
import { openDb, openFailureMessage } from '../../api/src/db/open.ts';
import { ConfigError, loadConfig } from '../../api/src/foundations/config.ts';
import { log, setLogSilent } from '../../api/src/foundations/log.ts';
import { createShopServer } from '../../api/src/http/timeouts.ts';
import { preparePaper, servePaper, type ServedPaper } from '../../api/src/startup/paper.ts';
import { configRefusals, databaseRefusals } from '../../api/src/startup/safety.ts';
import { resetDatabase } from '../support/reset.ts';

/**
 * What the test process asks: serve this data directory with these settings (`kept`: the host's kept
 * copy of the seeded template, the demo loaded back into it first), or stop the paper served.
 */
export type HostCall = { serve: { dataDir: string; env: NodeJS.ProcessEnv; kept?: boolean } } | { release: true };
/** The answer: served, or refused with the reasons the real server would print before it exits. */
export type Answer = { served: true } | { refused: string } | { released: true; problems: string[] };
/** Each call and its answer carry the call's number, so that a late answer is never taken for another's. */
export type HostRequest = { id: number } & HostCall;
export type HostAnswer = { id: number } & Answer;

const base = loadConfig();
setLogSilent(base.logLevel === 'silent');

// knex as a CommonJS package hands its function over as the default export, or under `knex`.
const createKnex = (knexPkg as unknown as { knex?: typeof knexPkg }).knex ?? knexPkg;

let current: { db: Db; paper: ServedPaper } | undefined;
/**
 * The copy of the seeded template the host keeps open between leases, once a lease asked for it: its
 * knex is the host's, for the resets; each lease's paper is served through one of its own (leaseOf).
 */
let kept: { dataDir: string; db: Db } | undefined;
/** Errors nobody caught while a paper was served: the real server would have crashed on them. */
let problems: string[] = [];
let stopping = false;

const notServing = (_req: IncomingMessage, res: ServerResponse) => {
  res.statusCode = 503;
  res.end('no paper is served at the moment');
};
// Only this machine reaches the host: one address is everybody (as server.ts for a local start).
const server = createShopServer((req, res) => (current?.paper.handle ?? notServing)(req, res), {
  ...base,
  maxConnectionsPerAddress: Infinity,
});

const caught = (error: unknown) => {
  const text = String((error as Error)?.stack ?? error);
  // Work a stop cuts off (a job's call as its database closes) is taken up again by its next start.
  if (stopping || !current) log.warn('work cut off by a paper’s stop', { error: text });
  else problems.push(text);
};
process.on('uncaughtException', caught);
process.on('unhandledRejection', caught);

/** The database of `dataDir`: the kept one with the demo loaded back, or the directory's own, opened. */
async function open(dataDir: string, keep: boolean): Promise<Db> {
  if (keep && kept?.dataDir === dataDir) {
    await resetDatabase(kept.db);
    return leaseOf(kept.db);
  }
  const db = await openDb({ dataDir });
  if (!keep) return db;
  await closeKept();
  kept = { dataDir, db };
  // The first reset seeds the demo as the template holds it and keeps what it loads back later.
  await resetDatabase(db);
  return leaseOf(db);
}

/**
 * A knex of the lease's own over the kept database's PGlite (the same configuration, so the same
 * connection). Its destroy ends its pool and leaves PGlite open: the host's knex closes it. The two
 * never work at once: the host resets only between leases.
 */
function leaseOf(keptDb: Db): Db {
  const { client, dialect, connection } = keptDb.client.config as Knex.Config;
  const db = createKnex({ client, dialect, connection } as Knex.Config);
  (db.client as { destroyRawConnection: () => Promise<void> }).destroyRawConnection = () => Promise.resolve();
  return db;
}

async function closeKept(): Promise<void> {
  const was = kept;
  kept = undefined;
  await was?.db.destroy();
}

async function serve(dataDir: string, env: NodeJS.ProcessEnv, keep: boolean): Promise<Answer> {
  // A paper whose lease was given up (its test timed out) stops before the next one is served.
  await release();
  let config;
  try {
    config = loadConfig({ ...env, PORT: String(base.port), PUBLIC_URL: base.publicUrl, DATA_DIR: dataDir });
  } catch (error) {
    if (error instanceof ConfigError) return { refused: error.message };
    throw error;
  }
  const refusals = configRefusals(config);
  if (refusals.length) return { refused: refusals.join('\n') };
  let db: Db;
  try {
    db = await open(dataDir, keep);
  } catch (error) {
    return { refused: openFailureMessage(error) };
  }
  const close = () => db.destroy();
  const dbRefusals = await databaseRefusals(db, config);
  if (dbRefusals.length) {
    await close();
    return { refused: dbRefusals.join('\n') };
  }
  try {
    await preparePaper(db, config);
  } catch (error) {
    await close();
    throw error;
  }
  problems = [];
  current = { db, paper: servePaper(db, config) };
  return { served: true };
}

async function release(): Promise<Answer> {
  const was = current;
  const found = problems;
  if (was) {
    stopping = true;
    was.paper.stop();
    // A receipt still waiting for its payment, a keep-alive socket: nothing of this paper stays open.
    server.closeAllConnections();
    current = undefined;
    await was.db.destroy();
    stopping = false;
  }
  problems = [];
  return { released: true, problems: found };
}

process.on('message', (request: HostRequest) => {
  const answer =
    'serve' in request ? serve(request.serve.dataDir, request.serve.env, request.serve.kept === true) : release();
  answer.then(
    (reply) => process.send?.({ id: request.id, ...reply }),
    (error: unknown) => process.send?.({ id: request.id, refused: String((error as Error)?.stack ?? error) }),
  );
});

// The test process going away (its IPC channel closed) ends the host, cleanly if it can.
const end = () => release().then(closeKept);
process.on('disconnect', () => void end().finally(() => process.exit(0)));
process.on('SIGTERM', () => void end().finally(() => server.close(() => process.exit(0))));

server.listen(base.port, base.host, () => console.log(`Listening: ${base.publicUrl}`));
