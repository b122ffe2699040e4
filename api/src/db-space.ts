import { pgCode } from './db.ts';
import { log } from './log.ts';

// A full disk under the database (PostgreSQL's SQLSTATE 53100 "disk full"; PGlite reports the same
// code, e.g. "could not write to file "pg_wal/xlogtemp.42": No space left on device") is not a fault
// of the request: it is answered 503 with a message a person understands, /readyz fails while it
// lasts, and the log says so once when it begins and once when it ends, not once per request (the
// access log still has every request). Reads keep working meanwhile, and nothing committed is lost.

/** A full disk on PostgreSQL or in PGlite. */
export const isDiskFull = (error: unknown) =>
  pgCode(error) === '53100' || /No space left on device/i.test(String((error as Error)?.message ?? ''));

/** After this long without another full-disk error, /readyz lets traffic in again to find out. */
const forgetAfterMs = 30_000;

let fullSince: number | undefined;
let lastSeen = 0;

/** Notes a full-disk error; the first of an episode is logged. */
export function noteDiskFull(error: unknown): void {
  lastSeen = Date.now();
  if (fullSince !== undefined) return;
  fullSince = lastSeen;
  log.error('database disk full', { error: String((error as Error)?.message ?? error), code: pgCode(error) });
}

/** A write went through: if the disk was full, it has room again. */
export function noteWriteSucceeded(): void {
  if (fullSince === undefined) return;
  log.info('database disk has room again', { fullForSeconds: Math.round((Date.now() - fullSince) / 1000) });
  fullSince = undefined;
}

/**
 * Whether the database's disk is (as far as the last writes tell) full right now. After a quiet
 * while it lets traffic in to find out; the episode (and its log line) ends only with a write
 * that goes through, so a refusal after the quiet while is no new beginning in the log.
 */
export function diskIsFull(): boolean {
  return fullSince !== undefined && Date.now() - lastSeen <= forgetAfterMs;
}
