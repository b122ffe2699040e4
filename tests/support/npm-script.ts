import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureBuild, repoRoot, testEngine } from '../e2e/server.ts';

const run = promisify(execFile);

/** What a tool printed and how it ended: its exit code, its streams, and both together (`out`). */
export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
  out: string;
}

/**
 * Node's arguments for the command `npm run <script>` ends in: each tool's script first makes its
 * build current (`node scripts/ensure-build.mjs --server && …`), then runs its bundle with node.
 */
function scriptCommand(root: string, script: string): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const command = scripts[script]?.split('&&').at(-1)?.trim().split(/\s+/);
  if (command?.[0] !== 'node') throw new Error(`npm run ${script} does not end in a node command: ${scripts[script]}`);
  return command.slice(1);
}

/**
 * `npm run <script> -- <args>` as an operator types it, in `root`, with the environment `env`: the
 * command of the script in package.json, without npm and the build check in front of it, each of
 * which costs a process and about 0.4 CPU-seconds on every call (the build is made current once per
 * test process instead), on V8's baseline compiler (`testEngine`). That every script runs through
 * npm itself, deploy.test.ts holds.
 */
export async function npmScript(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  root = repoRoot,
): Promise<ToolRun> {
  ensureBuild(root);
  return run(process.execPath, [...testEngine, ...scriptCommand(root, script), ...args], { cwd: root, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr, out: stdout + stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => ({
      code: failed.code,
      stdout: failed.stdout,
      stderr: failed.stderr,
      out: failed.stdout + failed.stderr,
    }),
  );
}
