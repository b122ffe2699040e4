// Builds the shop widget, the back office and the server's bundles when their output is missing or older
// than the sources, so `npm start`, `npm test` and the command-line tools work on a fresh clone without
// a separate build step. `--server`: the server's bundles alone (what a command-line tool runs). In the
// image there are no sources, only what its build stage made: nothing to do.
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

const serverOnly = process.argv.includes('--server');
const parts = (serverOnly ? [] : ['shop-widget', 'admin']).filter((part) => {
  if (!fs.existsSync(part)) return false;
  const built = path.join('dist', part, 'index.html');
  if (!fs.existsSync(built)) return true;
  return newest(part) > fs.statSync(built).mtimeMs;
});
for (const part of parts) {
  console.log(`Building ${part} ...`);
  execSync(`npx vite build --config ${part}/vite.config.ts`, { stdio: 'inherit' });
}

// What scripts/build-server.mjs bundles: the server's code and tools, the migrations and seeds they
// import, and package.json (the version).
const serverSources = ['api/src', 'migrations', 'seeds', 'package.json', 'scripts/build-server.mjs'];
const bundles = Object.keys(entries).map((name) => `dist/server/${name}.mjs`);
const built = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
if (fs.existsSync('api/src') && Math.max(...serverSources.map(newest)) > Math.min(...bundles.map(built))) {
  // On stderr: a tool's answer on stdout stays its own.
  console.error('Building the server ...');
  execSync('node scripts/build-server.mjs', { stdio: 'inherit' });
}
