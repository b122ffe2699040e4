// Builds the shop widget and the back office when their output is missing or older than the sources,
// so `npm start` and `npm test` work on a fresh clone without a separate build step.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function newest(dir) {
  let latest = 0;
  if (!fs.existsSync(dir)) return latest;
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
