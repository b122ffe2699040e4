import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The embedded database (PGlite) is PostgreSQL inside one process: a second process opening the same
// data directory reads pages the first is still writing and writes beside it, and the books come
// apart silently. So every program that opens a data directory holds this lock first.
// PGlite's own postmaster.pid cannot serve: it always says pid -42, and stays behind after kill -9.
//
// The lock is a file made with an atomic exclusive create (link(2) of a finished file, so nobody
// ever reads a half-written one) holding the holder's pid, host, program and start. A lock whose
// process is gone on this host is taken over without a manual step; a lock of another host never is
// (its process cannot be seen from here).

/** The lock file's name inside the data directory. */
export const lockFileName = 'shop.lock';

export interface LockHolder {
  pid: number;
  host: string;
  /** What runs, e.g. "npm start", "npm run backup". */
  program: string;
  /** ISO time the lock was taken. */
  since: string;
  /** Linux: the kernel's boot id and the process's start (clock ticks after boot), against pid reuse. */
  bootId?: string;
  startTicks?: string;
}

/** The data directory is in use by another process (or host); the message names it and what to do. */
export class DatabaseInUseError extends Error {
  constructor(
    message: string,
    readonly holder: LockHolder,
  ) {
    super(message);
    this.name = 'DatabaseInUseError';
  }
}

const readText = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
};

const bootId = () => readText('/proc/sys/kernel/random/boot_id');

/** Field 22 of /proc/<pid>/stat: when the process started; the command name (field 2) may hold spaces. */
function startTicksOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** "npm start", "npm run account", … as the person typed it, else the script node runs. */
function programName(): string {
  const event = process.env.npm_lifecycle_event;
  if (event) return event === 'start' ? 'npm start' : `npm run ${event}`;
  const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) : 'node';
  return `node ${script}`;
}

function me(): LockHolder {
  return {
    pid: process.pid,
    host: os.hostname(),
    program: programName(),
    since: new Date().toISOString(),
    bootId: bootId(),
    startTicks: startTicksOf(process.pid),
  };
}

/** Whether the process that wrote `holder` (on this host) still runs. */
function isAlive(holder: LockHolder): boolean {
  if (holder.bootId && bootId() && holder.bootId !== bootId()) return false; // the machine rebooted since
  if (holder.pid === process.pid) return false; // not ours (see `held`): an earlier process had our pid
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // The pid runs (or belongs to another user): it is the holder unless the pid was given out again.
  const ticks = startTicksOf(holder.pid);
  return !(holder.startTicks && ticks && ticks !== holder.startTicks);
}

function readHolder(file: string): LockHolder | undefined {
  const text = readText(file);
  if (text === undefined) return undefined;
  try {
    const holder = JSON.parse(text) as LockHolder;
    if (Number.isInteger(holder.pid) && typeof holder.host === 'string') return holder;
  } catch {
    // a lock file that is not ours to read: treated as held by an unknown process below
  }
  return { pid: 0, host: '(unknown)', program: '(unknown)', since: '(unknown)' };
}

const describe = (h: LockHolder) => `process ${h.pid} on host ${h.host} (${h.program}, since ${h.since})`;

function inUse(dir: string, file: string, holder: LockHolder): DatabaseInUseError {
  const what = `The embedded database in ${dir} is in use by ${describe(holder)}.`;
  if (holder.host !== os.hostname() || holder.pid === 0) {
    return new DatabaseInUseError(
      `${what} It belongs to one process at a time, and a lock of another host is never taken over by itself. ` +
        `Stop that program; if it is certainly no longer running, delete ${file} and run this again.`,
      holder,
    );
  }
  return new DatabaseInUseError(
    `${what} It belongs to one process at a time: stop that program first (Ctrl+C or its service's stop), ` +
      'then run this again. To run several processes at once, move to PostgreSQL (npm run migrate-to-postgres).',
    holder,
  );
}

/** Data directories this process holds, so that it does not open one twice either. */
const held = new Map<string, string>();

const sameHolder = (a: LockHolder, b: LockHolder | undefined) =>
  b !== undefined && a.pid === b.pid && a.host === b.host && a.since === b.since;

/**
 * Removes the stale lock `stale`, one process at a time: two processes that found the same dead
 * holder at the same moment must not both remove it (the second would remove the first's new
 * lock). The remover holds `<lock>.takeover` (exclusive create) and removes the lock only if it
 * is still the stale one it judged.
 */
function removeStale(file: string, stale: LockHolder): void {
  const guard = `${file}.takeover`;
  let fd: number;
  try {
    fd = fs.openSync(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking over right now: wait a moment for it. A guard left by one killed
    // within those milliseconds is removed so that the next attempt goes through.
    const other = readHolder(guard);
    if (other && other.host === os.hostname() && !isAlive(other)) fs.rmSync(guard, { force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    return;
  }
  try {
    fs.writeSync(fd, JSON.stringify(me()));
    if (sameHolder(stale, readHolder(file))) fs.rmSync(file, { force: true });
  } finally {
    fs.closeSync(fd);
    fs.rmSync(guard, { force: true });
  }
}

/**
 * Takes the lock of the data directory `dir` for this process, or throws DatabaseInUseError naming
 * the holder. Answers the release, which removes the lock if it is still this process's; a process
 * that exits without it leaves a lock the next opener takes over.
 */
export function lockDataDir(dir: string): () => void {
  const resolved = path.resolve(dir);
  const file = path.join(resolved, lockFileName);
  if (held.has(resolved)) {
    throw new DatabaseInUseError(
      `The embedded database in ${dir} is already open in this process (${held.get(resolved)}); ` +
        'close it before opening it again.',
      me(),
    );
  }
  fs.mkdirSync(resolved, { recursive: true });
  const mine = me();
  const draft = `${file}.${process.pid}.${Date.now()}`;
  fs.writeFileSync(draft, JSON.stringify(mine));
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(file);
      if (!holder) continue; // released between our attempt and the read
      const takeable = holder.host === mine.host && holder.pid !== 0 && !isAlive(holder);
      if (!takeable || attempt >= 40) throw inUse(dir, file, holder);
      removeStale(file, holder);
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
  held.set(resolved, mine.program);
  const release = () => {
    process.off('exit', release);
    held.delete(resolved);
    if (sameHolder(mine, readHolder(file))) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}
