// `npm test` (after the build): the suite as mocha processes side by side, as many at a time as the
// machine has cores (two on CI), each taking the next group waiting when its own ends. The tests
// that start processes of their own (servers, CLIs, a cluster on PostgreSQL) are a third group, which
// the process that ends first takes over, so that both end at about the same time. The processes
// share nothing: each has its own databases (a schema or database named by its pid), servers and ports.
//
// Each group's output is shown as one mocha run, the first as it comes and each next one once those
// before it have ended, with its wall time and CPU-seconds. Then the wall time and the CPU time the run cost (user and system time of this
// process and every process it waited for: the mocha groups and what they started), and as the last
// line the sum of all groups:
// "N passed, N failed[, N skipped]". Arguments (e.g. `npm test -- --grep vendor`) go to every group.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * The tests that start processes of their own (the real server as `npm start` runs it, a CLI, a
 * cluster of API processes), without Chromium.
 */
const processTests = [
  'tests/unit/account-cli.test.ts',
  'tests/unit/consistency-check.test.ts',
  'tests/unit/db-lock.test.ts',
  'tests/unit/disk-full.test.ts',
  'tests/unit/reconcile-at-start.test.ts',
  'tests/api/bench-processes.test.ts',
  'tests/api/hot-paths-processes.test.ts',
  'tests/api/platform.test.ts',
  'tests/api/two-servers.test.ts',
  'tests/e2e/foundation.test.ts',
  'tests/e2e/production-start.test.ts',
];
const notProcessTests = processTests.flatMap((file) => ['--ignore', file]);

// In the order they start, the longest first; each name says whose output it is.
const groups = [
  {
    name: 'unit and API tests',
    args: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', ...notProcessTests],
  },
  { name: 'end-to-end tests', args: ['tests/e2e/**/*.test.ts', ...notProcessTests] },
  { name: 'tests with processes of their own', args: processTests },
];
const summaryLine = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const extra = process.argv.slice(2);
// Through a pipe mocha would drop its colours; keep them where a person reads the output.
const colour = process.stdout.isTTY ? ['--color'] : [];
const cores = Math.max(1, Math.min(groups.length, os.availableParallelism?.() ?? os.cpus().length));
const started = performance.now();

/** Linux's magic number of a tmpfs (statfs(2)). */
const tmpfsType = 0x01021994;
/** Below this much room in memory the run's files stay on the disk: a run holds a few hundred MB at most. */
const tmpfsRoomBytes = 4 * 2 ** 30;
const tmpfsPrefix = 'street-paper-test-';

/**
 * The folder for everything the run writes for a moment (data directories copied from a template
 * or made by a first start, backups, Chromium's profiles), handed to every process as TMPDIR: a
 * tmpfs (/dev/shm) where the machine has one with room, else the system's. A data directory is
 * some 1,300 files, and on a virtual machine's ext4 each file made costs about a millisecond of
 * system time (a copy of the seeded demo: 1.3 CPU-seconds, against 0.1 on tmpfs); the tests read
 * and write the same files either way, and the full-disk test mounts a file system of its own.
 * A folder in memory that a killed run left (its pid gone) is removed first: it would hold its
 * memory until the machine restarts.
 */
function runFolder() {
  const shm = '/dev/shm';
  try {
    const { type, bavail, bsize } = fs.statfsSync(shm);
    if (type !== tmpfsType || bavail * bsize < tmpfsRoomBytes)
      return fs.mkdtempSync(path.join(os.tmpdir(), tmpfsPrefix));
    for (const name of fs.readdirSync(shm)) {
      const pid = Number(new RegExp(`^${tmpfsPrefix}(\\d+)-`).exec(name)?.[1]);
      if (pid && !alive(pid)) fs.rmSync(path.join(shm, name), { recursive: true, force: true });
    }
    const folder = fs.mkdtempSync(path.join(shm, `${tmpfsPrefix}${process.pid}-`));
    // tsx keeps its compiled files in TMPDIR/tsx-<uid>: the system's, so that they outlive the run.
    const compiled = `tsx-${process.getuid?.() ?? 0}`;
    fs.mkdirSync(path.join(os.tmpdir(), compiled), { recursive: true });
    fs.symlinkSync(path.join(os.tmpdir(), compiled), path.join(folder, compiled));
    return folder;
  } catch {
    return fs.mkdtempSync(path.join(os.tmpdir(), tmpfsPrefix));
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const runDir = runFolder();
process.once('exit', () => fs.rmSync(runDir, { recursive: true, force: true }));
// The data directories a first start leaves (migrated, and seeded with the demo) are made once for
// all groups, by the first process that needs one (tests/e2e/server.ts), and go with this run.
const templates = fs.mkdtempSync(path.join(runDir, 'templates-'));

/**
 * CPU-seconds (user and system) of this process's children that have ended and were waited for, with
 * theirs in turn, as the shell's `times` counts them: Linux reports them in /proc/self/stat (cutime
 * and cstime, in ticks of 1/100 s); elsewhere they are unknown (undefined).
 */
function childrenSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command's name in parentheses: state is field 3, cutime 16 and cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU-seconds of this process and of its children that were waited for (theirs when known). */
function cpuSeconds() {
  const own = process.resourceUsage();
  const children = childrenSeconds();
  return { seconds: (own.userCPUTime + own.systemCPUTime) / 1e6 + (children ?? 0), children: children !== undefined };
}

/** The children's CPU-seconds counted so far: each group's are what its end adds. */
let reapedSeconds = childrenSeconds() ?? 0;

const duration = (seconds) => `${Math.floor(Math.round(seconds) / 60)} min ${Math.round(seconds) % 60} s`;

/** Which group's output goes straight through; the others wait in `pending` until it is their turn. */
let shown = 0;
const runs = groups.map((group) => {
  const run = { group, pending: [], tail: '', child: undefined, ended: undefined };
  run.started = new Promise((resolve) => (run.begin = resolve));
  return run;
});

function start(index) {
  const run = runs[index];
  const write = (stream, chunk) => {
    if (index === shown) stream.write(chunk);
    else run.pending.push([stream, chunk]);
  };
  run.child = spawn(process.execPath, [mocha, ...colour, ...run.group.args, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: runDir, TEST_TEMPLATES_DIR: templates },
  });
  run.child.stdout.on('data', (chunk) => {
    run.tail = (run.tail + chunk.toString('utf8')).slice(-4096);
    write(process.stdout, chunk);
  });
  run.child.stderr.on('data', (chunk) => write(process.stderr, chunk));
  const begun = performance.now();
  // The group's CPU: what this process's reaped children gained when its mocha process was reaped
  // (read at its exit, before anything else can be waited for; groups end minutes apart).
  run.child.once('exit', () => {
    const now = childrenSeconds();
    if (now === undefined) return;
    run.cpu = now - reapedSeconds;
    reapedSeconds = now;
  });
  run.ended = new Promise((resolve) =>
    run.child.once('close', (code, signal) => resolve({ code, signal, seconds: (performance.now() - begun) / 1000 })),
  );
  run.begin(true);
  return run.ended;
}

// Each of `cores` lanes runs groups one after the other, taking the next one not yet started.
let next = 0;
const lanes = Array.from({ length: cores }, async () => {
  while (next < runs.length) await start(next++);
});

let stopping = false;
const stop = (signal) => {
  stopping = true;
  next = runs.length;
  for (const run of runs) {
    run.child?.kill(signal);
    run.begin(false);
  }
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));

const total = { passed: 0, failed: 0, skipped: 0 };
let ok = true;
for (const [index, run] of runs.entries()) {
  // A group starts once a lane is free; until then there is nothing of it to show.
  if (!(await run.started)) break;
  shown = index;
  for (const [stream, chunk] of run.pending.splice(0)) stream.write(chunk);
  const { code, signal, seconds } = await run.ended;
  // How long each group takes, to keep the processes ending together as the groups grow.
  const cpu = run.cpu === undefined ? '' : ` and ${Math.round(run.cpu)} CPU-seconds`;
  process.stdout.write(`\nThe ${run.group.name} took ${duration(seconds)}${cpu}.\n`);
  // Our reporter (tests/support/reporter.cjs) prints this line without colours.
  const counts = run.tail
    .split('\n')
    .map((line) => summaryLine.exec(line.trim()))
    .findLast(Boolean);
  if (!counts) {
    process.stdout.write(`\nThe ${run.group.name} ended without a summary (${signal ?? `exit code ${code}`}).\n`);
    total.failed += 1;
    ok = false;
    continue;
  }
  total.passed += Number(counts[1]);
  total.failed += Number(counts[2]);
  total.skipped += Number(counts[3] ?? 0);
  if (code !== 0) {
    // Mocha's exit code counts the failures; any other reason would be lost behind "0 failed".
    if (Number(counts[2]) === 0)
      process.stdout.write(`\nThe ${run.group.name} passed but ended with ${signal ?? `exit code ${code}`}.\n`);
    ok = false;
  }
}
await Promise.all(lanes);

const cpu = cpuSeconds();
process.stdout.write(
  `\nnpm test took ${duration((performance.now() - started) / 1000)} (${runs.length} groups, ${cores} at a time) ` +
    `and ${Math.round(cpu.seconds)} CPU-seconds (user and system, ${cpu.children ? 'its processes included' : 'this process alone'}).\n`,
);
process.stdout.write(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`,
);
process.exitCode = ok && !stopping && total.failed === 0 ? 0 : 1;
