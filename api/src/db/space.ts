import { pgCode } from './connection.ts';
import { log } from '../foundations/log.ts';

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

/**
 * A disk at its edge takes a small write now and then between refusals; only a write this long after
 * the last refusal shows room again, so one episode is one line when it begins and one when it ends.
 */
export const settleMs = 5_000;

let fullSince: number | undefined;
let lastSeen = 0;
let lastWritten = 0;

/** Notes a full-disk error; the first of an episode is logged. */
export function noteDiskFull(error: unknown, now = Date.now()): void {
  lastSeen = now;
  if (fullSince !== undefined) return;
  fullSince = lastSeen;
  log.error('database disk full', { error: String((error as Error)?.message ?? error), code: pgCode(error) });
}

/** A write went through: if the disk was full and has refused nothing for a while, it has room again. */
export function noteWriteSucceeded(now = Date.now()): void {
  lastWritten = now;
  if (fullSince === undefined || now - lastSeen < settleMs) return;
  log.info('database disk has room again', { fullForSeconds: Math.round((now - fullSince) / 1000) });
  fullSince = undefined;
}

/**
 * Whether the database's disk is (as far as the last writes tell) full right now: the last write
 * was refused, not long ago. After a quiet while it lets traffic in to find out. The log's episode
 * is steadier (settleMs), so a refusal after a write that slipped through is no new beginning in it.
 */
export function diskIsFull(now = Date.now()): boolean {
  return fullSince !== undefined && lastSeen > lastWritten && now - lastSeen <= forgetAfterMs;
}
