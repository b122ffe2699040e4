// Builds the shop widget, the back office and the server's bundle when their output is missing or older
// than the sources, so `npm start` and `npm test` work on a fresh clone without a separate build step.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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

const parts = ['shop-widget', 'admin'].filter((part) => {
  const built = path.join('dist', part, 'index.html');
  if (!fs.existsSync(built)) return true;
  return newest(part) > fs.statSync(built).mtimeMs;
});
for (const part of parts) {
  console.log(`Building ${part} ...`);
  execSync(`npx vite build --config ${part}/vite.config.ts`, { stdio: 'inherit' });
}

// What scripts/build-server.mjs bundles: the server's code, the migrations and seeds it imports, and
// package.json (its version).
const serverSources = ['api/src', 'migrations', 'seeds', 'package.json', 'scripts/build-server.mjs'];
const bundle = 'dist/server/server.mjs';
if (!fs.existsSync(bundle) || Math.max(...serverSources.map(newest)) > fs.statSync(bundle).mtimeMs) {
  console.log('Building the server ...');
  execSync('node scripts/build-server.mjs', { stdio: 'inherit' });
}
