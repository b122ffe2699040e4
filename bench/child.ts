import { spawn } from 'node:child_process';
import { repoRoot } from '../tests/e2e/server.ts';

/**
 * Runs a load generator of the bench (`script`, relative to the repository) in a process of its own,
 * so that its work does not count as the app's: the task goes in as JSON in argv[2], the result comes
 * back as the last line the script prints, also JSON.
 */
export function runInOwnProcess<Result>(script: string, task: unknown): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(task)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${script} exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Result);
    });
  });
}
