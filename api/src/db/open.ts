import fs from 'node:fs';
import path from 'node:path';
import { createDb, migrate, type Db, type DbOptions } from './connection.ts';
import { DatabaseInUseError } from './lock.ts';
import { isDiskFull } from './space.ts';

// A start that cannot open the database must say why and what to do. PGlite on its own answers a
// full disk with `RuntimeError: Aborted()` or "PGlite failed to initialize properly", a directory it
// may not write with the same, and a damaged one likewise; so when the embedded database does not
// come up, the directory itself is examined: permissions, space, the files PostgreSQL needs.

/** The embedded database could not be opened; the message says why and what to do. */
export class DatabaseOpenError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DatabaseOpenError';
  }
}

/**
 * Below this much free space PGlite cannot be trusted to start: a new database takes about 50 MB,
 * and an existing one needs room for a 16 MB WAL segment at least.
 */
const startRoomBytes = (dir: string) => (fs.existsSync(path.join(dir, 'PG_VERSION')) ? 32 : 64) * 1024 * 1024;

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/** Why the disk of `dir` is too full to start on, or undefined. */
function tooFull(dir: string): string | undefined {
  try {
    const { bavail, bsize } = fs.statfsSync(dir);
    if (bavail * bsize >= startRoomBytes(dir)) return undefined;
    return (
      `The disk of ${dir} is full: ${megabytes(bavail * bsize)} free, the embedded database needs at least ` +
      `${megabytes(startRoomBytes(dir))} to start. Free some space (or give the volume more), then start again; ` +
      'nothing is lost.'
    );
  } catch {
    return undefined; // no statfs here: the other checks still speak
  }
}

function unwritable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** Why the embedded database in `dir` does not open, as far as its directory tells, or undefined. */
export function diagnoseDataDir(dir: string): string | undefined {
  const inside = ['', 'PG_VERSION', 'global', 'global/pg_control', 'base', 'pg_wal'].map((n) => path.join(dir, n));
  const denied = inside.find(unwritable);
  if (denied) {
    return (
      `The server may not read and write ${denied}. Give the user it runs as (uid ${process.getuid?.() ?? '?'}) ` +
      `ownership of ${dir} (e.g. chown -R), then start again.`
    );
  }
  const full = tooFull(dir);
  if (full) return full;
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    const missing = ['global/pg_control', 'base', 'pg_wal'].filter((name) => !fs.existsSync(path.join(dir, name)));
    const damaged = missing.length ? `it lacks ${missing.join(', ')}` : 'its files do not open as a database';
    return (
      `The embedded database in ${dir} is damaged: ${damaged}. Keep the directory as it is (a copy for later ` +
      'examination), start with an empty DATA_DIR and load the last backup into it with npm run restore -- <file>.'
    );
  }
  return undefined;
}

/**
 * Opens the database of a long-lived program (the server, npm run account) and brings its schema up
 * to date; a failure to do so becomes a DatabaseOpenError that says why, instead of PGlite's
 * "Aborted()". The lock's refusal (DatabaseInUseError) passes as it is: it names the holder already.
 */
export async function openDb(options: DbOptions): Promise<Db> {
  // Checked before PGlite starts: on a full disk its start can end in an exception nobody can catch.
  if (!options.databaseUrl && options.dataDir !== 'memory://' && fs.existsSync(options.dataDir)) {
    const full = tooFull(options.dataDir);
    if (full) throw new DatabaseOpenError(full);
  }
  const db = createDb(options);
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.destroy().catch(() => undefined);
    if (options.databaseUrl) {
      if (isDiskFull(error)) {
        const message = 'The disk of the PostgreSQL server is full: free some space there, then start again.';
        throw new DatabaseOpenError(message, { cause: error });
      }
      throw error;
    }
    const why = diagnoseDataDir(options.dataDir);
    if (why) throw new DatabaseOpenError(why, { cause: error });
    throw new DatabaseOpenError(
      `The embedded database in ${options.dataDir} did not open (${String((error as Error)?.message ?? error)}). ` +
        'If this repeats, start with an empty DATA_DIR and load the last backup with npm run restore -- <file>.',
      { cause: error },
    );
  }
}

/** What a program prints when its database did not open: the reason alone where we know it. */
export const openFailureMessage = (error: unknown) =>
  error instanceof DatabaseOpenError || error instanceof DatabaseInUseError
    ? error.message
    : String((error as Error)?.stack ?? error);
