import assert from 'node:assert/strict';
import { createDb, migrate } from '../../api/src/db/connection.ts';
import { seedOnFirstStart } from '../../seeds/index.ts';
import { migratedCopy, removeDir, startServer, tempDir } from '../e2e/server.ts';
import { npmScript } from '../support/npm-script.ts';

// after two processes wrote to one embedded data directory, tables and indexes disagreed,
// paid orders had booked amounts different from their totals and receipt numbers were issued twice,
// and nothing said so until a backup. `npm run check` reads the books and the indexes and names it.

const receiptIndex = 'payouts_receipt_number_key';

/** `npm run check` on the embedded database in `dataDir`, or on the PostgreSQL database `databaseUrl`. */
async function npmCheck(target: { dataDir: string; databaseUrl?: string }) {
  const env = { ...process.env, DATABASE_URL: target.databaseUrl ?? '', DATA_DIR: target.dataDir, LOG_LEVEL: 'silent' };
  return npmScript('check', [], env);
}

const adminUrl = process.env.TEST_DATABASE_URL;

const engines = adminUrl ? ['pglite', 'postgres'] : ['pglite'];

for (const engine of engines)
  describe(`npm run check: books and indexes consistent [${engine}]`, function () {
    this.timeout(300_000);
    const target: { dataDir: string; databaseUrl?: string } = { dataDir: tempDir('check-') };
    const database = `check_${process.pid}`;
    before(async () => {
      if (engine !== 'postgres') {
        // The schema as the migrations leave it, copied: the check is under test, not a first migration.
        await migratedCopy(target.dataDir);
        return;
      }
      const admin = createDb({ databaseUrl: adminUrl, dataDir: '' });
      try {
        await admin.raw(`drop database if exists "${database}" with (force)`);
        await admin.raw(`create database "${database}"`);
      } finally {
        await admin.destroy();
      }
      target.databaseUrl = Object.assign(new URL(adminUrl!), { pathname: `/${database}` }).href;
    });
    after(async () => {
      removeDir(target.dataDir);
      if (engine !== 'postgres') return;
      const admin = createDb({ databaseUrl: adminUrl, dataDir: '' });
      try {
        await admin.raw(`drop database if exists "${database}" with (force)`);
      } finally {
        await admin.destroy();
      }
    });

    it('passes on a healthy database, and names each invariant a test broke on purpose', async () => {
      const db = createDb(target);
      type Payout = { id: number; receipt_number: string; amount: number };
      let payout: Payout, other: Payout, paid: { id: number; amount_total: number }, pending: { id: number };
      try {
        await migrate(db);
        await seedOnFirstStart(db, { now: new Date(), timeZone: 'Europe/Berlin' });
        [payout, other] = await db('payouts').orderBy('id').limit(2).select('id', 'receipt_number', 'amount');
        paid = await db('orders').where({ status: 'paid' }).orderBy('id').first('id', 'amount_total');
        const vendor = (await db('vendors').first('id')).id;
        [pending] = await db('orders')
          .insert({ token: 'p'.repeat(43), vendor_id: vendor, amount_total: 500, expires_at: new Date() })
          .returning('id');
        assert.ok(payout && other && paid, 'the demo history has payouts and paid orders');
      } finally {
        await db.destroy();
      }

      const healthy = await npmCheck(target);
      assert.equal(healthy.code, 0, healthy.out);
      assert.match(healthy.out, /All 5 checks passed/);

      // Broken as two writers break it: past the ledger guard's triggers (replica role) and, for the
      // receipt number, past its unique index, which is not kept up to date meanwhile.
      const broken = createDb(target);
      try {
        await broken.transaction(async (trx) => {
          await trx.raw('set local session_replication_role = replica');
          const accounts = await trx('ledger_accounts').orderBy('id').limit(2).pluck('id');
          const unreversed = (await trx('ledger_rows').where({ kind: 'sale' }).orderBy('id', 'desc').first('id')).id;
          const orphan = { sender_id: 999_999, receiver_id: accounts[0], amount: 700, kind: 'payout_reversal' };
          await trx('ledger_rows').insert({ ...orphan, reversal_of: unreversed, authorised_by: 'test' });
          await trx('orders')
            .where({ id: paid.id })
            .update({ amount_total: paid.amount_total + 1 });
          const unpaidFee = { sender_id: accounts[0], receiver_id: accounts[1], amount: 300, kind: 'fee' };
          await trx('ledger_rows').insert({ ...unpaidFee, order_id: pending.id });
          await trx('payouts')
            .where({ id: payout.id })
            .update({ amount: payout.amount + 500 });
          await trx.raw(`update pg_index set indisready = false where indexrelid = ?::regclass`, [receiptIndex]);
        });
        await broken.transaction(async (trx) => {
          await trx.raw('set local session_replication_role = replica');
          await trx('payouts').where({ id: other.id }).update({ receipt_number: payout.receipt_number });
        });
        await broken.raw(`update pg_index set indisready = true where indexrelid = ?::regclass`, [receiptIndex]);
      } finally {
        await broken.destroy();
      }

      const found = await npmCheck(target);
      assert.equal(found.code, 1, found.out);
      assert.match(found.out, /FAILED {2}balances sum to zero\n.*sum to 700 cents instead of 0\./);
      assert.match(found.out, /sum to 700 cents instead of 0\.\n.*1 ledger rows name an account that does not exist/);
      const booked = `is for ${paid.amount_total + 1} cents but its sale and tip book ${paid.amount_total} cents\\.`;
      const order = `Order ${paid.id} \\(paid\\) ${booked}`;
      assert.match(found.out, new RegExp(`FAILED {2}every paid order booked once\\n.*${order}`));
      assert.match(found.out, new RegExp(`Order ${pending.id} is pending but has 1 ledger rows\\.`));
      const stamped =
        `is for ${payout.amount + 500} cents, its cash row says ${payout.amount} ` +
        `and the rows it settled ${payout.amount}\\.`;
      const payoutLine = `Payout ${payout.receipt_number} ${stamped}`;
      assert.match(found.out, new RegExp(`FAILED {2}payouts equal what they stamped\\n.*${payoutLine}`));
      const twice = `The receipt number ${payout.receipt_number} was issued 2 times\\.`;
      assert.match(found.out, new RegExp(`FAILED {2}receipt numbers unique\\n.*${twice}`));
      assert.match(found.out, /FAILED {2}indexes agree with their tables\n.*The index payouts_receipt_number_key /);
      assert.match(found.out, /The index payouts_receipt_number_key does not agree with the table payouts/);
      assert.match(found.out, /5 of 5 checks failed/);

      // The server checks at every start too: it warns, names the problems, and serves all the same.
      const server = await startServer({ ...target, readyTimeoutMs: 180_000 });
      try {
        for (let i = 0; i < 600 && !server.stderr().includes('WARNING: the consistency check'); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const warning = /WARNING: the consistency check of the books found problems:\n {2}- balances sum to zero: /;
        assert.match(server.stderr(), warning);
        assert.match(server.stderr(), /- receipt numbers unique: The receipt number \S+ was issued 2 times\./);
        assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
      } finally {
        await server.stop();
      }
    });
  });
