import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../../api/src/db/open.ts';
import { checkDatabase } from '../../api/src/maintenance/check.ts';
import { openDatabase } from '../../api/src/maintenance/open.ts';
import { removeDir, seededCopy } from '../e2e/server.ts';

// An embedded database that takes long to open (a large one replaying its journal after `kill -9`,
// on a slow disk) was reported as damaged, with the advice to start empty and restore the last
// backup, which would lose every sale since: knex gave up on PGlite's first connection after its
// acquire timeout, and the start took that for damage; a backup or check gave up the same way. Here
// the timeout is shortened to 25 ms, far below the time any PGlite needs to open (hundreds of ms),
// to show the same with a real database: a copy of the tests' demo data directory, migrated and seeded
// once per process, since how the database came to be is not what is under test.

describe('opening the embedded database', function () {
  this.timeout(60_000);

  it('waits for a database that opens more slowly than a query waits for its connection, and keeps its data', async () => {
    const dataDir = await seededCopy();
    try {
      const first = await openDb({ dataDir });
      await first('vendors').insert({ first_name: 'Slow', last_name: 'Start', license_id: 'OPEN-1' });
      await first.destroy();

      const db = await openDb({ dataDir, embeddedAcquireTimeoutMs: 25 });
      try {
        const vendor = await db('vendors').where({ license_id: 'OPEN-1' }).first('first_name');
        assert.equal(vendor?.first_name, 'Slow');
      } finally {
        await db.destroy();
      }
    } finally {
      removeDir(dataDir);
    }
  });

  it('keeps a buffer cache of 32 MB, not the 128 MB its postgresql.conf asks for, which it would hold resident', async () => {
    const dataDir = await seededCopy();
    try {
      const conf = fs.readFileSync(path.join(dataDir, 'postgresql.conf'), 'utf8');
      assert.match(conf, /^shared_buffers = 128MB/m);
      const db = await openDb({ dataDir });
      try {
        const { rows } = await db.raw<{ rows: { shared_buffers: string }[] }>('show shared_buffers');
        assert.equal(rows[0]?.shared_buffers, '32MB');
      } finally {
        await db.destroy();
      }
    } finally {
      removeDir(dataDir);
    }
  });

  it('lets a maintenance command (npm run check, backup …) wait for it the same way', async () => {
    const dataDir = await seededCopy();
    try {
      const db = await openDatabase({ dataDir }, { existing: true, embeddedAcquireTimeoutMs: 25 });
      try {
        const failed = (await checkDatabase(db)).filter((result) => result.problems.length);
        assert.deepEqual(failed, []);
      } finally {
        await db.destroy();
      }
    } finally {
      removeDir(dataDir);
    }
  });
});
