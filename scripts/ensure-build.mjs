// Builds the shop widget, the back office and the server's bundles when their output is missing or older
// than the sources, so `npm start`, `npm test` and the command-line tools work on a fresh clone without
// a separate build step. `--server`: the server's bundles alone (what a command-line tool runs). In the
// image there are no sources, only what its build stage made: nothing to do.
//
// Two of these may start at once (two `npm run paper` after an update, a test beside a command): the
// second waits for the first's build under a lock file and then finds nothing left to do, where two
// builds writing the same bundles would let one of them run a half-written file. A lock whose
// process has gone (killed mid-build) is taken over.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { entries } from './build-server.mjs';

function newest(dir) {
  let latest = 0;
  if (!fs.existsSync(dir)) return latest;
  if (!fs.statSync(dir).isDirectory()) return fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

const lockFile = path.join('dist', '.build.lock');
const staleLockMs = 10 * 60_000;
/** Sleeps without a timer: this script is synchronous from start to end. */
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

function lock() {
  fs.mkdirSync('dist', { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let holder;
    try {
      holder = Number(fs.readFileSync(lockFile, 'utf8').trim());
    } catch {
      continue; // let go between the two calls
    }
    // 0: made but not yet filled in by its holder, which is a moment away. A build takes a minute:
    // a lock far older is a killed build's whose process id another process has since taken.
    const stale = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > staleLockMs;
    if ((holder && !alive(holder)) || stale) fs.rmSync(lockFile, { force: true });
    else sleep(100);
  }
}

const serverOnly = process.argv.includes('--server');
const staleParts = () =>
  (serverOnly ? [] : ['shop-widget', 'admin']).filter((part) => {
    if (!fs.existsSync(part)) return false;
    const built = path.join('dist', part, 'index.html');
    if (!fs.existsSync(built)) return true;
    return newest(part) > fs.statSync(built).mtimeMs;
  });

// What scripts/build-server.mjs bundles: the server's code and tools, the migrations and seeds they
// import, package.json (the version) and the installed packages, whose list npm writes anew at every
// install (node_modules/.package-lock.json).
const serverSources = [
  'api/src',
  'migrations',
  'seeds',
  'package.json',
  'node_modules/.package-lock.json',
  'scripts/build-server.mjs',
];
const bundles = Object.keys(entries).map((name) => `dist/server/${name}.mjs`);
const built = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const serverStale = () =>
  fs.existsSync('api/src') && Math.max(...serverSources.map(newest)) > Math.min(...bundles.map(built));

// Current (every start of a tool, and always in the image): no lock, nothing written.
if (staleParts().length || serverStale()) {
  lock();
  try {
    for (const part of staleParts()) {
      console.log(`Building ${part} ...`);
      execSync(`npx vite build --config ${part}/vite.config.ts`, { stdio: 'inherit' });
    }
    if (serverStale()) {
      // On stderr: a tool's answer on stdout stays its own.
      console.error('Building the server ...');
      execSync('node scripts/build-server.mjs', { stdio: 'inherit' });
    }
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}
