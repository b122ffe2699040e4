import fs from 'node:fs';
import path from 'node:path';
import { createDb, opened, withoutPassword, type Db, type DbOptions } from '../db/connection.ts';
import { DatabaseInUseError } from '../db/lock.ts';
import { MaintenanceError } from './errors.ts';

// Opening the database a maintenance command works on. PostgreSQL serves any number of clients, so
// a backup may run beside the servers. PGlite is PostgreSQL inside one process: a second process
// opening the same data directory would read pages the server is still writing, or write beside
// it, and corrupt it. createDb takes the data directory's lock (db/lock.ts), which refuses this
// while the server (or any other opener) runs and takes over the lock of one that was killed.

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export interface Target {
  databaseUrl?: string;
  dataDir: string;
}

/** Where a command's database is, for messages (without a password). */
export const describeTarget = (target: Target) =>
  target.databaseUrl
    ? `PostgreSQL ${withoutPassword(target.databaseUrl)}`
    : `the embedded database in ${target.dataDir}`;

/**
 * Opens the database of `target`. For PGlite, `existing` requires a database in the directory
 * (backup, move); otherwise the directory may be missing or empty (restore). PGlite is waited for
 * however long its opening takes (db/connection.ts `opened`); `embeddedAcquireTimeoutMs` is for tests.
 */
export async function openDatabase(
  target: Target,
  { existing, embeddedAcquireTimeoutMs }: { existing: boolean } & Pick<DbOptions, 'embeddedAcquireTimeoutMs'>,
): Promise<Db> {
  if (target.databaseUrl) return createDb({ databaseUrl: target.databaseUrl, dataDir: target.dataDir });
  const dir = target.dataDir;
  if (existing && !fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    throw new MaintenanceError(
      `There is no embedded database in ${dir}. Set DATA_DIR to the server's data directory (default ./data).`,
    );
  }
  let db: Db;
  try {
    db = createDb({ dataDir: dir, embeddedAcquireTimeoutMs });
  } catch (error) {
    throw error instanceof DatabaseInUseError ? new MaintenanceError(error.message) : error;
  }
  return opened(db);
}
