import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createDb } from '../../api/src/db.ts';
import { hashPassword } from '../../api/src/identity/accounts/passwords.ts';
import { freePort, removeDir, repoRoot, startServer, tempDir } from './server.ts';

// Production is safe by default, local stays zero-config: the real server (`api/src/server.ts`)
// started behind a public PUBLIC_URL refuses every default that could move money without a real
// payment or open the back office to anyone, naming the variable; the same start on localhost runs.

const publicUrl = 'https://shop.example.org';
const ribbon = 'id="test-mode-ribbon"';

/** Starts the server and waits for it to exit on its own (it must not start listening). */
async function refusedStart(env: Record<string, string>, dataDir = tempDir()) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
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
    execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { cwd: repoRoot, stdio: 'ignore' });
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
    const dataDir = tempDir();
    const server = await startServer({
      dataDir,
      env: { PUBLIC_URL: publicUrl, STRIPE_SANDBOX: 'true', SEED_DEMO: 'true' },
    });
    try {
      for (const page of ['/v/DEMO-1', '/backoffice', '/me']) {
        // Compressed as a phone asks for it: the ribbon is in the page before it is compressed.
        const html = await (await fetch(`${server.url}${page}`, { headers: { 'Accept-Encoding': 'br' } })).text();
        assert.ok(html.includes(ribbon), `${page} shows the test-mode ribbon`);
        assert.match(html, /TESTMODUS – keine echten Zahlungen · TEST MODE – no real payments/);
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

  it('starts on localhost with no configuration at all, without the ribbon', async () => {
    const server = await startServer({ env: { STRIPE_SANDBOX: '', SEED_DEMO: '' } });
    try {
      const html = await (await fetch(`${server.url}/v/DEMO-1`)).text();
      assert.ok(!html.includes(ribbon));
      assert.match(server.stdout(), /office \/ office/);
    } finally {
      assert.equal(await server.stop(), 0);
      removeDir(server.dataDir);
    }
  });
});
