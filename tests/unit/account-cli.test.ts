import assert from 'node:assert/strict';
import { createDb } from '../../api/src/db/connection.ts';
import { verifyPassword } from '../../api/src/identity/accounts/passwords.ts';
import { ensureBuild, migratedCopy, removeDir, tempDir } from '../e2e/server.ts';
import { npmScript } from '../support/npm-script.ts';

describe('npm run account: staff logins made at the console', function () {
  // Three processes each open the embedded database; a loaded CI machine once took over a minute.
  this.timeout(120_000);
  // The database as the first start's migrations leave it (made once per run): opening an empty one,
  // which the first command would do, is the server's first start and tested there.
  const dataDir = tempDir('account-cli-');
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const account = (...args: string[]) => npmScript('account', args, env);
  // The bundle npm run account runs, current once for the file (npm test builds it first).
  before(async () => {
    ensureBuild();
    await migratedCopy(dataDir);
  });
  after(() => removeDir(dataDir));

  it('adds a back-office account with a printed password, refuses the name twice, and replaces a forgotten password', async () => {
    const added = await account('add', 'Sabine', '--email', 'sabine@office.example');
    assert.equal(added.code, 0, added.out);
    const first = /Password: (\S+)/.exec(added.out)?.[1];
    assert.ok(first, added.out);

    const again = await account('add', 'sabine');
    assert.equal(again.code, 1);
    assert.match(again.out, /already taken/);

    const reset = await account('password', 'sabine');
    assert.equal(reset.code, 0, reset.out);
    const second = /New password for sabine: (\S+)/.exec(reset.out)?.[1];
    assert.ok(second && second !== first, reset.out);

    const db = createDb({ dataDir });
    try {
      const row = await db('accounts').where({ username: 'Sabine' }).first();
      assert.deepEqual(row.groups, ['backoffice']);
      assert.equal(row.email, 'sabine@office.example');
      assert.equal(await verifyPassword(second, row.password_hash), true, 'the new password logs in');
      assert.equal(await verifyPassword(first, row.password_hash), false, 'the old one no longer does');
    } finally {
      await db.destroy();
    }
  });

  it('explains its use when called without a command', async () => {
    const res = await account();
    assert.equal(res.code, 1);
    assert.match(res.out, /npm run account -- add <username>/);
  });
});
