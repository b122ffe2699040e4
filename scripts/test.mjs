// `npm test` (after the build): the suite as two mocha processes side by side, the unit and API tests
// in one and the end-to-end tests in the other. The end-to-end tests spend most of their time
// waiting for Chromium and for the servers they start, the API tests computing; one after the other
// they left one of the machine's two cores idle for half an hour. The two processes share nothing:
// each has its own databases (a schema or database named by its pid), servers and ports.
//
// The first group's output is shown as it comes and the second's once the first has ended, so each
// reads as one mocha run. The last line adds both up: "N passed, N failed[, N skipped]". Arguments
// (e.g. `npm test -- --grep vendor`) go to both groups.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const groups = [
  { name: 'unit and API tests', globs: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'] },
  { name: 'end-to-end tests', globs: ['tests/e2e/**/*.test.ts'] },
];
const summaryLine = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
const extra = process.argv.slice(2);
// Through a pipe mocha would drop its colours; keep them where a person reads the output.
const colour = process.stdout.isTTY ? ['--color'] : [];

/** Which group's output goes straight through; the others wait in `pending` until it is their turn. */
let shown = 0;

const runs = groups.map((group, index) => {
  const pending = [];
  let tail = '';
  const child = spawn(process.execPath, [mocha, ...colour, ...group.globs, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const write = (stream, chunk) => {
    if (index === shown) stream.write(chunk);
    else pending.push([stream, chunk]);
  };
  child.stdout.on('data', (chunk) => {
    tail = (tail + chunk.toString('utf8')).slice(-4096);
    write(process.stdout, chunk);
  });
  child.stderr.on('data', (chunk) => write(process.stderr, chunk));
  const ended = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return { group, child, pending, ended, tail: () => tail };
});

const stop = (signal) => {
  for (const run of runs) run.child.kill(signal);
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));

const total = { passed: 0, failed: 0, skipped: 0 };
let ok = true;
for (const [index, run] of runs.entries()) {
  shown = index;
  for (const [stream, chunk] of run.pending.splice(0)) stream.write(chunk);
  const { code, signal } = await run.ended;
  // Our reporter (tests/support/reporter.cjs) prints this line without colours.
  const counts = run
    .tail()
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

process.stdout.write(
  `\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`,
);
process.exitCode = ok && total.failed === 0 ? 0 : 1;
