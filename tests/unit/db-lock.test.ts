import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockFileName } from '../../api/src/db/lock.ts';
import { removeDir, repoRoot, seededCopy, startServer, tempDir, type RunningServer } from '../e2e/server.ts';
import { npmScript } from '../support/npm-script.ts';

// two processes on one embedded data directory corrupt the books silently. Every opener
// (server, npm run account, backup, …) takes the directory's lock; a second one is refused with the
// holder named, and the lock of a killed process is taken over without a manual step.

/** An npm script as an operator runs it, on the data directory `dataDir`. */
async function npmRun(dataDir: string, script: string, ...args: string[]) {
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  return npmScript(script, args, env);
}

const holderNamed = (pid: number) => new RegExp(`in use by process ${pid} on host ${os.hostname()} \\(.*since \\d{4}-`);

describe('the embedded database has one process at a time (data directory lock)', function () {
  this.timeout(300_000);
  const dirs: string[] = [];
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    for (const dir of dirs) removeDir(dir);
  });
  const dataDir = () => {
    const dir = tempDir('db-lock-');
    dirs.push(dir);
    return dir;
  };

  it(
    'refuses a second server, npm run account and npm run backup beside a running server, naming it; ' +
      'after kill -9 the next backup and start just work',
    async () => {
      // The demo already seeded: the locks are what this test watches, not a first start.
      const dir = await seededCopy(dataDir());
      const first = await startServer({ dataDir: dir, readyTimeoutMs: 180_000 });
      servers.push(first);
      const pid = first.process.pid!;

      // (a second server that did start is stopped at the end, not left running)
      const again = startServer({ dataDir: dir, readyTimeoutMs: 180_000 });
      void again.then(
        (server) => servers.push(server),
        () => undefined,
      );
      await assert.rejects(again, (error: Error) => {
        assert.match(error.message, /exited before it was ready \(code 1\)/);
        assert.match(error.message, holderNamed(pid));
        assert.match(error.message, /stop that program first/);
        return true;
      });

      const account = await npmRun(dir, 'account', 'add', 'late-night');
      assert.equal(account.code, 1, account.out);
      assert.match(account.out, holderNamed(pid));
      const backupFile = path.join(dir, '..', `${path.basename(dir)}.backup.gz`);
      dirs.push(backupFile);
      const backup = await npmRun(dir, 'backup', backupFile);
      assert.equal(backup.code, 1, backup.out);
      assert.match(backup.out, holderNamed(pid));
      assert.equal(fs.existsSync(backupFile), false);

      // the refused programs left the server's files alone: it still serves and still holds the lock
      assert.equal((await fetch(`${first.url}/readyz`)).status, 200);
      assert.equal(JSON.parse(fs.readFileSync(path.join(dir, lockFileName), 'utf8')).pid, pid);

      first.process.kill('SIGKILL');
      await new Promise((resolve) => first.process.once('exit', resolve));
      assert.ok(fs.existsSync(path.join(dir, lockFileName)), 'the killed server left its lock behind');
      assert.ok(fs.existsSync(path.join(dir, 'postmaster.pid')), "and PGlite's postmaster.pid");

      const afterKill = await npmRun(dir, 'backup', backupFile);
      assert.equal(afterKill.code, 0, afterKill.out);
      assert.match(afterKill.out, /Wrote .*: \d+ tables/);

      const second = await startServer({ dataDir: dir, readyTimeoutMs: 180_000 });
      servers.push(second);
      assert.equal((await fetch(`${second.url}/api/settings/`)).status, 200);
      assert.equal(await second.stop(), 0);
      assert.equal(fs.existsSync(path.join(dir, lockFileName)), false, 'a clean stop removes the lock');

      const account2 = await npmRun(dir, 'account', 'add', 'early-bird');
      assert.equal(account2.code, 0, account2.out);
    },
  );

  /**
   * Processes that try to take the lock of `dir` at the same moment; each answers "took" or its
   * refusal. Each says "ready" once loaded and tries when told "go" on its stdin, sent to all at once;
   * the winner holds the lock until its stdin closes, which happens once every process has answered.
   */
  async function contenders(dir: string, count: number): Promise<string[]> {
    const script = `import { lockDataDir } from './api/src/db/lock.ts';
      import readline from 'node:readline';
      const lines = readline.createInterface({ input: process.stdin });
      lines.once('line', () => {
        try { lockDataDir(process.argv[1]); console.log('took'); }
        catch (e) { console.log(e.message); }
      });
      console.log('ready');`;
    const children = Array.from({ length: count }, () => {
      const args = ['--import', 'tsx', '--input-type=module', '-e', script, dir];
      const child = spawn(process.execPath, args, { cwd: repoRoot });
      // A child that failed to load has gone: writing to it is no error of the test's.
      child.stdin.on('error', () => undefined);
      let out = '';
      let waiting: { lines: number; resolve: () => void } | undefined;
      const lines = () => out.split('\n').length - 1;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (waiting && lines() >= waiting.lines) waiting.resolve();
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      /** Resolves once the child printed `n` lines, or ended. */
      const printed = (n: number) =>
        Promise.race([
          lines() >= n ? undefined : new Promise<void>((resolve) => (waiting = { lines: n, resolve })),
          exited,
        ]);
      return { child, printed, exited, answer: () => out.replace(/^ready\n/, '').trim() };
    });
    await Promise.all(children.map((c) => c.printed(1)));
    for (const c of children) c.child.stdin.write('go\n');
    await Promise.all(children.map((c) => c.printed(2)));
    for (const c of children) c.child.stdin.end();
    await Promise.all(children.map((c) => c.exited));
    return children.map((c) => c.answer());
  }

  it('a lock left by a killed process is taken over by exactly one of several processes starting at once', async () => {
    const dir = dataDir();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const stale = { pid: dead.pid, host: os.hostname(), program: 'npm start', since: '2026-01-01T00:00:00.000Z' };
    fs.writeFileSync(path.join(dir, lockFileName), JSON.stringify(stale));
    const answers = await contenders(dir, 6);
    assert.equal(answers.filter((a) => a === 'took').length, 1, answers.join('\n'));
    for (const refused of answers.filter((a) => a !== 'took')) assert.match(refused, /in use by process \d+ on host/);
    assert.equal(fs.existsSync(path.join(dir, lockFileName)), false, 'the winner released the lock at its exit');
  });

  it("never takes over another host's lock: it names the host and says how to clear it", async () => {
    const dir = dataDir();
    const elsewhere = { pid: 1, host: 'other-machine', program: 'npm start', since: '2026-01-01T00:00:00.000Z' };
    fs.writeFileSync(path.join(dir, lockFileName), JSON.stringify(elsewhere));
    const [answer] = await contenders(dir, 1);
    assert.match(answer, /in use by process 1 on host other-machine \(npm start, since 2026-01-01T00:00:00.000Z\)/);
    assert.match(answer, new RegExp(`delete ${path.join(dir, lockFileName).replaceAll('/', '\\/')}`));
    assert.ok(fs.existsSync(path.join(dir, lockFileName)));
  });
});
