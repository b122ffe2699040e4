import { execFileSync } from 'node:child_process';
import { repoRoot } from '../tests/e2e/server.ts';

/** Builds the shop widget and the back office when their build is missing or older than the sources. */
export function ensureBuild(): void {
  execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: repoRoot, stdio: 'ignore' });
}
