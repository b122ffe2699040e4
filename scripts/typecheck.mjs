// `npm run typecheck`: each TypeScript project's files checked in its own program (scripts/types.mjs),
// one process per project, as many side by side as the machine has cores; each project's findings
// are printed together once it has ended, and any of them fails the run. `tsc -b` checked the four
// one after another and the api/, admin/ and shop-widget/ files the root's tests import once more in
// the root's program: over a minute on two cores. `npm run types-and-lint` checks the same in one
// process, where ESLint reuses the programs.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { checkProject, formatErrors, projects, root } from './types.mjs';

const [project] = process.argv.slice(2);
if (project) {
  const { program, errors } = checkProject(project);
  process.stdout.write(formatErrors(errors, false));
  process.exitCode = program && !errors.length ? 0 : 1;
} else {
  // The largest programs first: the root's (tests, seeds, scripts, benchmark) and admin's.
  const order = [
    'tsconfig.json',
    'admin/tsconfig.json',
    ...projects.filter((p) => !p.startsWith('admin/') && p !== 'tsconfig.json'),
  ];
  const cores = Math.max(1, Math.min(order.length, os.availableParallelism?.() ?? os.cpus().length));
  const check = (name) =>
    new Promise((resolve) => {
      // A larger young generation: the checker's many short-lived objects cost about 15 % less CPU.
      const child = spawn(process.execPath, ['--max-semi-space-size=64', import.meta.filename, name], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => resolve({ ok: false, output: String(error) }));
      child.on('close', (code) => resolve({ ok: code === 0, output }));
    });
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: cores }, async () => {
      while (next < order.length) {
        const name = order[next++];
        const { ok, output } = await check(name);
        failed ||= !ok;
        process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${name}\n${output}`);
      }
    }),
  );
  process.exitCode = failed ? 1 : 0;
}
