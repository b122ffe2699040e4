import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../api/src/db/connection.ts';
import { lockDataDir, lockFileName } from '../../api/src/db/lock.ts';
import { hashPassword } from '../../api/src/identity/accounts/passwords.ts';
import {
  ensureBuild,
  freePort,
  migratedCopy,
  removeDir,
  repoRoot,
  seededCopy,
  serverStart,
  startServer,
  tempDir,
  testEngine,
} from './server.ts';

// Production is safe by default, local stays zero-config: the real server (`api/src/server.ts`)
// started behind a public PUBLIC_URL refuses every default that could move money without a real
// payment or open the back office to anyone, naming the variable; the same start on localhost runs.

const publicUrl = 'https://shop.example.org';
const ribbon = 'id="test-mode-ribbon"';

/**
 * Starts the server and waits for it to exit on its own (it must not start listening). `bare` starts
 * it with nothing but `env` and PATH, as a container starts from its image.
 */
async function refusedStart(
  env: Record<string, string>,
  dataDir = tempDir(),
  { command = ['node', ...testEngine, ...serverStart], bare = false } = {},
) {
  const [program, ...args] = command;
  const child = spawn(program === 'node' ? process.execPath : program, args, {
    cwd: repoRoot,
    env: {
      ...(bare ? { PATH: process.env.PATH } : process.env),
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
      OIDC_ISSUER: '',
      SEED_HISTORY: 'false',
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      STRIPE_SANDBOX: '',
      SEED_DEMO: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (dataDir !== env.DATA_DIR) removeDir(dataDir);
  return { code, stderr, stdout };
}

describe('starting behind a public address', function () {
  this.timeout(120_000);

  before(function () {
    this.timeout(300_000);
    ensureBuild();
  });

  it('refuses to start without STRIPE_SECRET_KEY, naming it', async () => {
    const { code, stderr, stdout } = await refusedStart({ PUBLIC_URL: publicUrl, SEED_DEMO: 'false' });
    assert.notEqual(code, 0);
    assert.match(stderr, /STRIPE_SECRET_KEY is not set/);
    assert.match(stderr, /STRIPE_SANDBOX=true/);
    assert.doesNotMatch(stdout, /is running/);
  });

  it('refuses a Stripe test key unless STRIPE_SANDBOX=true', async () => {
    const { code, stderr } = await refusedStart({
      PUBLIC_URL: publicUrl,
      SEED_DEMO: 'false',
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    assert.notEqual(code, 0);
    assert.match(stderr, /STRIPE_SECRET_KEY is a Stripe test key/);
  });

  it('refuses to seed the demo newspaper without SEED_DEMO=true', async () => {
    const { code, stderr } = await refusedStart({ PUBLIC_URL: publicUrl, STRIPE_SANDBOX: 'true' });
    assert.notEqual(code, 0);
    assert.match(stderr, /SEED_DEMO=false for a real newspaper, or SEED_DEMO=true/);
  });

  it('starts in test mode with STRIPE_SANDBOX=true, shows the ribbon on shop and back office, and refuses a demo password', async () => {
    // Migrated but empty: this start seeds the demo and gives its logins passwords of their own.
    const dataDir = await migratedCopy();
    const server = await startServer({
      dataDir,
      env: { PUBLIC_URL: publicUrl, STRIPE_SANDBOX: 'true', SEED_DEMO: 'true' },
    });
    try {
      for (const page of ['/v/DEMO-1', '/backoffice', '/me']) {
        // Compressed as a phone asks for it: the ribbon is in the page before it is compressed.
        const html = await (await fetch(`${server.url}${page}`, { headers: { 'Accept-Encoding': 'br' } })).text();
        assert.ok(html.includes(ribbon), `${page} shows the test-mode ribbon`);
        assert.match(
          html,
          /TESTMODUS – keine echten Zahlungen, Guthaben wird nicht bar ausgezahlt · TEST MODE – no real payments, credit is not paid out in cash/,
        );
      }
      // The seeded demo logins got passwords of their own, printed once.
      assert.match(
        server.stdout(),
        /Demo logins \(shown once\): office \/ \w{4}-\w{4}-\w{4}, vendor \/ \w{4}-\w{4}-\w{4}/,
      );
      assert.doesNotMatch(server.stdout(), /office \/ office/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    // Someone sets the demo password again: the next start refuses.
    const db = createDb({ dataDir });
    await db('accounts')
      .where({ username: 'office' })
      .update({ password_hash: await hashPassword('office') });
    await db.destroy();
    const { code, stderr } = await refusedStart(
      { PUBLIC_URL: publicUrl, STRIPE_SANDBOX: 'true', SEED_DEMO: 'true', DATA_DIR: dataDir },
      dataDir,
    );
    removeDir(dataDir);
    assert.notEqual(code, 0);
    assert.match(stderr, /"office" still opens with the demo password/);
  });

  it('starts on localhost with no configuration at all, without the ribbon, and serves nobody through a proxy', async () => {
    const server = await startServer({ env: { STRIPE_SANDBOX: '', SEED_DEMO: '' } });
    try {
      const html = await (await fetch(`${server.url}/v/DEMO-1`)).text();
      assert.ok(!html.includes(ribbon));
      assert.match(server.stdout(), /office \/ office/);
      const proxied = await fetch(`${server.url}/v/DEMO-1`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
      assert.equal(proxied.status, 403);
      assert.match(await proxied.text(), /Dieser Shop wurde nur für diesen Computer gestartet, da PUBLIC_URL/);
    } finally {
      assert.equal(await server.stop(), 0);
      removeDir(server.dataDir);
    }
  });
});

/** The runtime stage of the Dockerfile: its ENV (continued lines joined) and its CMD, as `docker run` starts it. */
function dockerStart(): { env: Record<string, string>; command: string[] } {
  const text = fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of runtime.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name] = value;
  }
  const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1];
  assert.ok(cmd, 'the Dockerfile has a CMD in exec form');
  return { env, command: JSON.parse(cmd) as string[] };
}

/** An address of this machine that is not loopback, when it has one. */
const outsideAddress = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const connects = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('where the server listens', function () {
  this.timeout(120_000);

  it('the image started bare (no PUBLIC_URL) refuses, naming PUBLIC_URL', async () => {
    const { env, command } = dockerStart();
    assert.equal(env.PUBLIC_URL, undefined, 'the image sets no PUBLIC_URL of its own');
    const dataDir = tempDir();
    const { code, stderr, stdout } = await refusedStart(
      { ...env, PORT: String(await freePort()), DATA_DIR: dataDir },
      dataDir,
      { command, bare: true },
    );
    assert.equal(code, 78, stderr);
    assert.match(stderr, /PUBLIC_URL is not set/);
    assert.doesNotMatch(stdout, /is running|office \/ office/);
  });

  it('with HOST=0.0.0.0 and the demo seed, refuses as a public start does, though PUBLIC_URL says localhost', async () => {
    const port = await freePort();
    const { code, stderr } = await refusedStart({
      HOST: '0.0.0.0',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
    });
    assert.equal(code, 78);
    assert.match(stderr, /HOST is 0\.0\.0\.0.*PUBLIC_URL is http:\/\/localhost:\d+, an address of this machine only/);
    assert.match(stderr, /STRIPE_SECRET_KEY is not set/);
  });

  it('without PUBLIC_URL listens on loopback only, and says so', async () => {
    const server = await startServer({ env: { PUBLIC_URL: undefined, SEED_DEMO: 'false' } });
    try {
      assert.match(server.stdout(), new RegExp(`Listening: +127\\.0\\.0\\.1:${server.port} \\(this machine only\\)`));
      const outside = outsideAddress();
      if (outside) assert.equal(await connects(outside, server.port), false, `nothing answers at ${outside}`);
      assert.equal(await connects('127.0.0.1', server.port), true);
    } finally {
      assert.equal(await server.stop(), 0);
      removeDir(server.dataDir);
    }
  });

  for (const [name, value, needs] of [
    ['PUBLIC_URL', '', /PUBLIC_URL is empty: set it to the address people open the shop at/],
    ['PUBLIC_URL', 'shop.example.org', /PUBLIC_URL must be an address like https:\/\/shop\.example\.org/],
    ['PORT', 'abc', /PORT must be a port number from 0 to 65535, got "abc"/],
    ['HOST', 'every', /HOST must be an IP address to listen on/],
  ] as const) {
    it(`stops on ${name}="${value}" with one line naming it, no stack trace`, async () => {
      const { code, stderr } = await refusedStart({ [name]: value });
      assert.equal(code, 78);
      assert.match(stderr, needs);
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
    });
  }
});

describe('npm start', function () {
  this.timeout(120_000);

  it('stops the server on SIGTERM: no process left, the data directory free', async () => {
    // The demo as a first start leaves it: SIGTERM and the lock are under test here, the first start
    // on an empty data directory in foundation.test.ts.
    const dataDir = await seededCopy();
    const port = await freePort();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'silent',
        SEED_HISTORY: 'false',
        OIDC_ISSUER: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
    try {
      for (const deadline = Date.now() + 90_000; ;) {
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        assert.ok(Date.now() < deadline && npm.exitCode === null, `npm start did not become ready\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const holder = (JSON.parse(fs.readFileSync(path.join(dataDir, lockFileName), 'utf8')) as { pid: number }).pid;
      npm.kill('SIGTERM');
      await exited;
      const gone = async () => {
        for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
          try {
            process.kill(holder, 0);
          } catch {
            return true;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      };
      assert.ok(await gone(), `the server (pid ${holder}) is still running after npm start ended`);
      assert.equal(await connects('127.0.0.1', port), false, 'nothing listens any more');
      lockDataDir(dataDir)(); // throws DatabaseInUseError while a process holds it
    } finally {
      npm.kill('SIGKILL');
      removeDir(dataDir);
    }
  });
});
