// `npm run typecheck`: each TypeScript project's files checked in its own program (scripts/types.mjs),
// the four projects dealt out to one process per core, each process checking its share one after
// another, where the programs share the files they hold alike (parsed and bound once) and V8's
// compiled checker; each project's findings are printed once its process has ended, and any of them
// fails the run. `npm run types-and-lint` checks the same in one process, where ESLint reuses the
// programs.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { checkProject, formatErrors, projects, root } from './types.mjs';

const share = process.argv.slice(2);
if (share.length) {
  let failed = false;
  for (const project of share) {
    const { program, errors } = checkProject(project);
    const ok = program && !errors.length;
    failed ||= !ok;
    process.stdout.write(`${ok ? 'ok' : 'FAILED'}: ${project}\n${formatErrors(errors, false)}`);
  }
  process.exitCode = failed ? 1 : 0;
} else {
  // Largest first (the root's tests, seeds, scripts and benchmark; admin's; api's; the widget's), dealt
  // there and back (on two cores: the root's and the widget's, admin's and api's), which evens the
  // processes out: each about 40 to 45 CPU-seconds on two cores.
  const order = [
    'tsconfig.json',
    'admin/tsconfig.json',
    ...projects.filter((p) => !p.startsWith('admin/') && p !== 'tsconfig.json'),
  ];
  const cores = Math.max(1, Math.min(order.length, os.availableParallelism?.() ?? os.cpus().length));
  const shares = Array.from({ length: cores }, () => []);
  order.forEach((project, index) => {
    const lap = Math.floor(index / cores);
    shares[lap % 2 ? cores - 1 - (index % cores) : index % cores].push(project);
  });
  const check = (share) =>
    new Promise((resolve) => {
      // A larger young generation: the checker's many short-lived objects cost about 15 % less CPU.
      const child = spawn(process.execPath, ['--max-semi-space-size=64', import.meta.filename, ...share], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => resolve({ ok: false, output: `FAILED: ${share.join(', ')}\n${error}\n` }));
      child.on('close', (code, signal) => {
        // A process that dies (out of memory, killed) says nothing of the projects it had not reached.
        const lines = output.split('\n');
        const unreported = share.filter(
          (project) => !lines.includes(`ok: ${project}`) && !lines.includes(`FAILED: ${project}`),
        );
        const ended = signal ? `killed by ${signal}` : `ended with exit code ${code}`;
        for (const project of code === 0 ? [] : unreported)
          output += `FAILED: ${project} (not checked: its process ${ended})\n`;
        resolve({ ok: code === 0, output });
      });
    });
  const results = await Promise.all(
    shares.map(async (share) => {
      const result = await check(share);
      process.stdout.write(result.output);
      return result.ok;
    }),
  );
  process.exitCode = results.every(Boolean) ? 0 : 1;
}
