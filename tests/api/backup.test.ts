import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { simulatorCredentials } from '../../api/src/fiscal/sandbox/keys.ts';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import supertest from 'supertest';
import { buildApp } from '../../api/src/app.ts';
import { createDb, type Db } from '../../api/src/db/connection.ts';
import { claimAttempt } from '../../api/src/identity/provider/throttle.ts';
import { writeBackup } from '../../api/src/maintenance/backup.ts';
import { MaintenanceError } from '../../api/src/maintenance/errors.ts';
import { compareSummaries, summariseDatabase } from '../../api/src/maintenance/move.ts';
import { restoreBackup } from '../../api/src/maintenance/restore.ts';
import { isDerivedTable, isMigrationTable, listTables, readSequences } from '../../api/src/maintenance/tables.ts';
import { appliedMigrations } from '../../api/src/maintenance/versions.ts';
import { describeApi } from '../support/env.ts';
import { npmScript } from '../support/npm-script.ts';
import { pngBytes, withForm } from '../support/fixtures.ts';
import { assertBalanced, eventually, postEvent, signedEvent } from '../support/orders.ts';
import { listedVendor, listenBooksShop, sell } from '../support/sales.ts';
import { bankActsNow } from '../support/sandbox.ts';

// Data safety: a backup restores every table as it was, from PGlite or
// PostgreSQL into either, and an embedded installation moves into PostgreSQL with nothing lost.
// "As it was" is checked per table by row count and a checksum over every row's full text.
const postgresUrl = process.env.TEST_DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../..');

/** Fresh PostgreSQL databases for one test, dropped afterwards. */
function postgresDatabases() {
  const made: string[] = [];
  return {
    async create(): Promise<string> {
      const name = `data_${process.pid}_${made.length + 1}_${Date.now() % 100000}`;
      const admin = createDb({ databaseUrl: postgresUrl!, dataDir: '' });
      try {
        await admin.raw(`create database ${name}`);
      } finally {
        await admin.destroy();
      }
      made.push(name);
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropAll(): Promise<void> {
      const admin = createDb({ databaseUrl: postgresUrl!, dataDir: '' });
      try {
        for (const name of made.splice(0)) await admin.raw(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.destroy();
      }
    },
  };
}

/** Runs an npm script the way an operator would, with the given database settings. */
function npmRun(script: string, args: string[], env: Record<string, string>) {
  return npmScript(script, args, { ...process.env, DATABASE_URL: '', DATA_DIR: '', LOG_LEVEL: 'silent', ...env }, root);
}

/** Every table of the schema, straight from pg_tables: the comparison must leave none out. */
async function schemaTables(db: Db): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { tablename: string }[] }>(
    `select tablename from pg_tables where schemaname = current_schema() order by tablename`,
  );
  return rows.map((r) => r.tablename);
}

/** Both databases hold the same rows in every table, the same migrations and the same sequence positions. */
async function assertSameDatabase(source: Db, target: Db): Promise<void> {
  const all = await schemaTables(source);
  assert.deepEqual(await schemaTables(target), all, 'the same tables');
  const compared = compareSummaries(await summariseDatabase(source), await summariseDatabase(target));
  // knex's migration bookkeeping is not copied: the restore runs the migrations itself; nor is the
  // revision of settings and items, which their restored rows raise in the target
  assert.deepEqual(
    compared.map((c) => c.table),
    all.filter((name) => !isMigrationTable(name) && !isDerivedTable(name)),
    'every table is compared',
  );
  assert.deepEqual(all.filter(isMigrationTable), ['knex_migrations', 'knex_migrations_lock']);
  assert.deepEqual(
    compared.filter((c) => !c.same),
    [],
    'no table differs',
  );
  assert.deepEqual(await appliedMigrations(target), await appliedMigrations(source));
  assert.deepEqual(
    await readSequences(target, await listTables(target)),
    await readSequences(source, await listTables(source)),
  );
}

const tempDir = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `data-${label}-`));

describeApi('data safety: backup, restore and the move to PostgreSQL', (t, engine) => {
  const temp: string[] = [];
  const databases = postgresDatabases();
  const opened: Db[] = [];
  let backupFile = '';
  let upload: { id: string; bytes: Buffer };
  const open = (options: Parameters<typeof createDb>[0]) => {
    const db = createDb(options);
    opened.push(db);
    return db;
  };
  const pgliteDir = (label: string) => {
    const dir = tempDir(label);
    temp.push(dir);
    return dir;
  };
  // Setting up a new embedded database takes PGlite many seconds; an empty one is set up once and
  // copied, before anything is written to it, for each test that needs a fresh one.
  let emptyPglite = '';
  const freshPgliteDir = (label: string) => {
    const dir = pgliteDir(label);
    fs.cpSync(emptyPglite, dir, { recursive: true });
    return dir;
  };

  // A newspaper that has lived a little: the demo seed, then sales paid in the sandbox (with a
  // digital edition: a download link and a mail), a payout and its reversal, a refund, an uploaded
  // image, a webhook, a failed login; values that trip careless copies (unicode, quotes, newlines,
  // backslashes, long floats, microseconds, json, arrays, bytes).
  before(async function () {
    this.timeout(120_000);
    await t.reset();
    const shop = await listenBooksShop(t);
    try {
      const office = await t.office();
      await sell(shop, t.db, { vendor: 'DEMO-1', items: { Zeitung: 2, 'Digitale Ausgabe': 1 }, tip: 150 });
      await sell(shop, t.db, { vendor: 'DEMO-2' });
      const refunded = await sell(shop, t.db, { vendor: 'DEMO-3', tip: 100 });
      const credit = (await listedVendor(t, office, 'DEMO-1')).credit;
      const paid = await shop.http
        .post('/api/payments/payout/')
        .set('Authorization', office)
        .send({ vendor: 'DEMO-1', expectedAmount: credit });
      assert.equal(paid.status, 201, JSON.stringify(paid.body));
      const reversed = await shop.http
        .post(`/api/payments/payout/${paid.body.id}/reverse/`)
        .set('Authorization', office)
        .send({ reason: 'Zweimal gezählt – „Kasse“ \\ neu' });
      assert.equal(reversed.status, 200, JSON.stringify(reversed.body));
      const refund = await shop.http.post(`/api/orders/${refunded.id}/refund/`).set('Authorization', office);
      assert.equal(refund.status, 200, JSON.stringify(refund.body));
      // A chargeback (Stripe's dispute test card), reported to the shop's webhook.
      await sell(shop, t.db, { vendor: 'DEMO-5', card: '4000000000000259' });
      await bankActsNow(t.db, shop.url);
      const dispute = await t.db('stripe_sandbox_objects').where({ type: 'dispute' }).first('id');
      assert.equal(
        (
          await postEvent(
            shop,
            signedEvent(
              'charge.dispute.created',
              { id: dispute.id, object: 'dispute' },
              shop.config.stripe.webhookSecret!,
            ),
          )
        ).status,
        200,
      );
      // The counter: a visit buying a copy from the credit, then the till's daily close, the till
      // signing in test mode (the TSE simulator), so its transactions and the simulator's state exist.
      const fiscal = await shop.http
        .put('/api/tills/1/fiscal')
        .set('Authorization', office)
        .send({ mode: 'test', country: 'DE' });
      assert.equal(fiscal.status, 200, JSON.stringify(fiscal.body));
      const counterCredit = (await listedVendor(t, office, 'DEMO-2')).credit;
      const zeitung = await t.db('items').where({ name: 'Zeitung' }).first('id');
      const visit = await shop.http
        .post('/api/counter/visits')
        .set('Authorization', office)
        .send({
          visitId: '4b0c2a52-8a8e-4f0e-9d49-2c1f8f5a1e01',
          vendor: 'DEMO-2',
          tillId: 1,
          items: [{ itemId: zeitung.id, quantity: 1 }],
          cash: 0,
          payOut: false,
          expectedCredit: counterCredit,
        });
      assert.equal(visit.status, 201, JSON.stringify(visit.body));
      const till = (await shop.http.get('/api/tills').set('Authorization', office)).body.tills[0];
      const closed = await shop.http
        .post('/api/tills/1/closes')
        .set('Authorization', office)
        .send({ counted: till.balance - 5, expected: till.balance, reason: 'Zählfehler' });
      assert.equal(closed.status, 201, JSON.stringify(closed.body));
      // A second till signs in Austria: its RKSV chain (a start receipt) and the signature device's key.
      const austrian = await shop.http
        .post('/api/tills')
        .set('Authorization', office)
        .send({ name: 'Kassa Wien', openingBalance: 5000 });
      assert.equal(austrian.status, 201, JSON.stringify(austrian.body));
      const rksv = await shop.http
        .put(`/api/tills/${austrian.body.id}/fiscal`)
        .set('Authorization', office)
        .send({ mode: 'test', country: 'AT' });
      assert.equal(rksv.status, 200, JSON.stringify(rksv.body));
      const signed = await shop.http.post('/api/fiscal/retry').set('Authorization', office).send({});
      assert.equal(signed.status, 200, JSON.stringify(signed.body));
      assert.deepEqual(signed.body.transactions, []);
      // The simulator's own switch, said once: it is on.
      const { apiKey } = await simulatorCredentials(t.db);
      const online = await shop.http
        .post('/fiscal-sandbox/offline')
        .set('Authorization', `Bearer ${apiKey}`)
        .send({ offline: false });
      assert.equal(online.status, 200, JSON.stringify(online.body));
      const bytes = pngBytes([1, 2, 3], 40);
      const item = await withForm(
        shop.http.post('/api/items').set('Authorization', office),
        { name: 'Kalender 🗓️ "2027"', price: 1200 },
        { image: { bytes, name: 'kalender.png' } },
      );
      assert.equal(item.status, 201, JSON.stringify(item.body));
      upload = { id: item.body.image.split('/').pop(), bytes };
      const event = signedEvent(
        'charge.updated',
        { id: 'ch_backup', object: 'charge' },
        shop.config.stripe.webhookSecret!,
      );
      assert.equal((await postEvent(shop, event)).status, 200);
    } finally {
      await shop.close();
    }
    // The closed shop starts no more sandbox webhook deliveries, but one under way (leased) still
    // reschedules its row when it ends, which would change the source after the backup. Once none is
    // under way, they are postponed by a day and stay still while source and copy are compared.
    await eventually(
      async () => !(await t.db('stripe_sandbox_deliveries').whereNotNull('leased_until').first()),
      'no sandbox webhook delivery under way',
    );
    await t.db('stripe_sandbox_deliveries').update({ next_attempt_at: t.db.raw(`now() + interval '1 day'`) });
    await claimAttempt(t.db, t.config.loginThrottle, 'Mallory', '203.0.113.9');
    await t.db('oidc_state').insert({
      model: 'Session',
      id: 'backup-session',
      payload: { accountId: '1', kind: 'Session' },
      uid: 'u1',
      account_id: '1',
      expires_at: t.db.raw(`now() + interval '1 hour'`),
    });
    const vendor = await t.db('vendors').where({ license_id: 'DEMO-4' }).first('id');
    await t.db('vendor_comments').insert({ vendor_id: vendor.id, comment: 'Zeile 1\nZeile 2\t"zitiert" \\ 🚲 ß' });
    // Another system's endpoint and an event delivered to it (delivered: no sender picks it up meanwhile).
    const [endpoint] = await t
      .db('webhook_endpoints')
      .insert({
        url: 'https://erp.example.org/hooks/shop',
        description: 'ERP „Odoo“',
        event_types: ['order.paid', 'payout.created'],
        secret: `whsec_${'x'.repeat(40)}`,
      })
      .returning<{ id: number }[]>('id');
    const eventId = randomUUID();
    await t.db('webhook_events').insert({ id: eventId, type: 'order.paid', data: JSON.stringify({ order: 1 }) });
    await t
      .db('webhook_deliveries')
      .insert({ event_id: eventId, endpoint_id: endpoint.id, status: 'delivered', attempts: 1 });
    // More digits than a double holds, on purpose: the backup must carry what the database stored.
    await t
      .db('vendors')
      .where({ id: vendor.id })
      // eslint-disable-next-line no-loss-of-precision
      .update({ latitude: 48.208176123456789, longitude: 16.373819000000001 });
    await t
      .db('rate_limits')
      .insert({
        bucket: 'order',
        address: '2001:db8::1',
        window_start: t.db.raw(`date_trunc('minute', now())`),
        requests: 3,
      })
      .onConflict()
      .ignore();

    // A till taken out of signing, with the reason the tax office reads, and a fault the TSE simulator was told to answer.
    const till = await t.db('tills').orderBy('id').first('id');
    await t.db('fiscal_decommissions').insert({
      till_id: till.id,
      country: 'DE',
      tss_serial: 'a'.repeat(64),
      client_serial: 'Kasse 1',
      reason: 'Kasse „Theke“ verkauft; TSE außer Betrieb',
      actor_name: 'Büro',
    });
    await t
      .db('fiscal_sandbox_faults')
      .insert({ method: 'PUT', path: '/tss/x', kind: 'status', status: 503, remaining: 1 });

    const empty: string[] = [];
    for (const table of (await schemaTables(t.db)).filter((name) => !isMigrationTable(name))) {
      if (!(await t.db(table).first())) empty.push(table);
    }
    assert.deepEqual(empty, [], 'the data fills every table (a new table needs a row here too)');
    await assertBalanced(t.db);

    backupFile = path.join(pgliteDir('file'), 'shop.backup.gz');
    await writeBackup(t.db, backupFile);

    emptyPglite = pgliteDir('empty');
    const blank = createDb({ dataDir: emptyPglite });
    await blank.raw('select 1');
    await blank.destroy();
  });

  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    if (postgresUrl) await databases.dropAll();
  });
  after(() => {
    for (const dir of temp.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes a gzip’d JSON-lines file: a header with the migrations and every table’s row count, the rows, the sequences', async () => {
    const lines = zlib.gunzipSync(fs.readFileSync(backupFile)).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]);
    assert.equal(header.format, 'street-paper-shop-backup');
    assert.deepEqual(header.migrations, await appliedMigrations(t.db));
    const rows = header.tables.reduce((sum: number, table: { rows: number }) => sum + table.rows, 0);
    // header, one marker per table, the rows, the sequences
    assert.equal(lines.length, 1 + header.tables.length + rows + 1);
    assert.ok(JSON.parse(lines.at(-1)!).sequences.some((s: { table: string }) => s.table === 'ledger_rows'));
    // a table comes after the tables it refers to
    const order = header.tables.map((table: { name: string }) => table.name);
    for (const [table, referenced] of [
      ['ledger_rows', 'payouts'],
      ['ledger_rows', 'orders'],
      ['items', 'files'],
      ['payouts', 'vendors'],
    ]) {
      assert.ok(order.indexOf(table) > order.indexOf(referenced), `${table} after ${referenced}`);
    }
  });

  it('restores into a fresh embedded database (a new data directory): every table equal, the app serves the restored data', async function () {
    this.timeout(120_000);
    const restored = open({ dataDir: freshPgliteDir('restore') });
    await restoreBackup(restored, backupFile);
    await assertSameDatabase(t.db, restored);
    // the restored database works: the uploaded image byte for byte, the books balanced
    const app = buildApp({ db: restored, config: t.config });
    const image = await supertest(app.callback()).get(`/files/${upload.id}`).buffer(true);
    assert.equal(image.status, 200);
    assert.equal(
      createHash('sha256').update(image.body).digest('hex'),
      createHash('sha256').update(upload.bytes).digest('hex'),
    );
    await assertBalanced(restored);
  });

  it('restores into a fresh PostgreSQL database: every table equal', async function () {
    if (!postgresUrl) this.skip();
    this.timeout(120_000);
    const restored = open({ databaseUrl: await databases.create(), dataDir: '' });
    await restoreBackup(restored, backupFile);
    await assertSameDatabase(t.db, restored);
  });

  it('refuses a database that already holds data, a backup from a newer version and a damaged one, and writes nothing', async function () {
    this.timeout(120_000);
    const refused = (message: RegExp) => (error: unknown) => {
      assert.ok(error instanceof MaintenanceError, String(error));
      assert.match(error.message, message);
      return true;
    };
    await assert.rejects(restoreBackup(t.db, backupFile), refused(/already holds data/));

    const lines = zlib.gunzipSync(fs.readFileSync(backupFile)).toString('utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0]);
    const write = (name: string, content: string[]) => {
      const file = path.join(path.dirname(backupFile), name);
      fs.writeFileSync(file, zlib.gzipSync(content.join('\n')));
      return file;
    };
    const newer = write('newer.gz', [
      JSON.stringify({ ...header, migrations: [...header.migrations, '999_from_the_future'] }),
      ...lines.slice(1),
    ]);
    const cut = write('cut.gz', lines.slice(0, Math.floor(lines.length * 0.8)));
    const tampered = write(
      'tampered.gz',
      lines.map((line) => line.replace('"Zeitung"', '"Zeitschrift"')),
    );
    const other = write('other.gz', ['{"hello":"world"}']);
    const plain = path.join(path.dirname(backupFile), 'plain.txt');
    fs.writeFileSync(plain, lines.join('\n'));

    const target = open(
      postgresUrl ? { databaseUrl: await databases.create(), dataDir: '' } : { dataDir: freshPgliteDir('refused') },
    );
    await assert.rejects(restoreBackup(target, newer), refused(/newer or different version.*999_from_the_future/));
    await assert.rejects(restoreBackup(target, cut), refused(/ends early/));
    await assert.rejects(restoreBackup(target, other), refused(/not a backup of the shop/));
    await assert.rejects(restoreBackup(target, plain), refused(/not a readable backup/));
    await assert.rejects(restoreBackup(target, tampered), refused(/differ from the backup: .*items/));
    for (const table of (await listTables(target)).map((x) => x.name).filter((name) => name !== 'settings')) {
      assert.equal(await target(table).first(), undefined, `${table} stayed empty`);
    }
    // and a good backup still goes in afterwards
    await restoreBackup(target, backupFile);
    await assertSameDatabase(t.db, target);
  });

  // The commands run on data directories and databases of their own, restored from the backup file,
  // never on the suite's database: the engine under test changes nothing they do, so they run once.
  if (engine === 'pglite') {
    it('npm run backup and npm run restore: refused while the embedded database is in use, then a round trip through the CLI', async function () {
      this.timeout(180_000);
      const dataDir = freshPgliteDir('cli-source');
      const source = createDb({ dataDir });
      await restoreBackup(source, backupFile);
      const file = path.join(pgliteDir('cli-file'), 'cli.backup.gz');

      // the test process holds the directory as a running server would
      const busy = await npmRun('backup', [file], { DATA_DIR: dataDir });
      assert.equal(busy.code, 1);
      assert.match(busy.stderr, new RegExp(`in use by process ${process.pid} on host .*stop that program first`));
      assert.equal(fs.existsSync(file), false);
      await source.destroy();

      const backedUp = await npmRun('backup', [file], { DATA_DIR: dataDir });
      assert.equal(backedUp.code, 0, backedUp.stderr);
      assert.match(backedUp.stdout, /Wrote .*cli\.backup\.gz: \d+ tables, [\d,]+ rows/);

      const target: Record<string, string> = postgresUrl
        ? { DATABASE_URL: await databases.create() }
        : { DATA_DIR: freshPgliteDir('cli-target') };
      const restored = await npmRun('restore', [file], target);
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, /every table's rows and checksum match it/);
      const again = await npmRun('restore', [file], target);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /already holds data/);

      const sourceAgain = open({ dataDir });
      const targetDb = open(
        target.DATABASE_URL ? { databaseUrl: target.DATABASE_URL, dataDir: '' } : { dataDir: target.DATA_DIR },
      );
      await assertSameDatabase(sourceAgain, targetDb);
    });

    it('npm run migrate-to-postgres moves an embedded installation into an empty PostgreSQL database and prints every table as the same', async function () {
      if (!postgresUrl) this.skip();
      this.timeout(180_000);
      const dataDir = freshPgliteDir('move');
      const embedded = createDb({ dataDir });
      await restoreBackup(embedded, backupFile);
      await embedded.destroy();

      const url = await databases.create();
      const moved = await npmRun('migrate-to-postgres', [url], { DATA_DIR: dataDir });
      assert.equal(moved.code, 0, moved.stderr + moved.stdout);
      const tables = (await listTables(t.db)).map((x) => x.name);
      for (const table of tables)
        assert.match(moved.stdout, new RegExp(`^${table} .* same$`, 'm'), `${table} is in the printed comparison`);
      assert.match(moved.stdout, new RegExp(`All ${tables.length} tables are the same`));
      assert.doesNotMatch(moved.stdout + moved.stderr, /DIFFERENT/);

      // moving twice would mix two copies: refused
      const twice = await npmRun('migrate-to-postgres', [url], { DATA_DIR: dataDir });
      assert.equal(twice.code, 1);
      assert.match(twice.stderr, /already holds data/);
      await assertSameDatabase(open({ dataDir }), open({ databaseUrl: url, dataDir: '' }));
    });
  }
});
